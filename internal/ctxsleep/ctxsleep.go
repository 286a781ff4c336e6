// Package ctxsleep is gopi's one context-aware wait: retries, back-offs
// and polling loops (the provider retry loop, the agent's retry wait, the
// sign-ins' device polling, the lsp tool's reference retries) wait with
// it, so a cancelled run never sits out a timer.
package ctxsleep

import (
	"context"
	"time"
)

// Sleep waits d or until ctx ends, whichever is first, and returns ctx's
// error in the second case (nil when d passed). A d of zero or less returns
// at once with ctx's error, if any.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
