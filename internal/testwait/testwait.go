// Package testwait is how a test waits for something to happen: a value
// on a channel, or a condition the code under test does not announce.
//
// A test that sleeps a fixed time and then looks fails when the machine
// is loaded (the thing waited for comes later than the sleep) and wastes
// the sleep when it is not; a test that gives up after a fixed few
// seconds fails the same way. These helpers wait exactly as long as
// needed and give up only shortly before the test binary's own deadline
// (go test -timeout), so that a hang is still reported by name: the bound
// keeps a broken build from hanging and is not what the test measures.
// Prefer a channel the code closes or a callback it makes to polling.
package testwait

import (
	"testing"
	"time"
)

// Fallback is how long a wait lasts when the test has no deadline
// (go test -timeout 0).
const Fallback = 5 * time.Minute

// interval is the pause between two looks at a polled condition.
const interval = 2 * time.Millisecond

// Until returns once cond holds; it fails the test (t.Fatalf, naming
// what) when cond still does not hold at the test's bound. Call it from
// the test's goroutine.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !poll(time.Until(end(t)), cond) {
		t.Fatalf("gave up waiting for %s", what)
	}
}

// Recv receives from ch as a receive statement does (ok is false once ch
// is closed and drained); it fails the test (t.Fatalf, naming what) when
// nothing comes by the test's bound. Call it from the test's goroutine.
func Recv[T any](t testing.TB, what string, ch <-chan T) (v T, ok bool) {
	t.Helper()
	timer := time.NewTimer(time.Until(end(t)))
	defer timer.Stop()
	select {
	case v, ok = <-ch:
		return v, ok
	case <-timer.C:
		t.Fatalf("gave up waiting for %s", what)
		return v, false
	}
}

// Deadline is when the waits of t give up: for a helper that polls with
// a failure message of its own.
func Deadline(t testing.TB) time.Time { return end(t) }

// poll reports whether cond held within bound.
func poll(bound time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(interval)
	}
	return true
}

// end is when a wait of t gives up: nine tenths of the way to the test's
// deadline, leaving the rest to report and clean up, or Fallback from now.
func end(t testing.TB) time.Time {
	now := time.Now()
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok {
			return now.Add(deadline.Sub(now) * 9 / 10)
		}
	}
	return now.Add(Fallback)
}
