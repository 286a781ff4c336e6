package dap

import "sync"

// Output caps.
const (
	// MaxOutputBytes is how much of a program's output a session keeps.
	MaxOutputBytes = 128 * 1024
	// outputTrimStep is how much older text goes at a time once the cap
	// is passed.
	outputTrimStep = 1024
	// stderrTail is how much of an adapter's own error output is kept for
	// the message that says it exited.
	stderrTail = 4 * 1024
)

// outputBuffer keeps the newest MaxOutputBytes of a session's output
// (output events and what runInTerminal programs print): older text is
// dropped 1 KiB at a time, and Truncated says that happened.
type outputBuffer struct {
	mu        sync.Mutex
	buf       []byte
	total     int  // bytes ever appended
	truncated bool // older text was dropped
}

// Write appends p; it never fails.
func (o *outputBuffer) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf = append(o.buf, p...)
	o.total += len(p)
	if len(o.buf) > MaxOutputBytes {
		drop := len(o.buf) - MaxOutputBytes
		drop = (drop + outputTrimStep - 1) / outputTrimStep * outputTrimStep
		drop = min(drop, len(o.buf))
		for drop < len(o.buf) && o.buf[drop]&0xC0 == 0x80 { // not inside a character
			drop++
		}
		o.buf = append(o.buf[:0], o.buf[drop:]...)
		o.truncated = true
	}
	return len(p), nil
}

// snapshot returns the kept text, the bytes ever written and whether
// older text was dropped.
func (o *outputBuffer) snapshot() (string, int, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return string(o.buf), o.total, o.truncated
}
