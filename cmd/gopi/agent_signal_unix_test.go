//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
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
			// Both deltas handled: the provider asks for more after them.
			past := newReadPast("answer t")
			env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), environ: r.Environ, httpClient: past.Client()}
			done := make(chan int)
			go func() { done <- run(context.Background(), env, []string{"-p", "--model", "mock/mock-model", "go"}) }()
			testwait.Recv(t, "both deltas to be handled", past.Seen)
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			code, _ := testwait.Recv(t, "the signal to end the run", done)
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
