package edits

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/testcache"
)

// findGopls looks for gopls where scripts/setup.sh and go install put
// it; "" when it is not installed.
func findGopls() string {
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	var dirs []string
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, d := range filepath.SplitList(strings.TrimSpace(string(out))) {
			dirs = append(dirs, filepath.Join(d, "bin"))
		}
	}
	cache := testcache.Dir()
	dirs = append(dirs, filepath.Join(cache, "bin"), filepath.Join(cache, "gopls"), filepath.Join(cache, "gopls", "bin"), filepath.Join(cache, "go", "bin"))
	for _, d := range dirs {
		p := filepath.Join(d, "gopls")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// goplsSession is gopls on a module, spoken to over stdio.
type goplsSession struct {
	conn *jsonrpc2.Conn
	cmd  *exec.Cmd

	mu        sync.Mutex
	applyOpts *Options                            // workspace/applyEdit is answered with HandleApplyEdit under these; nil: refused
	applied   []protocol.ApplyWorkspaceEditResult // the answers given
}

// applyEdit answers gopls' workspace/applyEdit.
func (s *goplsSession) applyEdit(ctx context.Context, raw *json.RawMessage) (protocol.ApplyWorkspaceEditResult, error) {
	var params protocol.ApplyWorkspaceEditParams
	if raw == nil || json.Unmarshal(*raw, &params) != nil {
		return protocol.ApplyWorkspaceEditResult{}, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "bad workspace/applyEdit parameters"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	res := protocol.ApplyWorkspaceEditResult{FailureReason: "the test does not expect edits now"}
	if s.applyOpts != nil {
		res = HandleApplyEdit(ctx, params, *s.applyOpts)
	}
	s.applied = append(s.applied, res)
	return res, nil
}

// stdio joins gopls' stdout and stdin into one stream.
type stdio struct {
	io.Reader
	io.WriteCloser
}

// startGopls starts gopls in dir and initializes it with the workspace
// edit capabilities Apply supports; the test's cleanup shuts it down.
func startGopls(ctx context.Context, t *testing.T, gopls, dir string) *goplsSession {
	t.Helper()
	cmd := exec.CommandContext(ctx, gopls)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOPROXY=off", "GOTOOLCHAIN=local")
	childproc.PrepareCancelGroup(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &goplsSession{cmd: cmd}
	handler := jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(func(ctx context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Notif {
			return nil, nil // logs, progress, diagnostics: not needed here
		}
		switch req.Method {
		case "workspace/applyEdit":
			return s.applyEdit(ctx, req.Params)
		case "workspace/configuration":
			var p struct {
				Items []json.RawMessage `json:"items"`
			}
			if req.Params != nil {
				_ = json.Unmarshal(*req.Params, &p)
			}
			return make([]any, len(p.Items)), nil
		case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability":
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: req.Method + " is not handled by the test client"}
	}))
	s.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(stdio{out, in}, jsonrpc2.VSCodeObjectCodec{}), handler)
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = s.conn.Call(sctx, "shutdown", nil, nil)
		_ = s.conn.Notify(sctx, "exit", nil)
		_ = s.conn.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-sctx.Done():
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("gopls stderr:\n%s", stderr.String())
		}
	})
	init := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          protocol.FileURI(dir),
		"workspaceFolders": []map[string]any{{"uri": protocol.FileURI(dir), "name": filepath.Base(dir)}},
		"capabilities": map[string]any{
			"general":   map[string]any{"positionEncodings": []string{"utf-16"}},
			"workspace": map[string]any{"workspaceEdit": Capabilities(), "configuration": true, "workspaceFolders": true},
		},
	}
	if err := s.conn.Call(ctx, "initialize", init, nil); err != nil {
		t.Fatalf("gopls initialize: %v", err)
	}
	if err := s.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return s
}

// renameParams are textDocument/rename's parameters.
type renameParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Position     protocol.Position               `json:"position"`
	NewName      string                          `json:"newName"`
}

