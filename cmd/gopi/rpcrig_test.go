package main

import (
	"context"
	"io"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// rpcRig is an RPC session of the gopi command with its transcript.
type rpcRig = agentrig.RPC

// startRPC runs `gopi --mode rpc` in-process in the rig's project with
// the mock model and args.
func startRPC(t testing.TB, r *agentRig, args ...string) *rpcRig {
	t.Helper()
	r.t.Chdir(r.Project)
	return r.StartRPC(func(in io.Reader, out io.Writer) int {
		env := &cliEnv{stdout: out, stderr: io.Discard, stdin: in, environ: r.Environ}
		return run(context.Background(), env, append([]string{"--mode", "rpc", "--model", "mock/mock-model"}, args...))
	})
}

// text is a mock text block.
func text(s string) mockllm.Block { return mockllm.Text(s) }
