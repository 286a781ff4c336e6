package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// renamePackage writes a package dir of the shared module in which Old is
// defined in a.go and used in b.go and c.go.
func renamePackage(t *testing.T, root, dir string) {
	t.Helper()
	writeFiles(t, root, map[string]string{
		dir + "/a.go": "package " + dir + "\n\n// Old is renamed by the tests.\nfunc Old() int { return 1 }\n",
		dir + "/b.go": "package " + dir + "\n\nfunc b() int { return Old() + 1 }\n",
		dir + "/c.go": "package " + dir + "\n\nfunc c() int { return Old() * b() }\n",
	})
	t.Cleanup(func() { os.RemoveAll(filepath.Join(root, dir)) })
}

// goBuild builds the packages of the shared module, failing the test on
// a compile error.
func goBuild(t *testing.T, root string, pkgs ...string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build", "-o", os.DevNull}, pkgs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %v: %v\n%s", pkgs, err, out)
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A rename previewed writes nothing; applied, it changes all three files
// and the package still builds.
func TestGoplsRename(t *testing.T) {
	tl, root := gopls(t)
	renamePackage(t, root, "rn")
	before := read(t, filepath.Join(root, "rn/b.go"))
	args := map[string]any{"action": "rename", "file": "rn/a.go", "line": 4, "symbol": "Old", "new_name": "Fresh", "apply": false}
	text, d := run(t, tl, args)
	if !d.Success || !strings.HasPrefix(text, "Rename preview:\n") {
		t.Fatalf("preview %q", text)
	}
	contains(t, text, "  rn/a.go: 2 edits\n    line 3:4 → \"Fresh\"\n    line 4:6 → \"Fresh\"", "  rn/b.go: 1 edit\n    line 3:23 → \"Fresh\"", "  rn/c.go: 1 edit")
	if got := read(t, filepath.Join(root, "rn/b.go")); got != before {
		t.Fatalf("the preview wrote b.go:\n%s", got)
	}
	delete(args, "apply")
	text, d = run(t, tl, args)
	if !d.Success || !strings.HasPrefix(text, "Applied rename:\n") {
		t.Fatalf("rename %q", text)
	}
	contains(t, text, "  Applied 2 edit(s) to rn/a.go", "  Applied 1 edit(s) to rn/b.go", "  Applied 1 edit(s) to rn/c.go")
	for _, f := range []string{"a.go", "b.go", "c.go"} {
		if got := read(t, filepath.Join(root, "rn", f)); strings.Contains(got, "Old") || !strings.Contains(got, "Fresh") {
			t.Errorf("%s after the rename:\n%s", f, got)
		}
	}
	goBuild(t, root, "./rn")
	// The server was told: a second rename starts from the new name.
	text, _ = run(t, tl, map[string]any{"action": "rename", "file": "rn/c.go", "line": 3, "symbol": "Fresh", "new_name": "Third"})
	contains(t, text, "Applied 2 edit(s) to rn/a.go")
	goBuild(t, root, "./rn")
}

// A file that changes after the server computed the rename makes the
// whole rename refused: nothing is written.
func TestGoplsRenameStale(t *testing.T) {
	tl, root := gopls(t)
	renamePackage(t, root, "stale")
	a := filepath.Join(root, "stale/a.go")
	changed := "package stale\n\n// Old is renamed by the tests; edited meanwhile.\nfunc Old() int { return 1 }\n"
	tl.beforeApply = func() { os.WriteFile(a, []byte(changed), 0o644) }
	t.Cleanup(func() { tl.beforeApply = nil })
	text, d := run(t, tl, map[string]any{"action": "rename", "file": "stale/a.go", "line": 4, "symbol": "Old", "new_name": "Fresh"})
	if d.Success || !strings.HasPrefix(text, "LSP error: Cannot apply the language server's edit: stale/a.go changed") || !strings.HasSuffix(text, "; nothing was changed") {
		t.Fatalf("stale rename %q", text)
	}
	if got := read(t, a); got != changed {
		t.Fatalf("a.go %q", got)
	}
	for _, f := range []string{"b.go", "c.go"} {
		if got := read(t, filepath.Join(root, "stale", f)); !strings.Contains(got, "Old()") {
			t.Errorf("%s was written:\n%s", f, got)
		}
	}
}

// rename_file moves a Go file; the checks of its arguments answer
// without moving anything.
func TestGoplsRenameFile(t *testing.T) {
	tl, root := gopls(t)
	renamePackage(t, root, "mv")
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"file": "mv/a.go"}, "Error: rename_file requires both `file` (source path) and `new_name` (destination path)"},
		{map[string]any{"file": "mv/a.go", "new_name": "mv/a.go"}, "Error: source and destination are the same path: mv/a.go"},
		{map[string]any{"file": "mv/none.go", "new_name": "mv/x.go"}, "Error: source path does not exist: mv/none.go"},
		{map[string]any{"file": "mv/a.go", "new_name": "mv/b.go"}, "Error: destination already exists: mv/b.go; choose a new path or remove it first"},
	} {
		tc.args["action"] = "rename_file"
		if text, d := run(t, tl, tc.args); d.Success || text != tc.want {
			t.Errorf("%v: %q", tc.args, text)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "mv/empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if text, _ := run(t, tl, map[string]any{"action": "rename_file", "file": "mv/empty", "new_name": "mv/full"}); text != "Error: no files to rename under mv/empty" {
		t.Errorf("empty dir %q", text)
	}

	// Opened first, so the server must hear that it moved.
	run(t, tl, map[string]any{"action": "hover", "file": "mv/a.go", "line": 4, "symbol": "Old"})
	text, _ := run(t, tl, map[string]any{"action": "rename_file", "file": "mv/a.go", "new_name": "mv/old.go", "apply": false})
	if !strings.HasPrefix(text, "Rename preview: mv/a.go → mv/old.go") {
		t.Fatalf("preview %q", text)
	}
	if _, err := os.Stat(filepath.Join(root, "mv/a.go")); err != nil {
		t.Fatalf("the preview moved the file: %v", err)
	}
	text, d := run(t, tl, map[string]any{"action": "rename_file", "file": "mv/a.go", "new_name": "mv/old.go"})
	if !d.Success || !strings.HasPrefix(text, "Renamed mv/a.go → mv/old.go\n") {
		t.Fatalf("rename_file %q", text)
	}
	contains(t, text, "  Renamed mv/a.go → mv/old.go")
	if _, err := os.Stat(filepath.Join(root, "mv/a.go")); !os.IsNotExist(err) {
		t.Fatalf("a.go still there: %v", err)
	}
	goBuild(t, root, "./mv")
	// The moved file is known at its new path.
	text, _ = run(t, tl, map[string]any{"action": "references", "file": "mv/old.go", "line": 4, "symbol": "Old"})
	contains(t, text, "Found 3 reference(s):\n  mv/old.go:4:6", "mv/b.go:3:23", "mv/c.go:3:23")
}

