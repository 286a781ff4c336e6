package lsp

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
)

// fakeTool is the tool over the fake server (handling .txt files) in
// mode, in a fresh root.
func fakeTool(t testing.TB, mode string, opts lsp.ManagerOptions) (*Tool, string) {
	t.Helper()
	return fakeToolAt(t, t.TempDir(), mode, opts)
}

// fakeToolAt is fakeTool in root.
func fakeToolAt(t testing.TB, root, mode string, opts lsp.ManagerOptions) (*Tool, string) {
	t.Helper()
	writeFiles(t, root, map[string]string{"fake.marker": ""})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts.Builtins = []*lsp.Server{
		{Name: "fake", Command: exe, FileTypes: []string{".txt"}, RootMarkers: []string{"fake.marker"}},
		{Name: "zls", Command: "zls-not-installed", FileTypes: []string{".zig"}, RootMarkers: []string{"fake.marker"}, Install: "get zls"},
	}
	opts.Dial = lsp.Spawn(lsptest.Env(mode))
	opts.ProjectLoadTimeout = time.Millisecond
	tl, m := newTool(t, root, opts)
	t.Cleanup(func() { m.Close() })
	return tl, root
}

func TestFakeDiagnostics(t *testing.T) {
	tl, root := fakeTool(t, lsptest.FakeOK, lsp.ManagerOptions{})
	writeFiles(t, root, map[string]string{"a.txt": "fine\nBAD\n", "sub/b.txt": "ok\n", "sub/c.txt": "BAD\nBAD\n"})
	text, d := run(t, tl, map[string]any{"action": "diagnostics", "file": "a.txt"})
	if text != "1 error(s):\n# a.txt\n  2:1 [error] [fake] bad thing" || !d.Success || d.ServerName != "fake" {
		t.Fatalf("%q %+v", text, d)
	}
	writeFiles(t, root, map[string]string{"a.txt": "fine\n"})
	if text, _ := run(t, tl, map[string]any{"action": "diagnostics", "file": "a.txt"}); text != "OK" {
		t.Fatalf("after the fix: %q", text)
	}
	text, _ = run(t, tl, map[string]any{"action": "diagnostics", "file": "**/*.txt"})
	want := []string{"✔ a.txt: no issues", "✔ sub/b.txt: no issues", "✘ sub/c.txt: 2 error(s)\n# sub/\n## c.txt\n  1:1 [error] [fake] bad thing\n  2:1 [error] [fake] bad thing"}
	contains(t, text, want...)
	if text, _ := run(t, tl, map[string]any{"action": "diagnostics", "file": "*.none"}); text != "No files matched pattern: *.none" {
		t.Fatal(text)
	}
	text, d = run(t, tl, map[string]any{"action": "diagnostics", "file": "x.zig"})
	if text != "✘ x.zig: No language server found (language server zls (zls-not-installed) is not installed; install it with: get zls)" {
		t.Fatalf("%q", text)
	}
	if text, d := run(t, tl, map[string]any{"action": "diagnostics"}); d.Success || !strings.HasPrefix(text, "Error: file parameter required.") {
		t.Fatal(text)
	}
}

