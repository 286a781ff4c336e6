package browser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A call waits for the freeing after an earlier timeout only within its
// own time; running out there says the page was still busy, an abort
// does not; once the freeing is over the tab is settled for good.
func TestSettleWithinTheCall(t *testing.T) {
	tab := &Tab{settled: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	err := tab.settle(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("settle on a page still being freed: %v", err)
	}
	if msg := stillBusy(ctx, errors.New("timed out")).Error(); !strings.HasPrefix(msg, "timed out (the page was still busy") {
		t.Errorf("message %q", msg)
	}
	aborted, abort := context.WithCancel(context.Background())
	abort()
	if err := stillBusy(aborted, context.Canceled); err != context.Canceled {
		t.Errorf("aborted: %v", err)
	}
	close(tab.settled)
	if err := tab.settle(context.Background()); err != nil || tab.settled != nil {
		t.Errorf("after the freeing: %v, settled %v", err, tab.settled)
	}
}
