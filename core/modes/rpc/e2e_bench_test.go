package rpc_test

import (
	"context"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// BenchmarkRPC measures the RPC frame overhead of an in-process gopi
// --mode rpc (pipes, the real server, rpcclient as the host):
//
//   - get_state: one command round trip (the target: 10,000 in
//     at most 1 s, i.e. ≤ 100 µs each);
//   - prompt-ack-to-agent_start: from the prompt's response frame to its
//     agent_start frame (target ≤ 2 ms), reported as ns/op, with the mock
//     LLM answering each prompt.
func BenchmarkRPC(b *testing.B) {
	b.Run("get_state", func(b *testing.B) {
		rr := startRPC(b, newAgentRig(b))
		rr.NoRecord = true
		func(rr *agentrig.RPC) {
			ctx := context.Background()
			for b.Loop() {
				if _, err := rr.C.Call(ctx, "get_state", nil); err != nil {
					b.Fatal(err)
				}
			}
		}(rr)
		rr.Stdin.Close()
		<-rr.Exit
	})
	b.Run("bash-echo", func(b *testing.B) {
		rr := startRPC(b, newAgentRig(b))
		rr.NoRecord = true
		func(rr *agentrig.RPC) {
			ctx := context.Background()
			for b.Loop() {
				if _, err := rr.C.Call(ctx, "bash", map[string]any{"command": "echo hi"}); err != nil {
					b.Fatal(err)
				}
			}
		}(rr)
		rr.Stdin.Close()
		<-rr.Exit
	})
	b.Run("prompt-ack-to-agent_start", func(b *testing.B) {
		r := newAgentRig(b)
		rr := startRPC(b, r)
		rr.NoRecord = true
		func(rr *agentrig.RPC) {
			ctx := context.Background()
			var total time.Duration
			n := 0
			for b.Loop() {
				r.Srv.Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}, ChunkSize: 1000})
				start := rr.C.Expect("agent_start")
				end := rr.C.Expect("agent_end")
				if _, err := rr.C.Call(ctx, "prompt", map[string]any{"message": "hi"}); err != nil {
					b.Fatal(err)
				}
				acked := time.Now()
				if _, err := start.Wait(ctx); err != nil {
					b.Fatal(err)
				}
				total += time.Since(acked)
				n++
				if _, err := end.Wait(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(n), "ns-ack-to-start")
		}(rr)
		rr.Stdin.Close()
		<-rr.Exit
	})
}
