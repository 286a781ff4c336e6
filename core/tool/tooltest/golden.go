// Package tooltest runs data-driven golden cases for tools.
//
// Each case is a txtar archive under a package's testdata directory:
//
//	Comment: what the case covers.
//	-- env --            optional KEY=VALUE lines: the environment the
//	                     case's configuration is loaded from
//	-- .gopi/settings.json --  like any file; project settings apply
//	-- some/file.txt --  files written to a fresh working directory
//	-- call --           JSON arguments of one call
//	-- result --         expected text of a successful result
//	-- call --           further calls run in order …
//	-- error --          … or the expected text of an error result
//	-- details --        optional: expected details of the previous call as JSON
//	-- cache:f.txt --    optional: the read cache for f.txt after the previous call
//	-- after:f.txt --    optional: f.txt's content at the end ("(missing)" if absent)
//	-- KIND:f.bin --     a file built from the section's text by
//	                     Options.Build (archives, databases, …)
//	-- http:/path --     a page a local HTTP server answers with: header
//	                     lines ("Status: 404", "Content-Type: …", any
//	                     other header; "Location: …" for redirects), a
//	                     blank line, then the body. Calls refer to the
//	                     server as $SERVER, which compared text shows too.
//
// Files get distinct modification times, newest first in archive order
// (the first file is 1 hour old, the next 2 hours, …), and directories the
// time of their newest child, so listings sorted by time are reproducible.
// The working directory appears as $WORK in compared text. Run the tests
// with -update (internal/golden's flag) to rewrite the expected sections
// from the actual output.
package tooltest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/golden"
	"golang.org/x/tools/txtar"
)

// Factory builds the tool under test for a case's session.
type Factory func(env *tool.Env) tool.Tool

// Options extend how cases are set up.
type Options struct {
	// Build makes a file from a section that is not a plain file, such
	// as "zip:a.zip": ok reports that it handled the section, path is
	// where the file goes (relative to the working directory).
	Build func(section string, text []byte) (path string, data []byte, ok bool, err error)
}

// RunDir runs every *.txtar case in dir as a subtest.
func RunDir(t *testing.T, dir string, newTool Factory, opts ...Options) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in %s: %v", dir, err)
	}
	for _, file := range files {
		file, _ := filepath.Abs(file)
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			RunCase(t, file, newTool, opts...)
		})
	}
}

// expectSections are the sections compared with (or rewritten from) output.
func isExpect(name string) bool {
	return name == "result" || name == "error" || name == "details" ||
		strings.HasPrefix(name, "cache:") || strings.HasPrefix(name, "after:")
}