// TestGoplsRenameAcrossFiles has gopls rename a function used in three
// files of a module — one with CRLF line endings, one with a byte-order
// mark and an emoji before the renamed call on its line — applies the
// answer with Apply, then has gopls add a missing import to a fourth file
// by its own workspace/applyEdit request, answered by HandleApplyEdit,
// and builds the module. A change to a file after the server saw it is
// refused first, with nothing written.
func TestGoplsRenameAcrossFiles(t *testing.T) {
	gopls := findGopls()
	if gopls == "" {
		t.Skip("gopls is not installed (looked on PATH, in $(go env GOPATH)/bin and in the test cache); run scripts/setup.sh (make) to install it")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const mainGo = "\ufeffpackage main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/ren/a\"\n\t\"example.com/ren/b\"\n)\n\nfunc main() { fmt.Println(a.Old(), \"😀 é\", a.Old(), b.B()) }\n"
	root, opts := workspaceDir(t, map[string]string{
		"go.mod":  "module example.com/ren\n\ngo 1.22\n",
		"a/a.go":  "package a\n\n// Old is the function the test renames.\nfunc Old() int { return 1 }\n",
		"b/b.go":  "package b\r\n\r\nimport \"example.com/ren/a\"\r\n\r\n// B calls a.Old twice.\r\nfunc B() int { return a.Old() + a.Old() }\r\n",
		"main.go": mainGo,
		"c/c.go":  "package c\r\n\r\n// Up needs an import gopls adds.\r\nfunc Up(s string) string { return strings.ToUpper(s) }\r\n",
	})
	s := startGopls(ctx, t, gopls, root)

	// main.go is sent open, without its byte-order mark, at version 1;
	// the rename is asked at the call after the emoji.
	sent := strings.TrimPrefix(mainGo, "\ufeff")
	mainPath := filepath.Join(root, "main.go")
	if err := s.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": protocol.TextDocumentItem{
		URI: protocol.FileURI(mainPath), LanguageID: "go", Version: 1, Text: sent,
	}}); err != nil {
		t.Fatal(err)
	}
	opts.Documents = func(abs string) (Document, bool) {
		if abs == mainPath {
			return Document{Version: 1, Hash: HashText([]byte(sent))}, true
		}
		return Document{}, false
	}
	at := protocol.PositionAt([]byte(sent), strings.LastIndex(sent, "a.Old()")+2)
	if at.Line != 9 || at.Character != 45 {
		t.Fatalf("position of the call = %+v, want 9:45 (UTF-16 units)", at)
	}
	var edit *protocol.WorkspaceEdit
	if err := s.conn.Call(ctx, "textDocument/rename", renameParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: protocol.FileURI(mainPath)}, Position: at, NewName: "New",
	}, &edit); err != nil {
		t.Fatalf("gopls rename: %v", err)
	}
	if edit == nil || len(edit.DocumentChanges) == 0 {
		t.Fatalf("gopls answered %+v, want document changes", edit)
	}
	preview := Preview(*edit, opts.Display)
	for _, want := range []string{"a/a.go: 2 edits", "b/b.go: 2 edits", "main.go: 2 edits", `line 10:46 → "New"`} {
		if !strings.Contains(preview, want) {
			t.Errorf("preview lacks %q:\n%s", want, preview)
		}
	}

	// The file changes after gopls computed the edit: refused, nothing
	// written.
	before := tree(t, root)
	if err := os.WriteFile(mainPath, []byte(mainGo+"// changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, *edit, opts); !errors.Is(err, ErrStale) {
		t.Fatalf("Apply on a changed main.go: %v, want ErrStale", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a/a.go")); string(b) != before["a/a.go"] {
		t.Fatal("a refused edit changed a/a.go")
	}
	if err := os.WriteFile(mainPath, []byte(mainGo), 0o644); err != nil {
		t.Fatal(err)
	}

	res, err := Apply(ctx, *edit, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Summary(opts.Display), "\n"); !strings.Contains(got, "Applied 2 edit(s) to b/b.go") || !strings.Contains(got, "Applied 2 edit(s) to main.go") {
		t.Errorf("summary:\n%s", got)
	}
	after := tree(t, root)
	for name, content := range after {
		if strings.Contains(content, "Old()") {
			t.Errorf("%s still calls Old:\n%s", name, content)
		}
	}
	if got := after["b/b.go"]; strings.Count(got, "\r\n") != strings.Count(got, "\n") {
		t.Errorf("b/b.go lost its CRLF line endings: %q", got)
	}
	if got := after["main.go"]; !strings.HasPrefix(got, "\ufeffpackage main") || !strings.Contains(got, `fmt.Println(a.New(), "😀 é", a.New(), b.B())`) {
		t.Errorf("main.go = %q", got)
	}

	// gopls adds the import c/c.go lacks through workspace/applyEdit.
	s.mu.Lock()
	s.applyOpts = &opts
	s.mu.Unlock()
	if err := s.conn.Call(ctx, "workspace/executeCommand", map[string]any{
		"command":   "gopls.add_import",
		"arguments": []any{map[string]any{"ImportPath": "strings", "URI": uri(root, "c/c.go")}},
	}, nil); err != nil {
		t.Fatalf("gopls.add_import: %v", err)
	}
	s.mu.Lock()
	applied := s.applied
	s.mu.Unlock()
	if len(applied) != 1 || !applied[0].Applied {
		t.Fatalf("workspace/applyEdit answers = %+v, want one applied", applied)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "c/c.go")); !bytes.Contains(got, []byte("import \"strings\"\r\n")) || bytes.Count(got, []byte("\r\n")) != bytes.Count(got, []byte("\n")) {
		t.Errorf("c/c.go after add_import = %q", got)
	}

	build := exec.CommandContext(ctx, goBin, "build", "./...")
	build.Dir = root
	build.Env = append(os.Environ(), "GOFLAGS=", "GOPROXY=off", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build after the rename: %v\n%s", err, out)
	}
}
