package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// fakeGhScript plays gh for the github tests: the checkout's repository
// and issue 12, with every call recorded in $FAKE_GH_LOG.
const fakeGhScript = `#!/bin/sh
echo "$*" >> "$FAKE_GH_LOG"
case "$*" in
"repo view --json nameWithOwner -q .nameWithOwner") echo gopi-agent/gopi ;;
"issue view 12 --repo gopi-agent/gopi --json "*) cat <<'JSON'
{"author":{"login":"octocat"},"body":"It crashes on empty input.","comments":[],"createdAt":"2026-11-01T08:00:00Z","labels":[{"name":"bug"}],"number":12,"state":"OPEN","title":"Crash on empty input","updatedAt":"2026-11-02T09:00:00Z","url":"https://github.com/gopi-agent/gopi/issues/12"}
JSON
;;
*) echo "unexpected gh $*" >&2; exit 1 ;;
esac
`

// fakeGhOnPath puts fakeGhScript first on PATH as gh, for the test and
// the rig's gopi, and returns the file it logs its calls to.
func fakeGhOnPath(t *testing.T, r *agentRig) string {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(fakeGhScript), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "gh.log")
	t.Setenv("FAKE_GH_LOG", log)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	r.Environ = append(r.Environ, "FAKE_GH_LOG="+log)
	return log
}

// The model reads issue://12 through gh (a fake on PATH); with
// github.enabled the github tool is offered too. The view is cached:
// a second read does not run gh again.
func TestReadIssueThroughGh(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "issue://12"})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("read", map[string]any{"path": "issue://12"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Issue 12 is a crash on empty input.")}},
	)
	log := fakeGhOnPath(t, r)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("github:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "what is issue 12 about?")
	if code != 0 || out != "Issue 12 is a crash on empty input.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if tools := string(r.Srv.Requests()[0].Body); !strings.Contains(tools, `"name":"github"`) {
		t.Error("github.enabled with gh on PATH did not offer the github tool")
	}
	for i := 1; i <= 2; i++ {
		msgs := agentrig.MustMarshal(t, r.RequestMessages(i))
		if !strings.Contains(msgs, "# Issue #12: Crash on empty input") || !strings.Contains(msgs, "It crashes on empty input.") {
			t.Fatalf("request %d lacks the issue: %s", i, msgs)
		}
	}
	calls, _ := os.ReadFile(log)
	if n := strings.Count(string(calls), "issue view 12"); n != 1 {
		t.Errorf("gh issue view ran %d times, want 1 (the second read is cached):\n%s", n, calls)
	}
	if _, err := os.Stat(filepath.Join(r.AgentDir, "cache", "github")); err != nil {
		t.Errorf("no cache under the agent dir: %v", err)
	}
}