// RunCase runs one case file.
func RunCase(t *testing.T, file string, newTool Factory, opts ...Options) {
	ar := golden.ReadArchive(t, file)
	work := t.TempDir()
	if real, err := filepath.EvalSymlinks(work); err == nil {
		work = real
	}
	now := time.Now()
	age := 0
	var environ []string
	for _, f := range ar.Files {
		if f.Name == "env" {
			for _, kv := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				if strings.Contains(kv, "=") {
					environ = append(environ, kv)
				}
			}
			continue
		}
		if f.Name == "call" || isExpect(f.Name) || strings.HasPrefix(f.Name, "http:") {
			continue
		}
		name, data := f.Name, f.Data
		for _, o := range opts {
			if o.Build == nil {
				continue
			}
			p, built, ok, err := o.Build(f.Name, f.Data)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				name, data = p, built
				break
			}
		}
		path := filepath.Join(work, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") { // an empty directory
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		age++
		mt := now.Add(-time.Duration(age) * time.Hour)
		if err := os.Chtimes(path, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	stampDirs(t, work)
	cfg, err := config.Load(config.LoadOptions{Cwd: work, Home: t.TempDir(), Environ: environ})
	if err != nil {
		t.Fatal(err)
	}
	server := serve(t, ar.Archive)
	env := tool.NewEnvFrom(cfg)
	env.Artifacts = artifact.NewStore(filepath.Join(work, ".artifacts"))
	tl := newTool(env)

	var last *tool.Result
	ran := false
	for i := range ar.Files {
		f := &ar.Files[i]
		switch {
		case f.Name == "call":
			call := f.Data
			if server != "" {
				call = []byte(strings.ReplaceAll(string(call), "$SERVER", server))
			}
			res, err := tool.Run(context.Background(), tl, json.RawMessage(call), nil)
			if err != nil {
				t.Fatalf("call %s: %v", strings.TrimSpace(string(f.Data)), err)
			}
			last, ran = res, true
		case isExpect(f.Name):
			if !ran {
				t.Fatalf("section %s comes before any call", f.Name)
			}
			got := actual(t, f.Name, last, env, work)
			if server != "" {
				got = strings.ReplaceAll(got, server, "$SERVER")
			}
			if golden.Update() { // -update also turns a result into an error and back
				if f.Name == "result" && last.IsError {
					f.Name = "error"
				} else if f.Name == "error" && !last.IsError {
					f.Name = "result"
				}
			} else if f.Name == "result" && last.IsError {
				t.Errorf("want a result, got an error:\n%s", last.FirstText())
				continue
			} else if f.Name == "error" && !last.IsError {
				t.Errorf("want an error, got a result:\n%s", last.FirstText())
				continue
			}
			ar.CheckFile(t, f, got)
		}
	}
	if !ran {
		t.Fatal("case has no call section")
	}
	ar.Save(t)
}

// actual renders what a section compares against.
func actual(t *testing.T, section string, res *tool.Result, env *tool.Env, work string) string {
	clean := func(s string) string {
		s = strings.ReplaceAll(s, work, "$WORK")
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		return s
	}
	switch {
	case section == "result" || section == "error":
		var parts []string
		for _, c := range res.Content {
			switch c := c.(type) {
			case *tool.TextContent:
				parts = append(parts, c.Text)
			case *tool.ImageContent:
				parts = append(parts, fmt.Sprintf("[image %s, %d base64 bytes]", c.MIMEType, len(c.Data)))
			}
		}
		return clean(strings.Join(parts, "\n"))
	case section == "details":
		b, err := json.MarshalIndent(res.Details, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return clean(string(b))
	case strings.HasPrefix(section, "cache:"):
		snap, ok := env.ReadCache.Get(filepath.Join(work, strings.TrimPrefix(section, "cache:")))
		if !ok {
			return "(not cached)\n"
		}
		nums := make([]int, 0, len(snap.Lines))
		for n := range snap.Lines {
			nums = append(nums, n)
		}
		slices.Sort(nums)
		var b strings.Builder
		fmt.Fprintf(&b, "total=%d\n", snap.TotalLines)
		for _, n := range nums {
			b.WriteString(strconv.Itoa(n) + ":" + snap.Lines[n] + "\n")
		}
		return b.String()
	default: // after:
		data, err := os.ReadFile(filepath.Join(work, strings.TrimPrefix(section, "after:")))
		if err != nil {
			return "(missing)\n"
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n') // txtar sections always end in a newline
		}
		return string(data)
	}
}

// stampDirs gives every directory the modification time of its newest child.
func stampDirs(t *testing.T, root string) {
	var visit func(dir string) time.Time
	visit = func(dir string) time.Time {
		var newest time.Time
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			var mt time.Time
			if e.IsDir() {
				mt = visit(p)
			} else if info, err := e.Info(); err == nil {
				mt = info.ModTime()
			}
			if mt.After(newest) {
				newest = mt
			}
		}
		if newest.IsZero() {
			newest = time.Now().Add(-30 * time.Minute)
		}
		if err := os.Chtimes(dir, newest, newest); err != nil {
			t.Fatal(err)
		}
		return newest
	}
	visit(root)
}

// serve starts a local HTTP server for the case's http: sections and
// returns its URL ("" when the case has none).
func serve(t *testing.T, ar *txtar.Archive) string {
	type page struct {
		status  int
		headers http.Header
		body    []byte
	}
	pages := map[string]page{}
	for _, f := range ar.Files {
		path, ok := strings.CutPrefix(f.Name, "http:")
		if !ok {
			continue
		}
		head, body, found := strings.Cut(string(f.Data), "\n\n")
		if !found && strings.HasPrefix(string(f.Data), "\n") {
			head, body = "", string(f.Data[1:])
		} else if !found {
			t.Fatalf("section %s: header lines, a blank line, then the body", f.Name)
		}
		p := page{status: http.StatusOK, headers: http.Header{}, body: []byte(body)}
		for _, line := range strings.Split(head, "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if k == "Status" {
				n, err := strconv.Atoi(v)
				if err != nil {
					t.Fatalf("section %s: bad status %q", f.Name, v)
				}
				p.status = n
				continue
			}
			p.headers.Add(k, v)
		}
		pages[path] = p
	}
	if len(pages) == 0 {
		return ""
	}
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.RequestURI()]
		if !ok {
			p, ok = pages[r.URL.Path]
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, vs := range p.headers {
			for _, v := range vs {
				w.Header().Add(k, strings.ReplaceAll(v, "$SERVER", srv.URL))
			}
		}
		w.WriteHeader(p.status)
		w.Write(p.body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
