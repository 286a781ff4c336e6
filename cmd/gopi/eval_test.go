package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

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
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The rusage wait4 returns counts the Python kernel too (a waited-for
	// descendant), so gopi's own high-water mark is read from /proc while
	// it runs; it only grows, so the last reading is the peak so far.
	peak := make(chan int64, 1)
	go func() {
		var hwm int64
		status := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"
		for {
			b, err := os.ReadFile(status)
			if err != nil {
				peak <- hwm
				return
			}
			if v, ok := vmHWM(b); ok && v > hwm {
				hwm = v
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	err = cmd.Wait()
	hwm := <-peak // KiB
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	t.Logf("gopi peaked at %d MiB (with its Python kernel: %d MiB)", hwm>>10, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss>>10)
	if hwm > 100<<10 {
		t.Errorf("gopi peaked at %d MiB", hwm>>10)
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

// vmHWM returns the VmHWM line of a /proc/PID/status (KiB).
func vmHWM(status []byte) (int64, bool) {
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			v, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}
