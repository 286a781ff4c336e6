package rpc

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/gopi-agent/gopi/core/agentsession"
)

// cmdHandoff runs handoff{customInstructions?}: the model writes a handoff
// document and the session continues in a new one that starts with it.
// The response's data is {document, sessionFile, savedPath?} (omp sends
// {savedPath?}), null when the model wrote nothing (the session is
// unchanged); it fails with "Nothing to hand off (no messages yet)",
// "Handoff cancelled" (abort), or "Handoff failed: …". It runs in the
// background like compact: abort stops it, other commands wait for it.
// handoffArgs are the fields of a handoff frame.
type handoffArgs struct {
	CustomInstructions string `json:"customInstructions"`
}

func cmdHandoff(ctx context.Context, srv *server, id json.RawMessage, f *handoffArgs) (any, error) {
	if srv.s.Turn().IsStreaming() {
		return nil, errors.New("cannot hand off while the agent is working: wait for agent_end, or send abort first")
	}
	srv.background(ctx, id, "handoff", func(ctx context.Context) (any, error) {
		res, err := srv.s.Compactor().Handoff(ctx, f.CustomInstructions)
		if errors.Is(err, agentsession.ErrHandoffEmpty) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return res, nil
	})
	return skipResponse, nil
}
