package rpc

import (
	"context"
	"encoding/json"
)

// cmdCompact runs compact{customInstructions?}: the session compacts now
// and the response carries the compaction (summary, shortSummary,
// firstKeptEntryId, tokensBefore, details, preserveData), or the reason it
// could not ("Nothing to compact (session too small)", "Compaction
// cancelled", …). The compaction runs in the background so that an abort
// sent meanwhile can stop it; every other command waits for it, so
// commands still take effect in the order they were sent.
// compactArgs are the fields of a compact frame.
type compactArgs struct {
	CustomInstructions string `json:"customInstructions"`
}

func cmdCompact(ctx context.Context, srv *server, id json.RawMessage, f *compactArgs) (any, error) {
	done := make(chan struct{})
	srv.mu.Lock()
	srv.compacting = done
	srv.mu.Unlock()
	srv.prompts.Add(1)
	go func() {
		defer srv.prompts.Done()
		res, err := srv.s.Compactor().Compact(ctx, f.CustomInstructions)
		if err != nil {
			srv.out.send(fail(id, "compact", err.Error()))
		} else {
			srv.out.send(ok(id, "compact", res))
		}
		srv.mu.Lock()
		srv.compacting = nil
		srv.mu.Unlock()
		close(done)
	}()
	return skipResponse, nil
}

// waitCompaction holds a command back until a compact in progress has
// answered; abort does not wait (it cancels the compaction), nor do the
// host's answers to requests the compaction may be waiting for.
func (srv *server) waitCompaction(ctx context.Context, command string) {
	if command == "abort" {
		return
	}
	srv.mu.Lock()
	done := srv.compacting
	srv.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}
