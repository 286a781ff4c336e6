package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/gopi-agent/gopi/headless"
)

// UnstickBound bounds the background freeing of a page after a call ran
// out of time (see Manager.unstick).
const UnstickBound = headless.AttachTimeout

// unstick frees tab's page after a call ran out of time, in the
// background: the call returns at once, because on a page that keeps
// Chromium busy (a huge DOM, a long layout) the answers to the freeing
// commands can take seconds. The next call on the tab waits for it
// (settle). The work is bounded by UnstickBound and stopped by Close.
// Callers hold tab.busy.
func (m *Manager) unstick(tab *Tab) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed { // Close is closing the page anyway
		return
	}
	done := make(chan struct{})
	tab.settled = done
	m.cleanups.Add(1)
	go func() {
		defer m.cleanups.Done()
		defer close(done)
		ctx, cancel := context.WithTimeout(m.life, UnstickBound)
		defer cancel()
		tab.page.Unstick(ctx)
	}()
}

// settle waits, within ctx, until the freeing of tab's page after an
// earlier call's timeout is over, so that the page answers this call.
// Callers hold tab.busy.
func (tab *Tab) settle(ctx context.Context) error {
	if tab.settled == nil {
		return nil
	}
	select {
	case <-tab.settled:
		tab.settled = nil
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stillBusy adds to err, the timeout of a call whose time ran out in
// settle, that the page was still busy with an earlier call's work.
func stillBusy(ctx context.Context, err error) error {
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w (the page was still busy with an earlier call that timed out: try again, or with a longer timeout)", err)
}
