package ai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Stream watchdog defaults, as in omp: a response must start (headers and
// first bytes) within DefaultFirstEventTimeout and then never go silent for
// longer than DefaultIdleTimeout. PI_STREAM_FIRST_EVENT_TIMEOUT_MS and
// PI_STREAM_IDLE_TIMEOUT_MS (read by core/config) override them; 0 there
// disables a watchdog.
const (
	DefaultIdleTimeout       = 120 * time.Second
	DefaultFirstEventTimeout = 120 * time.Second
)

// StallError is the failure of a provider that stopped sending. Its text
// says "timed out", so retries treat it as transient.
type StallError struct {
	Waited time.Duration // how long nothing arrived
	First  bool          // nothing at all arrived (no headers or first bytes)
}

func (e *StallError) Error() string {
	if e.First {
		return fmt.Sprintf("the provider did not start answering: timed out after %s waiting for the response (wait longer with the provider.firstEventTimeoutMs setting or PI_STREAM_FIRST_EVENT_TIMEOUT_MS)", e.Waited.Round(time.Millisecond))
	}
	return fmt.Sprintf("the provider's stream stalled: timed out after %s without data (allow longer pauses with the provider.idleTimeoutMs setting or PI_STREAM_IDLE_TIMEOUT_MS)", e.Waited.Round(time.Millisecond))
}

// timeouts returns the request's watchdog durations (0 means off).
func (r *Request) timeouts() (first, idle time.Duration) {
	first, idle = r.FirstEventTimeout, r.IdleTimeout
	if first == 0 {
		first = max(DefaultFirstEventTimeout, idle)
	}
	if idle == 0 {
		idle = DefaultIdleTimeout
	}
	return max(first, 0), max(idle, 0)
}

// watchdog cancels a request when it is not fed in time.
type watchdog struct {
	cancel context.CancelCauseFunc
	idle   time.Duration

	mu    sync.Mutex
	timer *time.Timer
	fired *StallError
}

// newWatchdog arms a watchdog that cancels with a StallError after first
// (no watchdog when first is 0).
func newWatchdog(cancel context.CancelCauseFunc, first, idle time.Duration) *watchdog {
	w := &watchdog{cancel: cancel, idle: idle}
	if first > 0 {
		w.timer = time.AfterFunc(first, func() { w.fire(&StallError{Waited: first, First: true}) })
	}
	return w
}

func (w *watchdog) fire(e *StallError) {
	w.mu.Lock()
	if w.fired == nil {
		w.fired = e
	}
	w.mu.Unlock()
	w.cancel(e)
}

// feed re-arms the watchdog for the idle duration after data arrived.
func (w *watchdog) feed() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fired != nil {
		return
	}
	if w.timer != nil {
		w.timer.Stop()
	}
	if w.idle <= 0 {
		w.timer = nil
		return
	}
	d := w.idle
	w.timer = time.AfterFunc(d, func() { w.fire(&StallError{Waited: d}) })
}

// stop disarms the watchdog.
func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
	}
}

// stall returns the StallError when the watchdog fired.
func (w *watchdog) stall() *StallError {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fired
}

// watchedBody feeds the watchdog on every read and reports a stall as the
// read error.
type watchedBody struct {
	io.ReadCloser
	dog    *watchdog
	cancel context.CancelCauseFunc
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.dog.feed()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		if s := b.dog.stall(); s != nil {
			return n, s
		}
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.dog.stop()
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}
