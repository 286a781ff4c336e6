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

// Terminate (the process told to end) stops a Stop hook that does not
// end, and SessionEnd hooks afterwards get EndGrace rather than their
// own timeouts; the hooks' children go with them.
func TestTerminateStopsSessionHooks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := sleeper(t, dir, "stuck")
	c := &Contributions{CommandHooks: []CommandHook{
		{Event: "Stop", Command: marker + " 1040; true", Timeout: time.Hour},
		{Event: "SessionEnd", Command: marker + " 1041; true", Timeout: time.Hour},
	}}
	h := c.SessionHooks(HookEnv{Cwd: dir})
	done := make(chan struct{})
	go func() { h.RunEnded(context.Background()); close(done) }()
	waitRunning(t, marker, true, "the Stop hook to start")
	h.Terminate()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Terminate did not stop the Stop hook")
	}
	start := time.Now()
	h.End(context.Background(), "other")
	if d := time.Since(start); d > EndGrace+5*time.Second {
		t.Fatalf("SessionEnd after Terminate took %s", d)
	}
	waitRunning(t, marker, false, "the hooks' commands to end")
}
