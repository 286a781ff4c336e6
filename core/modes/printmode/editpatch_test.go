package printmode_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// TestPatchEditMode: with PI_EDIT_VARIANT=patch the model is offered the
// edit tool with patch mode's schema, read shows no anchors, and an
// edit call with diff hunks changes the file.
func TestPatchEditMode(t *testing.T) {
	t.Parallel()
	diff := "@@ func greet() string {\n func greet() string {\n-\treturn \"Hello\"\n+\treturn \"Hello, world!\"\n"
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "greet.go"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("edit", map[string]any{"path": "greet.go", "edits": []any{map[string]any{"op": "update", "diff": diff}}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}},
	)
	props := greetTheWorld(t, r, "patch")
	if props["path"] == nil || props["edits"] == nil || props["input"] != nil {
		t.Fatalf("edit schema in patch mode: %v", props)
	}
	readResult := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(readResult, `func greet() string {\n\treturn`) || regexp.MustCompile(`\d[a-z]{2}\|`).MatchString(readResult) {
		t.Fatalf("read result should carry no anchors in patch mode: %s", readResult)
	}
	editResult := agentrig.MustMarshal(t, r.RequestMessages(2))
	if !strings.Contains(editResult, "Updated greet.go") {
		t.Fatalf("edit result as sent: %s", editResult)
	}
}

// TestApplyPatchEditMode: with PI_EDIT_VARIANT=apply_patch the edit tool
// takes a Codex patch; its Update File section is found as patch mode finds
// hunks (the context here lacks the tab indentation), and a section for a
// missing file is reported while the other is applied, in a result that,
// as omp's, is not an error.
func TestApplyPatchEditMode(t *testing.T) {
	t.Parallel()
	patch := "*** Begin Patch\n*** Update File: missing.go\n@@\n-x\n+y\n*** Update File: greet.go\n@@ func greet() string {\n-return \"Hello\"\n+return \"Hello, world!\"\n*** End Patch"
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("edit", map[string]any{"input": patch})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}},
	)
	if props := greetTheWorld(t, r, "apply_patch"); props["input"] == nil || props["path"] != nil {
		t.Fatalf("edit schema in apply_patch mode: %v", props)
	}
	editResult := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(editResult, `Error editing missing.go: File not found: missing.go\nUpdated greet.go`) || strings.Contains(editResult, `"is_error":true`) {
		t.Fatalf("edit result as sent: %s", editResult)
	}
}

// TestVimEditMode: with PI_EDIT_VARIANT=vim the edit tool takes vim keys;
// two calls in one session share the open buffer, so the second one's u
// undoes the first one's change and the file is saved after each.
func TestVimEditMode(t *testing.T) {
	t.Parallel()
	edit := func(kbd string, insert ...string) mockllm.Block {
		step := map[string]any{"kbd": []string{kbd}}
		if len(insert) > 0 {
			step["insert"] = insert[0]
		}
		return agentrig.ToolCall("edit", map[string]any{"file": "greet.go", "steps": []any{step}})
	}
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{edit("4Gcc", "\treturn \"Hi\"")}},
		mockllm.Turn{Blocks: []mockllm.Block{edit("u")}},
		mockllm.Turn{Blocks: []mockllm.Block{edit("4Gcc", "\treturn \"Hello, world!\"")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}},
	)
	if props := greetTheWorld(t, r, "vim"); props["file"] == nil || props["steps"] == nil {
		t.Fatalf("edit schema in vim mode: %v", props)
	}
	undo := agentrig.MustMarshal(t, r.RequestMessages(2))
	if !strings.Contains(undo, "Undid 1 change") || !strings.Contains(undo, `return \"Hello\"`) {
		t.Fatalf("the undo call's result: %s", undo)
	}
}

// greetTheWorld runs the rig's script in print mode with PI_EDIT_VARIANT
// set to mode on greetGo, checks that the model's edits left greet.go
// greeting the world, and returns the properties of the edit tool's
// schema as the first request offered it.
func greetTheWorld(t *testing.T, r *agentrig.Rig, mode string) map[string]any {
	t.Helper()
	r.Write("greet.go", greetGo)
	r.Environ = append(r.Environ, "PI_EDIT_VARIANT="+mode)
	out, stderr, code := runPrint(t, r, printmode.Text, false, "make it greet the world")
	if code != 0 || out != "Done.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	got, err := os.ReadFile(filepath.Join(r.Project, "greet.go"))
	if err != nil || string(got) != strings.Replace(greetGo, `"Hello"`, `"Hello, world!"`, 1) {
		t.Fatalf("greet.go = %q, %v", got, err)
	}
	for _, tl := range r.Srv.Requests()[0].JSON()["tools"].([]any) {
		if m := tl.(map[string]any); m["name"] == "edit" {
			props, _ := m["input_schema"].(map[string]any)["properties"].(map[string]any)
			return props
		}
	}
	t.Fatal("no edit tool offered")
	return nil
}
