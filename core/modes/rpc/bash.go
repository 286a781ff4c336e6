package rpc

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/gopi-agent/gopi/core/agentsession"
)

// cmdBash runs the user's shell command ({command}) in the session's
// shell and answers with the result (omp's BashResult) when it ends; the
// command is recorded in the session as a bash execution. It runs in the
// background, so abort_bash can stop it; several run one after the other
// in the order received.
// bashArgs are the fields of a bash frame.
type bashArgs struct {
	Command string `json:"command"`
}

func cmdBash(ctx context.Context, srv *server, id json.RawMessage, f *bashArgs) (any, error) {
	if f.Command == "" {
		return nil, errors.New(`"command" is required: the shell command to run`)
	}
	prev, done := srv.bashTail, make(chan struct{})
	srv.bashTail = done
	epoch := srv.bashEpoch.Load()
	srv.prompts.Add(1)
	go func() {
		defer srv.prompts.Done()
		defer close(done)
		if prev != nil {
			select {
			case <-prev:
			case <-ctx.Done():
			}
		}
		if srv.bashEpoch.Load() != epoch || ctx.Err() != nil {
			// abort_bash came while this one waited its turn.
			srv.out.send(ok(id, "bash", agentsession.BashResult{Cancelled: true}))
			return
		}
		res, err := srv.s.Shell().Execute(ctx, f.Command, false)
		if err != nil {
			srv.out.send(fail(id, "bash", err.Error()))
			return
		}
		srv.out.send(ok(id, "bash", res))
	}()
	return skipResponse, nil
}

// cmdAbortBash cancels the user's shell command in progress and those
// waiting for their turn.
func cmdAbortBash(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	srv.bashEpoch.Add(1)
	srv.s.Shell().Abort()
	return nil, nil
}
