package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
)

// rename_file joins the server's willRenameFiles edit and the move in
// one Apply, shows each under its name, and refuses both when the edited
// file changed after the server computed its edit.
func TestFakeRenameFile(t *testing.T) {
	tl, root := fakeTool(t, lsptest.FakeOK, lsp.ManagerOptions{})
	writeFiles(t, root, map[string]string{"d/a.txt": "alpha\n", "d/refs.txt": "refs\n"})
	text, d := run(t, tl, map[string]any{"action": "rename_file", "file": "d/a.txt", "new_name": "e/b.txt", "apply": false})
	if text != "Rename preview: d/a.txt → e/b.txt\n  fake:\n    d/refs.txt: 1 edit\n      line 1:1 → \"→ b.txt\\n\"" || !d.Success || d.ServerName != "fake" {
		t.Fatalf("preview %q %+v", text, d)
	}

	// refs.txt opened at the server, then changed behind it: refused.
	run(t, tl, map[string]any{"action": "hover", "file": "d/refs.txt"})
	tl.beforeApply = func() { writeFiles(t, root, map[string]string{"d/refs.txt": "refs edited\n"}) }
	text, d = run(t, tl, map[string]any{"action": "rename_file", "file": "d/a.txt", "new_name": "e/b.txt"})
	tl.beforeApply = nil
	if d.Success || !strings.HasPrefix(text, "Error: Cannot apply the language server's edit: d/refs.txt changed") {
		t.Fatalf("stale %q", text)
	}
	if _, err := os.Stat(filepath.Join(root, "d/a.txt")); err != nil {
		t.Fatalf("moved although refused: %v", err)
	}

	text, d = run(t, tl, map[string]any{"action": "rename_file", "file": "d/a.txt", "new_name": "e/b.txt"})
	if text != "Renamed d/a.txt → e/b.txt\n  fake:\n    Applied 1 edit(s) to d/refs.txt\n  Renamed d/a.txt → e/b.txt" || !d.Success {
		t.Fatalf("apply %q", text)
	}
	if got := read(t, filepath.Join(root, "d/refs.txt")); got != "→ b.txt\nrefs edited\n" {
		t.Fatalf("refs.txt %q", got)
	}
	if got := read(t, filepath.Join(root, "e/b.txt")); got != "alpha\n" {
		t.Fatalf("b.txt %q", got)
	}

	// A directory: every file under it is announced.
	writeFiles(t, root, map[string]string{"dir/x.txt": "x", "dir/sub/y.txt": "y"})
	text, _ = run(t, tl, map[string]any{"action": "rename_file", "file": "dir", "new_name": "moved"})
	if text != "Renamed 2 files under dir → moved\n  Renamed dir → moved" {
		t.Fatalf("directory %q", text)
	}
}

// More files under a directory than the limit are refused.
func TestRenamePairsLimit(t *testing.T) {
	root := t.TempDir()
	for i := range 4 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := renamePairs(root, root+"2", true, 3); err == nil || !strings.Contains(err.Error(), "holds more than 3 files") {
		t.Fatalf("%v", err)
	}
	if pairs, err := renamePairs(root, root+"2", true, 4); err != nil || len(pairs) != 4 {
		t.Fatalf("%v %v", pairs, err)
	}
}

// code_actions: the list with kinds, an action resolved before its edit
// is applied, and a bare command whose server applies its own edit
// through workspace/applyEdit (the session's ApplyEdit).
func TestFakeCodeActions(t *testing.T) {
	root := t.TempDir()
	tl, _ := fakeToolAt(t, root, lsptest.FakeOK, lsp.ManagerOptions{ApplyEdit: ApplyEdit(tool.NewEnv(root))})
	writeFiles(t, root, map[string]string{"a.txt": "body\n"})
	text, d := run(t, tl, map[string]any{"action": "code_actions", "file": "a.txt", "line": 1})
	if text != "2 code action(s):\n  0: [quickfix] Insert header\n  1: [action] Run fake" || !d.Success {
		t.Fatalf("list %q", text)
	}
	if text, _ := run(t, tl, map[string]any{"action": "code_actions", "file": "a.txt", "apply": true}); !strings.HasPrefix(text, "2 code action(s):") {
		t.Fatalf("apply without a query lists: %q", text)
	}
	if text, d := run(t, tl, map[string]any{"action": "code_actions", "file": "a.txt", "apply": true, "query": " "}); !d.Success || !strings.HasPrefix(text, "Error: query parameter required when apply=true") {
		t.Fatalf("blank query: %q %+v", text, d)
	}
	if text, d := run(t, tl, map[string]any{"action": "rename", "file": "a.txt"}); d.Success || text != "Error: new_name parameter required for rename" {
		t.Fatalf("rename without new_name: %q", text)
	}
	text, _ = run(t, tl, map[string]any{"action": "code_actions", "file": "a.txt", "apply": true, "query": "nothing"})
	if text != "No code action matches \"nothing\". Available actions:\n  0: [quickfix] Insert header\n  1: [action] Run fake" {
		t.Fatalf("miss %q", text)
	}
	text, _ = run(t, tl, map[string]any{"action": "code_actions", "file": "a.txt", "apply": true, "query": "HEADER"})
	if text != "Applied \"Insert header\":\n  Workspace edit:\n    Applied 1 edit(s) to a.txt" {
		t.Fatalf("resolved action %q", text)
	}
	text, _ = run(t, tl, map[string]any{"action": "code_actions", "file": "a.txt", "apply": true, "query": "1"})
	if text != "Applied \"Run fake\":\n  Executed command(s):\n    fake.run" {
		t.Fatalf("command %q", text)
	}
	if got := read(t, filepath.Join(root, "a.txt")); got != "RAN\nHEADER\nbody\n" {
		t.Fatalf("a.txt %q", got)
	}
}

// Two servers' edits of one file are not joined: the later one is left
// out with a note.
func TestDisjointEdits(t *testing.T) {
	edit := func(uris ...string) protocol.WorkspaceEdit {
		e := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{}}
		for _, u := range uris {
			e.Changes[protocol.DocumentURI(u)] = []protocol.TextEdit{{NewText: "x"}}
		}
		return e
	}
	kept, notes := disjointEdits([]serverEdit{
		{name: "one", edit: edit("file:///a", "file:///b")},
		{name: "two", edit: edit("file:///b")},
		{name: "three", edit: edit("file:///c")},
	})
	if len(kept) != 2 || kept[0].name != "one" || kept[1].name != "three" {
		t.Fatalf("kept %+v", kept)
	}
	if len(notes) != 1 || notes[0] != "  two: its edits were left out: one also edits those files, and two edits of one file cannot be joined" {
		t.Fatalf("notes %q", notes)
	}
}
