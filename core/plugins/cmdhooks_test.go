package plugins

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tool"
)

// Claude Code's hooks.json: matchers see Claude's tool names and gopi's;
// exit 2 and a deny decision block before a call; a block after a call
// adds the reason to the result; a hook that fails or hangs blocks
// nothing.
func TestCommandHooks(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"hooks/hooks.json": `{"hooks":{
		"PreToolUse":[
			{"matcher":"Edit|Write","hooks":[{"type":"command","command":"cat > \"$CLAUDE_PLUGIN_ROOT/seen.json\"; echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no writes today\"}}'"}]},
			{"matcher":"Bash","hooks":[{"type":"command","command":"exit 1"},{"type":"command","command":"sleep 5","timeout":0.2}]},
			{"matcher":"[","hooks":[{"type":"command","command":"exit 2"}]}],
		"PostToolUse":[{"hooks":[{"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"please run the tests\"}'"}]}]}}`})
	c := Collect([]Root{{ID: ID{"guard", "m"}, Path: dir}})
	if len(c.CommandHooks) != 4 || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0].Error(), `matcher "["`) {
		t.Fatalf("%+v %v", c.CommandHooks, c.Warnings)
	}
	hooks := c.AgentHooks(HookEnv{Cwd: dir})
	ctx := context.Background()
	pre := func(name string) *agent.ToolCallDecision {
		t.Helper()
		for _, h := range hooks {
			if h.ToolCall == nil {
				continue
			}
			if d, err := h.ToolCall(ctx, &agent.ToolCallInfo{Name: name, Args: tool.Args{"path": "a.txt"}}); err != nil || d != nil {
				return d
			}
		}
		return nil
	}
	if d := pre("write"); d == nil || !d.Block || d.Reason != "no writes today" {
		t.Fatalf("write: %+v", d)
	}
	start := time.Now()
	if d := pre("bash"); d != nil {
		t.Fatalf("a failing or hanging hook blocked: %+v", d)
	}
	if time.Since(start) > 4*time.Second {
		t.Fatal("the hook's timeout did not stop it")
	}
	if d := pre("read"); d != nil {
		t.Fatalf("read matched: %+v", d)
	}
	var post *agent.Hooks
	for _, h := range hooks {
		if h.ToolResult != nil {
			post = h
		}
	}
	res := &tool.Result{Content: []ai.Content{&ai.TextContent{Text: "edited"}}}
	o, err := post.ToolResult(ctx, &agent.ToolCallInfo{Name: "edit"}, res)
	if err != nil || o == nil || len(o.Content) != 2 || !strings.Contains(o.Content[1].(*ai.TextContent).Text, "please run the tests") {
		t.Fatalf("%+v %v", o, err)
	}
}

// A hook that prints without end is read only up to a bound (the rest is
// drained and dropped), and what reaches the model's context is cut
// short with a note.
func TestHookOutputBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	flood := "head -c 30000000 /dev/zero | tr '\\0' x"
	h := CommandHook{Event: "UserPromptSubmit", Command: flood, Timeout: 30 * time.Second}
	run := h.exec(context.Background(), HookEnv{Cwd: dir}, map[string]any{})
	if run.err != nil || len(run.stdout) > maxHookOutput {
		t.Fatalf("kept %d bytes of standard output (bound %d), err %v", len(run.stdout), maxHookOutput, run.err)
	}
	c := &Contributions{CommandHooks: []CommandHook{h}}
	m, err := c.SessionHooks(HookEnv{Cwd: dir}).AgentHooks().BeforeAgentStart(context.Background(), []ai.Message{&ai.UserMessage{Content: []ai.Content{&ai.TextContent{Text: "hi"}}}})
	if err != nil || m == nil {
		t.Fatalf("%v %v", m, err)
	}
	text := m.(*message.Custom).Content.Text()
	if len(text) > maxHookContext+200 || !strings.Contains(text, "cut") {
		t.Fatalf("the model's context got %d characters of hook output", len(text))
	}
	// A refusal's reason is cut the same way.
	block := CommandHook{Plugin: ID{"p", "m"}, Event: "PreToolUse", Command: "head -c 3000000 /dev/zero | tr '\\0' y >&2; exit 2", Timeout: 30 * time.Second}
	reason, blocked := block.run(context.Background(), HookEnv{Cwd: dir}, &agent.ToolCallInfo{Name: "bash"}, nil)
	if !blocked || len(reason) > maxHookContext+200 {
		t.Fatalf("blocked %v with a reason of %d characters", blocked, len(reason))
	}
}

