package plugins

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
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
