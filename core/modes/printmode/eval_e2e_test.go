package printmode_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// evalCall is a mock turn calling eval with input.
func evalCall(input string) mockllm.Turn {
	return mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("eval", map[string]any{"input": input})}}
}

// toolResultText returns the text of the last tool result the i-th
// request carried.
func toolResultText(t *testing.T, r *agentrig.Rig, i int) string {
	t.Helper()
	msgs := r.RequestMessages(i)
	return agentrig.MustMarshal(t, msgs[len(msgs)-1])
}

// needPython3 skips a test without python3.
func needPython3(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed; run scripts/setup.sh")
	}
}

// The model defines a variable in one eval call and uses it in the next:
// the session's Python kernel keeps it.
func TestEvalKeepsVariablesAcrossCalls(t *testing.T) {
	needPython3(t)
	r := newAgentRig(t,
		evalCall("*** Cell py:\"define\"\nanswer = 6 * 7\nprint('defined')"),
		evalCall("*** Cell py:\"use\"\nprint(f'answer={answer}')"),
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}},
	)
	stdout, stderr, code := runPrint(t, r, printmode.Text, false, "compute")
	if code != 0 || stdout != "done\n" {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if got := toolResultText(t, r, 1); !strings.Contains(got, "defined") {
		t.Errorf("first result: %s", got)
	}
	if got := toolResultText(t, r, 2); !strings.Contains(got, "answer=42") || strings.Contains(got, `"is_error":true`) {
		t.Errorf("second result: %s", got)
	}
}
