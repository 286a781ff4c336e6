package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// A Python cell printing 1 GB: gopi (this test binary run as gopi -p)
// keeps the output's tail for the model, the saved artifact bounded, and
// its own peak memory under 100 MB.
func TestEvalGigabytePrint(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed; run scripts/setup.sh")
	}
	code := "*** Cell py:\"flood\" t:10m\nimport sys\nchunk = ('x' * 1023 + '\\n') * 1024\nfor _ in range(1024):\n    sys.stdout.write(chunk)\nprint('the end')"
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("eval", map[string]any{"input": code})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}},
	)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-p", "--model", "mock/mock-model", "print a lot")
	cmd.Dir = r.Project
	cmd.Env = append(r.Environ, "GOPI_TEST_RUN_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB
	t.Logf("gopi peaked at %d MiB", peak>>10)
	if peak > 100<<10 {
		t.Errorf("gopi peaked at %d MiB", peak>>10)
	}
	msgs := r.RequestMessages(1)
	got := agentrig.MustMarshal(t, msgs[len(msgs)-1])
	for _, want := range []string{"the end", "[Showing lines", "artifact://"} {
		if !strings.Contains(got, want) {
			t.Errorf("the result lacks %q: %.2000s", want, got)
		}
	}
	if len(got) > 200<<10 {
		t.Errorf("the result holds %d bytes", len(got))
	}
}
