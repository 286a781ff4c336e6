package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// apply_patch and patch mode name the session's scratch files by their
// local:// URLs, as the other modes do: the plan file of plan mode, and a
// bare PLAN.md while planning; anything else is refused while planning.
func TestPatchModesResolveLocalURLs(t *testing.T) {
	t.Parallel()
	for _, mode := range []tool.EditMode{tool.EditApplyPatch, tool.EditPatch} {
		cwd, scratch := t.TempDir(), t.TempDir()
		writeFiles(t, cwd, 0o644, "main.go=package main\n")
		writeFiles(t, scratch, 0o644, "PLAN.md=# Plan\nstep one\n")
		env := tool.NewEnv(cwd)
		env.LocalFallback = scratch
		env.Settings.EditMode = mode
		plan := filepath.Join(scratch, "PLAN.md")
		env.SetPlanMode(&tool.PlanMode{File: "local://PLAN.md", Abs: plan})
		update := func(path, old, new string) any {
			if mode == tool.EditPatch {
				return map[string]any{"path": path, "edits": []any{map[string]any{"op": "update", "diff": "@@\n-" + old + "\n+" + new}}}
			}
			return patchArgs("*** Update File: "+path, "@@", "-"+old, "+"+new)
		}
		call := func(args any) *tool.Result {
			t.Helper()
			return runEditIn(t, env, mode, args)
		}
		if res := call(update("local://PLAN.md", "step one", "step one, done")); res.IsError {
			t.Fatalf("%s: local://PLAN.md: %s", mode, res.FirstText())
		}
		if res := call(update("PLAN.md", "# Plan", "# The plan")); res.IsError {
			t.Fatalf("%s: PLAN.md while planning: %s", mode, res.FirstText())
		}
		wantFile(t, scratch, "PLAN.md", "# The plan\nstep one, done\n")
		wantNoFile(t, cwd, "PLAN.md")
		res := call(update("main.go", "package main", "package other"))
		if !res.IsError || !strings.Contains(res.FirstText(), "Plan mode: only the plan file may be modified (local://PLAN.md).") {
			t.Fatalf("%s: main.go while planning: error=%v %s", mode, res.IsError, res.FirstText())
		}
		wantFile(t, cwd, "main.go", "package main\n")

		env.SetPlanMode(nil)
		if mode == tool.EditApplyPatch {
			if res := call(patchArgs("*** Add File: local://notes/todo.md", "+- ship it")); res.IsError || res.FirstText() != "Created local://notes/todo.md" {
				t.Fatalf("add a scratch file: error=%v %s", res.IsError, res.FirstText())
			}
			wantFile(t, scratch, "notes/todo.md", "- ship it\n")
			if _, err := os.Stat(filepath.Join(cwd, "local:")); err == nil {
				t.Fatal("a local: directory was made in the project")
			}
		}
	}
}

// Without a scratch directory every mode refuses local:// (no literal
// "local:" directory is made), and with one a path climbing out of it is
// refused in words.
func TestEditRefusesUnusableLocalURLs(t *testing.T) {
	t.Parallel()
	for _, mode := range []tool.EditMode{tool.EditHashline, tool.EditReplace, tool.EditPatch, tool.EditApplyPatch} {
		t.Run(string(mode), func(t *testing.T) {
			cwd := t.TempDir()
			args := func(path string) any {
				switch mode {
				case tool.EditPatch:
					return map[string]any{"path": path, "edits": []any{map[string]any{"op": "create", "diff": "x\n"}}}
				case tool.EditApplyPatch:
					return patchArgs("*** Add File: "+path, "+x")
				}
				return changeLine(mode, path, "x")
			}
			env := tool.NewEnv(cwd)
			env.Settings.EditMode = mode
			res := runEditIn(t, env, mode, args("local://x.md"))
			if msg := res.FirstText(); !res.IsError || !strings.Contains(msg, "local:// resources are not available in this session") {
				t.Fatalf("no scratch directory: error=%v %s", res.IsError, msg)
			}
			if _, err := os.Stat(filepath.Join(cwd, "local:")); err == nil {
				t.Fatal("a local: directory was made in the project")
			}
			env.LocalFallback = filepath.Join(t.TempDir(), "scratch")
			res = runEditIn(t, env, mode, args("local://../../x.md"))
			if msg := res.FirstText(); !res.IsError || !strings.Contains(msg, "leaves local://") {
				t.Fatalf("climbing out: error=%v %s", res.IsError, msg)
			}
		})
	}
}