// code_actions lists what gopls offers in a file with an unused import
// and applies Organize Imports by part of its title.
func TestGoplsCodeActions(t *testing.T) {
	tl, root := gopls(t)
	dir := "ca"
	src := "package ca\n\nimport \"strings\"\n\nfunc F() int { return 1 }\n"
	writeFiles(t, root, map[string]string{dir + "/ca.go": src})
	t.Cleanup(func() { os.RemoveAll(filepath.Join(root, dir)) })
	// The diagnostics first, so the action request carries them.
	runUntil(t, tl, map[string]any{"action": "diagnostics", "file": "ca/ca.go"}, `"strings" imported and not used`)
	text, d := run(t, tl, map[string]any{"action": "code_actions", "file": "ca/ca.go", "line": 3, "symbol": "\"strings\""})
	if !d.Success || !strings.Contains(text, " code action(s):\n  0: [") {
		t.Fatalf("list %q", text)
	}
	text, _ = run(t, tl, map[string]any{"action": "code_actions", "file": "ca/ca.go", "line": 3, "apply": true, "query": "no such action"})
	if !strings.HasPrefix(text, "No code action matches \"no such action\". Available actions:\n  0: [") {
		t.Fatalf("miss %q", text)
	}
	text, d = run(t, tl, map[string]any{"action": "code_actions", "file": "ca/ca.go", "line": 3, "symbol": "\"strings\"", "apply": true, "query": "organize"})
	if !d.Success || !strings.HasPrefix(text, "Applied \"Organize Imports\":\n") {
		t.Fatalf("apply %q", text)
	}
	contains(t, text, "  Workspace edit:\n    Applied 1 edit(s) to ca/ca.go")
	if got := read(t, filepath.Join(root, "ca/ca.go")); strings.Contains(got, "strings") {
		t.Fatalf("the import is still there:\n%s", got)
	}
	goBuild(t, root, "./ca")
}

// A gopls command that edits (gopls.add_import) has gopls send
// workspace/applyEdit, which the session's ApplyEdit applies.
func TestGoplsServerEdit(t *testing.T) {
	tl, root := gopls(t)
	writeFiles(t, root, map[string]string{"ai/ai.go": "package ai\n\nfunc F() {}\n"})
	t.Cleanup(func() { os.RemoveAll(filepath.Join(root, "ai")) })
	run(t, tl, map[string]any{"action": "hover", "file": "ai/ai.go", "line": 3, "symbol": "F"})
	uri := "file://" + filepath.Join(root, "ai/ai.go")
	payload := `{"command":"gopls.add_import","arguments":[{"ImportPath":"strings","URI":"` + uri + `"}]}`
	text, d := run(t, tl, map[string]any{"action": "request", "query": "workspace/executeCommand", "file": "ai/ai.go", "payload": payload})
	if !d.Success {
		t.Fatalf("executeCommand %q", text)
	}
	if got := read(t, filepath.Join(root, "ai/ai.go")); !strings.Contains(got, `import "strings"`) {
		t.Fatalf("ai.go after gopls' own edit:\n%s", got)
	}
}

// gopls' "Fill P" is a command (gopls.apply_fix) whose edit gopls sends
// back on its own (workspace/applyEdit): applied by title, the literal
// gets its fields.
func TestGoplsCodeActionCommand(t *testing.T) {
	tl, root := gopls(t)
	writeFiles(t, root, map[string]string{"fs/fs.go": "package fs\n\ntype P struct {\n\tA int\n\tB string\n}\n\nvar V = P{}\n"})
	t.Cleanup(func() { os.RemoveAll(filepath.Join(root, "fs")) })
	args := map[string]any{"action": "code_actions", "file": "fs/fs.go", "line": 8, "symbol": "{"}
	text, _ := run(t, tl, args)
	contains(t, text, "Fill P")
	args["apply"], args["query"] = true, "fill p"
	text, d := run(t, tl, args)
	if !d.Success || text != "Applied \"Fill P\":\n  Executed command(s):\n    gopls.apply_fix" {
		t.Fatalf("apply %q", text)
	}
	if got := read(t, filepath.Join(root, "fs/fs.go")); !strings.Contains(got, "A: 0,") || !strings.Contains(got, `B: "",`) {
		t.Fatalf("fs.go:\n%s", got)
	}
	goBuild(t, root, "./fs")
}
