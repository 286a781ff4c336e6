package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/core/tool"
)

// goplsModule is the Go module the gopls tests work in.
var goplsModule = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"main.go": `package main

import "fmt"

// Greeter says hello.
type Greeter interface {
	Greet(name string) string
}

type english struct{}

func (english) Greet(name string) string { return "Hello, " + name }

func main() {
	var g Greeter = english{}
	fmt.Println(g.Greet("world"), helper(2))
}
`,
	"util.go": `package main

// helper doubles n.
func helper(n int) int { return n * 2 }
`,
}

// goplsFixture is one gopls for the whole package: started by the first
// test that needs it, stopped by TestMain.
type goplsFixture struct {
	once sync.Once
	root string
	tl   *Tool
	mgr  *lsp.Manager
}

var goplsOnce goplsFixture

// gopls returns the tool over the shared gopls and the module's root, or
// skips when gopls is not installed.
func gopls(t testing.TB) (*Tool, string) {
	t.Helper()
	lsptest.Need(t, "gopls")
	f := &goplsOnce
	f.once.Do(func() {
		root, err := os.MkdirTemp("", "gopi-lsp-gopls-")
		if err != nil {
			t.Fatal(err)
		}
		f.root, _ = filepath.EvalSymlinks(root)
		for name, text := range goplsModule {
			if err := os.WriteFile(filepath.Join(f.root, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		env := tool.NewEnv(f.root)
		f.mgr = lsp.NewManager(lsp.ManagerOptions{
			Root: f.root, ExtraDirs: lsptest.BinDirs(),
			Config:    &config.LSPConfig{Enabled: true, Path: os.Getenv("PATH")},
			ApplyEdit: ApplyEdit(env),
		})
		f.tl = New(env, f.mgr).(*Tool)
	})
	if f.tl == nil {
		t.Fatal("the gopls fixture failed to build")
	}
	return f.tl, f.root
}

func (f *goplsFixture) close() {
	if f.mgr != nil {
		f.mgr.Close()
		os.RemoveAll(f.root)
	}
}

func TestGoplsNavigation(t *testing.T) {
	tl, _ := gopls(t)
	text, d := run(t, tl, map[string]any{"action": "definition", "file": "main.go", "line": 16, "symbol": "helper"})
	if text != "Found 1 definition(s):\n  util.go:4:6\n    3: // helper doubles n.\n    4: func helper(n int) int { return n * 2 }\n    5: " || d.ServerName != "gopls" {
		t.Errorf("definition %q", text)
	}
	text, _ = run(t, tl, map[string]any{"action": "references", "file": "util.go", "line": 4, "symbol": "helper"})
	contains(t, text, "Found 2 reference(s):", "  util.go:4:6", "  main.go:16:32")
	text, _ = run(t, tl, map[string]any{"action": "hover", "file": "util.go", "line": 4, "symbol": "helper"})
	contains(t, text, "func helper(n int) int", "helper doubles n.")
	runUntil(t, tl, map[string]any{"action": "implementation", "file": "main.go", "line": 6, "symbol": "Greeter"}, "Found 1 implementation(s):", "  main.go:10:6")
	text, _ = run(t, tl, map[string]any{"action": "type_definition", "file": "main.go", "line": 15, "symbol": "g"})
	contains(t, text, "Found 1 type definition(s):", "  main.go:6:6")
	text, _ = run(t, tl, map[string]any{"action": "symbols", "file": "main.go"})
	contains(t, text, "Symbols in main.go:\n", "⬢ Greeter interface{...} @ line 6", "  ⟲ Greet func(name string) string @ line 7", "⟲ main func() @ line 14")
	text, _ = run(t, tl, map[string]any{"action": "symbols", "file": "*", "query": "helper"})
	contains(t, text, "symbol(s) matching \"helper\":\n", "⟲ helper (example.com/m) @ util.go:4:6")
}

func TestGoplsServerActions(t *testing.T) {
	tl, _ := gopls(t)
	text, _ := run(t, tl, map[string]any{"action": "status"})
	contains(t, text, "Active language servers: gopls")
	text, _ = run(t, tl, map[string]any{"action": "capabilities", "file": "main.go"})
	contains(t, text, "gopls:\n  capabilities: {\n", `"definitionProvider": true`)
	text, d := run(t, tl, map[string]any{"action": "request", "query": "textDocument/hover", "file": "util.go", "line": 4, "symbol": "helper"})
	if !strings.HasPrefix(text, "gopls ← textDocument/hover:\n{") || !d.Success {
		t.Errorf("request %q", text)
	}
	contains(t, text, "func helper(n int) int")
	text, d = run(t, tl, map[string]any{"action": "request", "query": "gopls/nonsense", "file": "util.go"})
	if d.Success || !strings.HasPrefix(text, "LSP error from gopls on gopls/nonsense: ") {
		t.Errorf("unknown method %q", text)
	}
}

// A type error shows up in diagnostics, for the tool and through the
// Diagnoser the file tools use; fixed, the file is OK.
func TestGoplsDiagnostics(t *testing.T) {
	tl, root := gopls(t)
	p := filepath.Join(root, "broken.go")
	writeFiles(t, root, map[string]string{"broken.go": "package main\n\nfunc broken() int { return \"x\" }\n"})
	t.Cleanup(func() { os.Remove(p) })
	text, _ := run(t, tl, map[string]any{"action": "diagnostics", "file": "broken.go"})
	if !strings.HasPrefix(text, "1 error(s):\n# broken.go\n  3:28 [error] [compiler] ") {
		t.Fatalf("broken %q", text)
	}
	contains(t, text, `cannot use "x" (untyped string constant) as int value in return statement`)
	writeFiles(t, root, map[string]string{"broken.go": "package main\n\nfunc broken() int { return 1 }\n"})
	diags, servers, err := tl.mgr.Fresh(t.Context(), p)
	if err != nil || len(servers) != 1 || len(diags) != 0 {
		t.Fatalf("fixed: %v %v %v", diags, servers, err)
	}
	writeFiles(t, root, map[string]string{"broken.go": "package main\n\nfunc broken() int { return \"y\" }\n"})
	diags, _, err = tl.mgr.Fresh(t.Context(), p)
	if err != nil || len(diags) != 1 || !strings.Contains(diags[0].Message, `"y"`) {
		t.Fatalf("broken again: %v %v", diags, err)
	}
	if k := tl.mgr.Known(p); len(k) != 1 {
		t.Fatalf("known %v", k)
	}
	writeFiles(t, root, map[string]string{"broken.go": "package main\n\nfunc broken() int { return 2 }\n"})
	if text, _ := run(t, tl, map[string]any{"action": "diagnostics", "file": "broken.go"}); text != "OK" {
		t.Fatalf("fixed %q", text)
	}
}
