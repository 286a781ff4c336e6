package plugins

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/compaction"
)

// PreCompact hooks run before a compaction when their matcher accepts
// the trigger, given the instructions; tool hooks are not session hooks.
func TestPreCompactHook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	c := &Contributions{CommandHooks: []CommandHook{
		{Event: "PreCompact", Matcher: regexp.MustCompile("^(?:manual)$"), Command: "cat >> " + log, Timeout: 5 * time.Second},
		{Event: "PreToolUse", Command: "echo tool >> " + log, Timeout: 5 * time.Second},
	}}
	h := c.SessionHooks(HookEnv{Cwd: dir}).AgentHooks()
	ctx := context.Background()
	if _, err := h.SessionBeforeCompact(ctx, &compaction.BeforeCompactEvent{}); err != nil { // auto: not matched
		t.Fatal(err)
	}
	if _, err := h.SessionBeforeCompact(ctx, &compaction.BeforeCompactEvent{CustomInstructions: "keep the API notes"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	if got := string(b); strings.Count(got, "hook_event_name") != 1 || !strings.Contains(got, `"trigger":"manual"`) || !strings.Contains(got, `"custom_instructions":"keep the API notes"`) {
		t.Errorf("log %q", got)
	}
	if (&Contributions{CommandHooks: c.CommandHooks[1:]}).SessionHooks(HookEnv{}) != nil {
		t.Error("tool hooks made session hooks")
	}
}
