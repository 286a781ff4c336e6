package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
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

// A plugin's agents/ directory gives the task tool agents, as omp's
// marketplace plugins do: the model sees the agent offered and the
// subagent runs with the definition's instructions.
func TestPluginAgents(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("task", map[string]any{"agent": "nitpicker", "tasks": []map[string]string{
			{"id": "Review", "description": "review main.go", "assignment": "ASSIGN-REVIEW: review main.go"},
		}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("two nits")}, Match: "ASSIGN-REVIEW"},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("reviewed")}},
	)
	dir := filepath.Join(t.TempDir(), "reviews")
	writeTree(t, dir, map[string]string{
		".claude-plugin/plugin.json": `{"name":"reviews"}`,
		"agents/nitpicker.md":        "---\nname: nitpicker\ndescription: Finds small style problems in a change\ntools: read\n---\nNITPICKER-INSTRUCTIONS: list every nit you see.\n",
	})
	stdout, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "--plugin-dir", dir, "review it")
	if code != 0 || stdout != "reviewed\n" {
		t.Fatalf("exit %d %q %s", code, stdout, stderr)
	}
	reqs := r.Srv.Requests()
	if !strings.Contains(string(reqs[0].Body), "Finds small style problems in a change") {
		t.Error("the task tool does not offer the plugin's agent")
	}
	if !strings.Contains(string(reqs[1].Body), "NITPICKER-INSTRUCTIONS") {
		t.Errorf("the subagent did not run with the plugin agent's instructions: %.400s", reqs[1].Body)
	}
}

// gopi agents lists the agents of the installed plugins.
func TestAgentsListsPluginAgents(t *testing.T) {
	r := newAgentRig(t)
	dir := filepath.Join(t.TempDir(), "shop")
	writeTree(t, dir, map[string]string{
		".claude-plugin/marketplace.json": `{"name":"shop","owner":{"name":"t"},"plugins":[{"name":"reviews","source":"./reviews"}]}`,
		"reviews/agents/nitpicker.md":     "---\nname: nitpicker\ndescription: Finds small style problems in a change\n---\nList every nit.\n",
	})
	for _, args := range [][]string{{"plugin", "marketplace", "add", dir}, {"plugin", "install", "reviews@shop"}} {
		if out, stderr, code := r.run("", args...); code != 0 {
			t.Fatalf("%v: %d %s %s", args, code, out, stderr)
		}
	}
	out, stderr, code := r.run("", "agents")
	if code != 0 || !strings.Contains(out, "nitpicker") || !strings.Contains(out, "Finds small style problems") {
		t.Fatalf("gopi agents: %d %q %s", code, out, stderr)
	}
}
