package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// A plugin's hooks.json commands run on the session events gopi maps:
// SessionStart and UserPromptSubmit add their output to the model's
// context, PreToolUse sees the tool call, Stop the end of the run and
// SessionEnd the end of the session, each given the event as JSON. Under
// --no-extensions none runs.
func TestPluginHookEvents(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"echo hi"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("ok")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("plain")}},
	)
	dir := filepath.Join(t.TempDir(), "hooky")
	hook := func(event string) string {
		return `[{"hooks":[{"type":"command","command":"sh ${CLAUDE_PLUGIN_ROOT}/hook.sh ` + event + `"}]}]`
	}
	writeTree(t, dir, map[string]string{
		".claude-plugin/plugin.json": `{"name":"hooky"}`,
		"hooks/hooks.json": `{"hooks":{"SessionStart":` + hook("SessionStart") + `,"UserPromptSubmit":` + hook("UserPromptSubmit") +
			`,"PreToolUse":` + hook("PreToolUse") + `,"Stop":` + hook("Stop") + `,"SessionEnd":` + hook("SessionEnd") +
			`,"Notification":` + hook("Notification") + `}}`,
		"hook.sh": `input=$(cat)
echo "$1 $input" >> "$CLAUDE_PLUGIN_ROOT/log"
case $1 in
UserPromptSubmit) echo PLUGIN-CONTEXT-42 ;;
SessionStart) echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"SESSION-START-CONTEXT"}}' ;;
esac
`,
	})
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--plugin-dir", dir, "say hi"); code != 0 {
		t.Fatal(stderr)
	}
	first := string(r.Srv.Requests()[0].Body)
	for _, want := range []string{"PLUGIN-CONTEXT-42", "SESSION-START-CONTEXT"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request lacks the hook's context %q", want)
		}
	}
	log, _ := os.ReadFile(filepath.Join(dir, "log"))
	var events []string
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		events = append(events, strings.Fields(line)[0])
	}
	if got := strings.Join(events, " "); got != "SessionStart UserPromptSubmit PreToolUse Stop SessionEnd" {
		t.Errorf("events %q\n%s", got, log)
	}
	for _, want := range []string{`"source":"startup"`, `"prompt":"say hi"`, `"tool_name":"Bash"`, `"hook_event_name":"Stop"`, `"session_id":"`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the hooks' input lacks %s:\n%s", want, log)
		}
	}

	// --no-extensions: no hooks.json command runs.
	_ = os.Remove(filepath.Join(dir, "log"))
	if _, stderr, code := r.run("", "-p", "--no-extensions", "--plugin-dir", dir, "again"); code != 0 {
		t.Fatal(stderr)
	}
	if log, err := os.ReadFile(filepath.Join(dir, "log")); err == nil {
		t.Errorf("hooks ran under --no-extensions:\n%s", log)
	}
	if body := string(r.Srv.Requests()[2].Body); strings.Contains(body, "PLUGIN-CONTEXT-42") {
		t.Error("hook context under --no-extensions")
	}
}
