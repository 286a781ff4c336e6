package edit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
)

// runEdit applies args in mode with the session rooted at cwd.
func runEdit(t *testing.T, cwd string, mode tool.EditMode, args any) *tool.Result {
	t.Helper()
	env := tool.NewEnv(cwd)
	env.Settings.EditMode = mode
	return runEditIn(t, env, mode, args)
}

// runEditIn runs one edit call in mode with env.
func runEditIn(t *testing.T, env *tool.Env, mode tool.EditMode, args any) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), NewMode(env, mode), raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// changeLine is an edit in mode of the file at path (as the model names
// it), whose first line is first, turning that line into "changed".
func changeLine(mode tool.EditMode, path, first string) any {
	switch mode {
	case tool.EditReplace:
		return map[string]any{"path": path, "edits": []any{map[string]any{"old_text": first, "new_text": "changed"}}}
	case tool.EditApplyPatch:
		return map[string]any{"input": "*** Begin Patch\n*** Update File: " + path + "\n@@\n-" + first + "\n+changed\n*** End Patch"}
	}
	a := hashline.Anchor(1, first)
	return map[string]any{"input": "@@ " + path + "\n= " + a + ".." + a + "\n~changed"}
}

var allModes = []tool.EditMode{tool.EditHashline, tool.EditReplace, tool.EditApplyPatch}

// A read-only file is refused in every mode, with a message saying so and
// how to proceed, and stays as it was; the rename of a new file over it
// would otherwise succeed (the directory is writable), even for root.
func TestEditRefusesReadOnlyFile(t *testing.T) {
	t.Parallel()
	for _, mode := range allModes {
		t.Run(string(mode), func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "ro.txt")
			if err := os.WriteFile(p, []byte("first\n"), 0o444); err != nil {
				t.Fatal(err)
			}
			res := runEdit(t, dir, mode, changeLine(mode, "ro.txt", "first"))
			msg := res.FirstText()
			if !res.IsError || !strings.Contains(msg, "ro.txt is read-only") || !strings.Contains(msg, "chmod u+w") {
				t.Fatalf("want a read-only refusal, got error=%v: %s", res.IsError, msg)
			}
			if b, _ := os.ReadFile(p); string(b) != "first\n" {
				t.Fatalf("read-only file changed to %q", b)
			}
		})
	}
}

// A file with a second hard link is refused: replacing it would leave the
// other name with the old content.
func TestEditRefusesHardLinkedFile(t *testing.T) {
	t.Parallel()
	for _, mode := range allModes {
		t.Run(string(mode), func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "a.txt")
			if err := os.WriteFile(p, []byte("first\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(p, filepath.Join(dir, "b.txt")); err != nil {
				t.Fatal(err)
			}
			res := runEdit(t, dir, mode, changeLine(mode, "a.txt", "first"))
			if msg := res.FirstText(); !res.IsError || !strings.Contains(msg, "a.txt has 2 hard links") {
				t.Fatalf("want a hard-link refusal, got error=%v: %s", res.IsError, msg)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "first\n" {
				t.Fatalf("the other link changed to %q", b)
			}
		})
	}
}

// Files outside the working directory may be edited in every mode, and
// the result says that the file was outside; files inside get no such
// warning.
func TestEditOutsideCwdWarns(t *testing.T) {
	t.Parallel()
	for _, mode := range allModes {
		t.Run(string(mode), func(t *testing.T) {
			root := t.TempDir()
			cwd := filepath.Join(root, "project")
			if err := os.MkdirAll(cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			outside := filepath.Join(root, "outside.txt")
			inside := filepath.Join(cwd, "inside.txt")
			for _, p := range []string{outside, inside} {
				if err := os.WriteFile(p, []byte("first\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, path := range []string{"../outside.txt", outside} {
				if err := os.WriteFile(outside, []byte("first\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				res := runEdit(t, cwd, mode, changeLine(mode, path, "first"))
				if res.IsError {
					t.Fatalf("%s: %s", path, res.FirstText())
				}
				if !strings.Contains(res.FirstText(), outside+" is outside the working directory "+cwd) {
					t.Errorf("%s: no warning in %q", path, res.FirstText())
				}
				if d := res.Details.(*Details); len(d.Warnings) == 0 {
					t.Errorf("%s: no warning in the details", path)
				}
				if b, _ := os.ReadFile(outside); string(b) != "changed\n" {
					t.Errorf("%s: file holds %q", path, b)
				}
			}
			res := runEdit(t, cwd, mode, changeLine(mode, "inside.txt", "first"))
			if res.IsError || strings.Contains(res.FirstText(), "outside the working directory") {
				t.Errorf("inside: %s", res.FirstText())
			}
		})
	}
}
