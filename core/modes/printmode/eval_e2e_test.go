package printmode_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/modes/printmode"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testcache"
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
	t.Parallel()
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

// evalVenv returns the virtual environment with matplotlib that
// scripts/setup.sh makes, or skips the test.
func evalVenv(t *testing.T) string {
	t.Helper()
	needPython3(t)
	venv := filepath.Join(testcache.Dir(), "eval", "venv")
	if exec.Command(filepath.Join(venv, "bin", "python"), "-c", "import matplotlib").Run() != nil {
		t.Skip("matplotlib is not installed in " + venv + "; run scripts/setup.sh")
	}
	return venv
}

// A matplotlib figure left open by a cell reaches the model as an image
// block of the tool result.
func TestEvalPlotComesBackAsImage(t *testing.T) {
	t.Parallel()
	venv := evalVenv(t)
	r := newAgentRig(t,
		evalCall("*** Cell py:\"plot\"\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\nprint('plotted')"),
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}},
	)
	r.Environ = append(r.Environ, "VIRTUAL_ENV="+venv)
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        name: Mock\n        input: [text, image]\n", r.Srv.URL())
	if err := os.WriteFile(filepath.Join(r.AgentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runPrint(t, r, printmode.Text, false, "plot"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	msgs := r.RequestMessages(1)
	var result struct {
		Content []struct {
			Type   string `json:"type"`
			Text   string `json:"text"`
			Source struct {
				MediaType string `json:"media_type"`
				Data      string `json:"data"`
			} `json:"source"`
		} `json:"content"`
	}
	last := msgs[len(msgs)-1]["content"].([]any)[0]
	if err := json.Unmarshal([]byte(agentrig.MustMarshal(t, last)), &result); err != nil {
		t.Fatal(err)
	}
	var image, text bool
	for _, c := range result.Content {
		switch c.Type {
		case "image":
			png, _ := base64.StdEncoding.DecodeString(c.Source.Data)
			image = c.Source.MediaType == "image/png" && bytes.HasPrefix(png, []byte("\x89PNG"))
		case "text":
			text = strings.Contains(c.Text, "plotted")
		}
	}
	if !image || !text {
		t.Fatalf("the tool result lacks the plot or the text: %s", agentrig.MustMarshal(t, last))
	}
}

// An endless loop hits its timeout and the next call runs in the same
// kernel, its variables still there; a kernel that exits is replaced
// with a note; children a cell started are gone after rst and after the
// session.
func TestEvalTimeoutExitAndReset(t *testing.T) {
	t.Parallel()
	needPython3(t)
	r := newAgentRig(t,
		evalCall("*** Cell py:\"setup\"\nkept = 'still here'\n*** Cell py:\"spin\" t:1s\nwhile True:\n    pass"),
		evalCall("*** Cell py\nprint(kept)"),
		evalCall("*** Cell py\nimport os\nos._exit(7)"),
		evalCall("*** Cell py\nimport subprocess\nd = subprocess.Popen(['setsid', 'sleep', '300'])\nprint('pid', d.pid)"),
		evalCall("*** Cell py rst\nprint('kept' in globals())"),
		evalCall("*** Cell py\nimport subprocess\nd = subprocess.Popen(['setsid', 'sleep', '300'])\nprint('pid', d.pid)"),
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}},
	)
	if _, stderr, code := runPrint(t, r, printmode.Text, false, "go"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for i, want := range []string{
		"Command timed out after 1 seconds",
		"still here",
		"The Python kernel ended while running this cell (exit status 7)",
		"had ended (exit status 7); this cell ran in a new kernel",
		"False",
		"pid ",
	} {
		if got := toolResultText(t, r, i+1); !strings.Contains(got, want) {
			t.Errorf("result %d lacks %q: %s", i+1, want, got)
		}
	}
	if got := toolResultText(t, r, 1); !strings.Contains(got, `[1/2] setup (ok)`) || !strings.Contains(got, "Cell 2 timed out") {
		t.Errorf("timeout result: %s", got)
	}
	for _, i := range []int{4, 6} { // started before the reset, before the session's end
		pid := pidIn(t, toolResultText(t, r, i))
		if childproc.Running(pid) {
			t.Errorf("process %d of result %d is still running", pid, i)
		}
	}
}

// pidIn reads the number after "pid " in a tool result.
func pidIn(t *testing.T, s string) int {
	t.Helper()
	m := regexp.MustCompile(`pid (\d+)`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no pid in %s", s)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// A JavaScript cell keeps its globals between calls and calls the
// session's tools through tool.<name>.
func TestEvalJavaScriptCells(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t,
		evalCall("*** Cell js:\"define\"\nconst greeting = 'hi from js';\nawait write('note.txt', greeting)"),
		evalCall("*** Cell js:\"use\"\nconst found = await tool.read({ path: 'note.txt' });\nconsole.log(greeting.length, found.includes(greeting))"),
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}},
	)
	if _, stderr, code := runPrint(t, r, printmode.Text, false, "js"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := toolResultText(t, r, 2); !strings.Contains(got, "10 true") || strings.Contains(got, `"is_error":true`) {
		t.Errorf("second result: %s", got)
	}
}
