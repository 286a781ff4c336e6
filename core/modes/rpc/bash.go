package rpc

import (
	"context"
	"encoding/json"
	"errors"
)

// cmdBash runs the user's shell command ({command}) in the session's
// shell and answers with the result (omp's BashResult) when it ends; the
// command is recorded in the session as a bash execution. It runs in the
// background, so abort_bash can stop it.
func cmdBash(ctx context.Context, srv *server, id json.RawMessage, line []byte) (any, error) {
	var f struct {
		Command string `json:"command"`
	}
	if err := decode(line, &f); err != nil {
		return nil, err
	}
	if f.Command == "" {
		return nil, errors.New(`"command" is required: the shell command to run`)
	}
	srv.prompts.Add(1)
	go func() {
		defer srv.prompts.Done()
		res, err := srv.s.ExecuteBash(ctx, f.Command, false)
		if err != nil {
			srv.out.send(fail(id, "bash", err.Error()))
			return
		}
		srv.out.send(ok(id, "bash", res))
	}()
	return skipResponse, nil
}

// cmdAbortBash cancels the user's shell commands in progress.
func cmdAbortBash(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	srv.s.AbortBash()
	return nil, nil
}