// "*" runs the project's own checker and shows what it printed.
func TestWorkspaceDiagnostics(t *testing.T) {
	tl, root := fakeTool(t, lsptest.FakeOK, lsp.ManagerOptions{})
	text, _ := run(t, tl, map[string]any{"action": "diagnostics", "file": "*"})
	if !strings.HasPrefix(text, "Workspace diagnostics (Unknown project type):\nCannot detect project type.") {
		t.Fatalf("%q", text)
	}
	writeFiles(t, root, map[string]string{"go.mod": "module example.com/w\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() { var x int = \"s\" }\n"})
	text, _ = run(t, tl, map[string]any{"action": "diagnostics", "file": "*", "timeout": 60})
	contains(t, text, "Workspace diagnostics (Go (go build)):\n", "main.go:3:")
	writeFiles(t, root, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	if text, _ = run(t, tl, map[string]any{"action": "diagnostics", "file": "*", "timeout": 60}); text != "Workspace diagnostics (Go (go build)):\nNo issues found" {
		t.Fatalf("%q", text)
	}
}

func TestFakeManyDiagnosticsAreCapped(t *testing.T) {
	tl, root := fakeTool(t, lsptest.FakeHuge, lsp.ManagerOptions{})
	writeFiles(t, root, map[string]string{"a.txt": "x\n"})
	text, _ := run(t, tl, map[string]any{"action": "diagnostics", "file": "a.txt"})
	lines := strings.Split(text, "\n")
	if lines[0] != "500 warning(s):" || len(lines) != 1+1+50+1 || lines[len(lines)-1] != "... 450 more diagnostic(s) not shown" {
		t.Fatalf("%d lines: %q … %q", len(lines), lines[0], lines[len(lines)-1])
	}
}

func TestFakeNavigation(t *testing.T) {
	tl, root := fakeTool(t, lsptest.FakeOK, lsp.ManagerOptions{})
	writeFiles(t, root, map[string]string{"a.txt": "head\nsecond x x\nthird\n"})
	text, d := run(t, tl, map[string]any{"action": "definition", "file": "a.txt", "line": 2, "symbol": "x#2"})
	if text != "Found 1 definition(s):\n  a.txt:1:1\n    1: head\n    2: second x x" || !d.Success {
		t.Fatalf("%q", text)
	}
	if text, _ := run(t, tl, map[string]any{"action": "hover", "file": "a.txt", "line": 2}); text != "**hover** text" {
		t.Fatal(text)
	}
	text, d = run(t, tl, map[string]any{"action": "hover", "file": "a.txt", "line": 2, "symbol": "x#3"})
	if d.Success || text != `LSP error: Symbol "x" occurrence 3 is out of bounds on line 2 (found 2)` {
		t.Fatal(text)
	}
	text, _ = run(t, tl, map[string]any{"action": "request", "query": "test/echo", "payload": `{"k":[1,2]}`})
	if text != "fake ← test/echo:\n{\n  \"k\": [\n    1,\n    2\n  ]\n}" {
		t.Fatalf("%q", text)
	}
	text, d = run(t, tl, map[string]any{"action": "references", "file": "a.txt"})
	if d.Success || text != "LSP error: unhandled method textDocument/references" {
		t.Fatalf("%q", text)
	}
	if text, _ := run(t, tl, map[string]any{"action": "status"}); text != "Active language servers: fake\nKnown servers not installed here (diagnostics of one of their files gives the install command): zls" {
		t.Fatalf("%q", text)
	}
	text, _ = run(t, tl, map[string]any{"action": "capabilities"})
	contains(t, text, "fake:\n  capabilities: {\n    \"definitionProvider\": true,")
	if text, d := run(t, tl, map[string]any{"action": "rename", "file": "a.txt", "new_name": "y"}); d.Success || text != "LSP error: unhandled method textDocument/rename" {
		t.Fatal(text)
	}
	if text, _ := run(t, tl, map[string]any{"action": "reload", "file": "*"}); text != "Reloaded fake" {
		t.Fatalf("%q", text)
	}
}

// A crash fails the call that hit it with the exit status; the next call
// starts the server again and says so.
func TestFakeCrashNote(t *testing.T) {
	tl, root := fakeTool(t, lsptest.FakeOK, lsp.ManagerOptions{})
	writeFiles(t, root, map[string]string{"a.txt": "x\n"})
	text, d := run(t, tl, map[string]any{"action": "request", "query": "test/crash"})
	if d.Success || text != "LSP error from fake on test/crash: LSP server exited (code 3): fatal: boom" {
		t.Fatalf("%q", text)
	}
	text, _ = run(t, tl, map[string]any{"action": "hover", "file": "a.txt"})
	if !strings.HasPrefix(text, "Note: language server fake had stopped (LSP server exited (code 3): fatal: boom); it was started again for this call.\n**hover** text") {
		t.Fatalf("%q", text)
	}
}

// A server that does not answer: the call names the method and the
// server.
func TestFakeHang(t *testing.T) {
	tl, root := fakeTool(t, lsptest.FakeHang, lsp.ManagerOptions{RequestTimeout: 100 * time.Millisecond})
	writeFiles(t, root, map[string]string{"a.txt": "x\n"})
	text, d := run(t, tl, map[string]any{"action": "hover", "file": "a.txt"})
	want := "LSP error: LSP request textDocument/hover timed out after 100ms (fake did not answer in time; it may still be loading the project: retry, or reload the server if it stays stuck)"
	if d.Success || d.ServerName != "fake" || text != want {
		t.Fatalf("%q", text)
	}
}
