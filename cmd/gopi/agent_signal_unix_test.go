//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// SIGTERM (timeout, docker stop) and SIGHUP end a run as Ctrl-C does: the
// partial answer is printed and kept, the status is 128+signal. SIGTERM
// used to kill gopi at once, losing the answer.
func TestTermSignalKeepsPartial(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("partial answer that never ends")}, ChunkSize: 8, StallAfterDeltas: 2})
			r.t.Chdir(r.Project)
			var out, errb bytes.Buffer
			env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), environ: r.Environ}
			done := make(chan int)
			go func() { done <- run(context.Background(), env, []string{"-p", "--model", "mock/mock-model", "go"}) }()
			deadline := time.Now().Add(5 * time.Second)
			for len(r.Srv.Requests()) == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(200 * time.Millisecond) // let the two deltas arrive
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			var code int
			select {
			case code = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the signal did not end the run")
			}
			if code != 128+int(sig) || out.String() != "partial answer t\n" {
				t.Fatalf("exit %d stdout %q stderr %s", code, out.String(), errb.String())
			}
			data, _ := os.ReadFile(r.SessionFiles()[0])
			if !strings.Contains(string(data), `"stopReason":"aborted"`) {
				t.Fatalf("session lacks the aborted partial:\n%s", data)
			}
		})
	}
}
