package ai

import (
	"context"
	"errors"
	"testing"
)

func TestEmitterFinish(t *testing.T) {
	m := &Model{ID: "m"}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		err  error
		want StopReason
	}{
		{"done", context.Background(), nil, StopReasonStop},
		{"failed", context.Background(), errors.New("boom"), StopReasonError},
		{"aborted", cancelled, nil, StopReasonAborted},
	} {
		em, s := NewEmitter(m)
		em.Start()
		em.SetStopReason(StopReasonStop)
		em.Finish(c.ctx, m, c.err)
		if _, final := s.Collect(); final.StopReason != c.want {
			t.Errorf("%s: stop %s, want %s", c.name, final.StopReason, c.want)
		}
	}
}
