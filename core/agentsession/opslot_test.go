package agentsession

import (
	"context"
	"testing"
)

func TestOpSlot(t *testing.T) {
	t.Parallel()
	var o opSlot
	if o.active() {
		t.Fatal("a new slot is idle")
	}
	o.abort() // nothing to abort: no panic
	ctx, done := o.start(context.Background())
	if !o.active() || ctx.Err() != nil {
		t.Fatal("started operation not active")
	}
	o.abort()
	if ctx.Err() == nil {
		t.Fatal("abort did not cancel the operation's context")
	}
	done()
	if o.active() {
		t.Fatal("done did not empty the slot")
	}
}
