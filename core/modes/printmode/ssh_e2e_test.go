package printmode_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/sshtest"
)

// With a host in the user's ssh.json the model is offered the ssh tool,
// calls it, and gets the remote output and exit status of a command run
// on a real sshd.
func TestPrintModeSSHTool(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("ssh", map[string]any{"host": "box", "command": "echo hi; exit 3"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("it said hi and failed")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "ssh.json"), []byte(srv.HostsJSON("box")), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Environ = srv.Environ(r.Environ)
	stdout, stderr, code := runPrint(t, r, printmode.Text, false, "run it on box")
	if code != 0 || stdout != "it said hi and failed\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	first := string(r.Srv.Requests()[0].Body)
	if !strings.Contains(first, `"name":"ssh"`) || !strings.Contains(first, `Available hosts:\n- box (127.0.0.1) | detecting...`) {
		t.Errorf("the first request does not offer ssh with the host:\n%s", first)
	}
	second := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(second, `hi\n\nCommand exited with code 3`) || !strings.Contains(second, `"is_error":true`) {
		t.Errorf("the ssh result is not in the second request:\n%s", second)
	}
}
