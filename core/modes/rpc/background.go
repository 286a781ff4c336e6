package rpc

import (
	"context"
	"encoding/json"
)

// background runs a command that calls the model outside a run (compact,
// handoff, a tree move with a summary) after its frame was read, so that
// an abort sent meanwhile can stop it; every other command waits for it
// (waitCompaction), so commands still take effect in the order they were
// sent. The command's response is sent when run returns: its data, JSON
// null for a nil result, or its error.
func (srv *server) background(ctx context.Context, id json.RawMessage, command string, run func(ctx context.Context) (any, error)) {
	done := make(chan struct{})
	srv.mu.Lock()
	srv.compacting = done
	srv.mu.Unlock()
	srv.prompts.Add(1)
	go func() {
		defer srv.prompts.Done()
		data, err := run(ctx)
		switch {
		case err != nil:
			srv.out.send(fail(id, command, err.Error()))
		case data == nil:
			srv.out.send(ok(id, command, nullData{}))
		default:
			srv.out.send(ok(id, command, data))
		}
		srv.mu.Lock()
		srv.compacting = nil
		srv.mu.Unlock()
		close(done)
	}()
}
