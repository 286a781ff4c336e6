package ai

import (
	"context"
	"errors"
	"testing"
)

func TestStreamFunc(t *testing.T) {
	m := &Model{ID: "m", API: "x"}
	req := &Request{Model: m}
	_, final := StreamFunc(context.Background(), req, func(_ context.Context, em *Emitter) error {
		em.Start()
		i := em.StartText()
		em.TextDelta(i, "hi")
		em.EndText(i)
		return nil
	}).Collect()
	if req.RequestID == "" || final.StopReason != StopReasonStop || final.Text() != "hi" {
		t.Errorf("id %q, final %+v", req.RequestID, final)
	}
	_, final = StreamFunc(context.Background(), &Request{Model: m}, func(context.Context, *Emitter) error {
		return errors.New("no credentials")
	}).Collect()
	if final.StopReason != StopReasonError || final.ErrorMessage != "no credentials" {
		t.Errorf("failure = %s %q", final.StopReason, final.ErrorMessage)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, final = StreamFunc(ctx, &Request{Model: m}, func(context.Context, *Emitter) error {
		cancel()
		return nil
	}).Collect()
	if final.StopReason != StopReasonAborted {
		t.Errorf("cancelled = %s %q", final.StopReason, final.ErrorMessage)
	}
}
