package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/sessiongen"
)

// gopi stats adds up the sessions in the agent directory.
func TestStatsCommand(t *testing.T) {
	environ := isolatedEnviron(t)
	sessions := filepath.Join(homeOf(environ), ".gopi", "agent", "sessions")
	for i, cwd := range []string{"/work/a", "/work/b"} {
		if _, err := sessiongen.Write(sessiongen.Options{Dir: filepath.Join(sessions, "--work-x--"), Cwd: cwd, Entries: 30, Seed: uint64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := loginRun(t, environ, nil, "", "stats", "--json")
	var r struct {
		Sessions int
		Overall  struct{ TotalRequests int64 }
		ByFolder []struct{ Folder string }
		ByTool   []struct {
			Tool  string
			Calls int64
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Sessions != 2 || r.Overall.TotalRequests == 0 || len(r.ByFolder) != 2 || len(r.ByTool) == 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	out, _, code = loginRun(t, environ, nil, "", "stats")
	if code != 0 || !strings.HasPrefix(out, "Read 2 session files, 2 of them unchanged since the last run (") || !strings.Contains(out, "\n  Sessions: 2\n") || !strings.Contains(out, "\nBy Folder:\n  /work/") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if out, _, _ = loginRun(t, environ, nil, "", "stats", "--rescan"); !strings.HasPrefix(out, "Read 2 session files, 0 of them unchanged") {
		t.Fatalf("%s", out)
	}
	if _, errOut, code = loginRun(t, environ, nil, "", "stats", "extra"); code != exitError || !strings.Contains(errOut, "takes no arguments") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// gopi stats --port serves the dashboard: the page, and the numbers as
// JSON, until its context ends (Ctrl+C).
func TestStatsDashboard(t *testing.T) {
	environ := isolatedEnviron(t)
	sessions := filepath.Join(homeOf(environ), ".gopi", "agent", "sessions")
	if _, err := sessiongen.Write(sessiongen.Options{Dir: filepath.Join(sessions, "--work-x--"), Cwd: "/work/a", Entries: 30, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		defer pw.Close()
		done <- run(ctx, &cliEnv{stdout: pw, stderr: &errb, stdin: strings.NewReader(""), environ: environ}, []string{"stats", "--port", "0"})
	}()
	lines := bufio.NewScanner(pr)
	url := ""
	for url == "" && lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "Dashboard available at: "); ok {
			url = u
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if !strings.HasPrefix(url, "http://localhost:") {
		t.Fatalf("no dashboard address; stderr %q", errb.String())
	}
	get := func(path string) (int, string) {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/"); code != 200 || !strings.Contains(body, "<title>gopi usage</title>") || !strings.Contains(body, `fetch(path`) {
		t.Fatalf("page: %d %.200s", code, body)
	}
	var r struct {
		Sessions int
		Overall  struct{ TotalRequests int64 }
	}
	if code, body := get("/api/stats"); code != 200 || json.Unmarshal([]byte(body), &r) != nil || r.Sessions != 1 || r.Overall.TotalRequests == 0 {
		t.Fatalf("/api/stats: %d %s", code, body)
	}
	if code, body := get("/api/stats/folders"); code != 200 || !strings.HasPrefix(body, `[{"folder":"/work/a"`) {
		t.Fatalf("/api/stats/folders: %d %s", code, body)
	}
	if _, err := sessiongen.Write(sessiongen.Options{Dir: filepath.Join(sessions, "--work-y--"), Cwd: "/work/b", Entries: 10, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	if code, body := get("/api/sync"); code != 200 || !strings.Contains(body, `"files":2`) {
		t.Fatalf("/api/sync: %d %s", code, body)
	}
	if code, body := get("/api/stats/overall"); code != 200 || !strings.Contains(body, `"totalRequests"`) {
		t.Fatalf("/api/stats/overall: %d %s", code, body)
	}
	if code, _ := get("/api/nothing"); code != 404 {
		t.Fatalf("an unknown API path: %d", code)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
}
