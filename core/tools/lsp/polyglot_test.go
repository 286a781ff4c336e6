package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
)

// realTool is the tool over the real servers found for a fresh root
// holding files (the setup cache searched before PATH), taken as loaded
// after load (0: lsp.ProjectLoadTimeout) when they report no progress.
func realTool(t *testing.T, load time.Duration, files map[string]string) *Tool {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	tl, m := newTool(t, root, lsp.ManagerOptions{
		ExtraDirs:          lsptest.BinDirs(),
		Config:             &config.LSPConfig{Enabled: true, Path: os.Getenv("PATH")},
		ProjectLoadTimeout: load,
	})
	t.Cleanup(func() { m.Close() })
	return tl
}

func TestTypeScriptNavigation(t *testing.T) {
	lsptest.Need(t, "typescript-language-server")
	// typescript-language-server reports its start-up as progress; on a
	// loaded machine it takes longer than ProjectLoadTimeout, and asked
	// before it ends it answers with the import, not the declaration.
	tl := realTool(t, 50*time.Second, map[string]string{
		"package.json":  `{"name":"t","private":true}`,
		"tsconfig.json": `{"compilerOptions":{"strict":true,"module":"commonjs"},"include":["*.ts"]}`,
		"a.ts":          "export function greet(name: string): string {\n  return \"hi \" + name;\n}\n",
		"b.ts":          "import { greet } from \"./a\";\n\nconsole.log(greet(\"x\"));\n",
	})
	text, d := runUntil(t, tl, map[string]any{"timeout": 60, "action": "definition", "file": "b.ts", "line": 3, "symbol": "greet"},
		"Found 1 definition(s):\n  a.ts:1:17\n    1: export function greet(name: string): string {")
	if d.ServerName != "typescript-language-server" {
		t.Fatalf("server %q: %s", d.ServerName, text)
	}
	text, _ = run(t, tl, map[string]any{"timeout": 60, "action": "references", "file": "a.ts", "line": 1, "symbol": "greet"})
	contains(t, text, "Found 3 reference(s):", "  a.ts:1:17", "  b.ts:1:10", "  b.ts:3:13")
	text, _ = run(t, tl, map[string]any{"timeout": 60, "action": "hover", "file": "b.ts", "line": 3, "symbol": "greet"})
	contains(t, text, "greet(name: string): string")
	// rename_file: typescript-language-server answers willRenameFiles with
	// the import to update, applied with the move.
	text, _ = run(t, tl, map[string]any{"timeout": 60, "action": "rename_file", "file": "a.ts", "new_name": "lib/greeting.ts"})
	if _, err := os.Stat(filepath.Join(tl.env.Cwd, "lib", "greeting.ts")); err != nil {
		t.Fatalf("not moved: %v\n%s", err, text)
	}
	b, err := os.ReadFile(filepath.Join(tl.env.Cwd, "b.ts"))
	if err != nil || !strings.Contains(string(b), `from "./lib/greeting"`) {
		t.Fatalf("b.ts after the move: %q %v\n%s", b, err, text)
	}
}

func TestPythonNavigation(t *testing.T) {
	lsptest.Need(t, "pyright-langserver")
	// pyright reports no progress while it loads: without a shorter wait
	// the first navigation waits the whole ProjectLoadTimeout.
	tl := realTool(t, 4*time.Second, map[string]string{
		"pyproject.toml": "[project]\nname = \"p\"\nversion = \"0\"\n",
		"a.py":           "def greet(name: str) -> str:\n    return \"hi \" + name\n",
		"b.py":           "from a import greet\n\nprint(greet(\"x\"))\n",
	})
	text, d := runUntil(t, tl, map[string]any{"timeout": 60, "action": "definition", "file": "b.py", "line": 3, "symbol": "greet"},
		"a.py:1:5\n    1: def greet(name: str) -> str:")
	if d.ServerName != "pyright" {
		t.Fatalf("server %q: %s", d.ServerName, text)
	}
	text, _ = run(t, tl, map[string]any{"timeout": 60, "action": "references", "file": "a.py", "line": 1, "symbol": "greet"})
	contains(t, text, "Found 3 reference(s):", "  a.py:1:5", "  b.py:1:15", "  b.py:3:7")
	text, _ = run(t, tl, map[string]any{"timeout": 60, "action": "diagnostics", "file": "a.py"})
	if text != "OK" {
		t.Errorf("diagnostics %q", text)
	}
}

func TestCNavigation(t *testing.T) {
	lsptest.Need(t, "clangd")
	// clangd reports progress only while it indexes, and here there is
	// nothing to index.
	tl := realTool(t, 2*time.Second, map[string]string{
		"compile_commands.json": `[]`,
		"main.c":                "static int twice(int x) { return 2 * x; }\n\nint main(void) {\n  return twice(1);\n}\n",
		"bad.c":                 "int f(void) { return undefined_name; }\n",
	})
	text, d := run(t, tl, map[string]any{"timeout": 60, "action": "definition", "file": "main.c", "line": 4, "symbol": "twice"})
	if d.ServerName != "clangd" {
		t.Fatalf("server %q: %s", d.ServerName, text)
	}
	contains(t, text, "Found 1 definition(s):\n  main.c:1:12\n    1: static int twice(int x) { return 2 * x; }")
	text, _ = run(t, tl, map[string]any{"timeout": 60, "action": "diagnostics", "file": "bad.c"})
	contains(t, text, "1 error(s):\n# bad.c\n  1:22 [error] [clang] Use of undeclared identifier 'undefined_name'")
}