// A hook stopped at its timeout takes the commands its shell started
// with it.
func TestHookTimeoutKillsItsChildren(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := sleeper(t, dir, "sleeper")
	h := CommandHook{Event: "PreToolUse", Command: marker + " 1020; echo never", Timeout: 300 * time.Millisecond}
	start := time.Now()
	if r := h.exec(context.Background(), HookEnv{Cwd: dir}, map[string]any{}); r.err == nil {
		t.Fatal("a hook stopped at its timeout reported success")
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("the hook's timeout did not stop it")
	}
	waitRunning(t, marker, false, "the hook that started it to take it along")
}

// A hook's ${CLAUDE_PLUGIN_ROOT} is left to the shell (which expands the
// variable gopi sets) rather than pasted into the command's text: a
// plugin directory whose name holds shell syntax runs nothing of it.
func TestHookPluginRootNotPasted(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := base + "/p;touch pwned;x $(touch pwned2)"
	writeFiles(t, root, map[string]string{
		"hooks/hooks.json": `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"cat ${CLAUDE_PLUGIN_ROOT}/hooks/hooks.json >/dev/null; echo \"${CLAUDE_PLUGIN_ROOT}\" > seen; exit 2"}]}]}}`,
	})
	c := Collect([]Root{{ID: ID{"p", "m"}, Path: root}})
	if len(c.CommandHooks) != 1 {
		t.Fatalf("%+v %v", c.CommandHooks, c.Warnings)
	}
	if reason, blocked := c.CommandHooks[0].run(context.Background(), HookEnv{Cwd: base}, &agent.ToolCallInfo{Name: "bash"}, nil); !blocked {
		t.Fatalf("not blocked: %q", reason)
	}
	for _, f := range []string{"pwned", "pwned2"} {
		if _, err := os.Stat(base + "/" + f); err == nil {
			t.Errorf("the plugin directory's name ran as a command (%s)", f)
		}
	}
	if b, err := os.ReadFile(base + "/seen"); err != nil || strings.TrimSpace(string(b)) != root {
		t.Errorf("the hook saw the root as %q (%v), want %q", b, err, root)
	}
}

// The version an install directory is named after keeps only letters,
// digits and . _ + -: a catalog's version is a stranger's text.
func TestVersionOfIsPathAndShellSafe(t *testing.T) {
	for in, want := range map[string]string{
		"1.2.3-beta+x":        "1.2.3-beta+x",
		"1;touch x;$(id) `w`": "1_touch_x___id___w_",
		"a/b\\c\x00d\x1b[31m": "a_b_c_d__31m",
		"..":                  "unknown",
		" ":                   "_",
	} {
		if got := versionOf(Entry{Version: in}, nil, ""); got != want {
			t.Errorf("versionOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// A hook's "timeout" too large for a duration is clamped, not wrapped
// round to a negative one that stopped the hook before it started.
func TestHookHugeTimeout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"hooks/hooks.json": `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"exit 2","timeout":1e12}]}]}}`})
	c := Collect([]Root{{ID: ID{"p", "m"}, Path: dir}})
	if len(c.CommandHooks) != 1 || c.CommandHooks[0].Timeout != maxHookTimeout {
		t.Fatalf("%+v", c.CommandHooks)
	}
	if _, blocked := c.CommandHooks[0].run(context.Background(), HookEnv{Cwd: dir}, &agent.ToolCallInfo{Name: "bash"}, nil); !blocked {
		t.Fatal("the hook did not run")
	}
}
