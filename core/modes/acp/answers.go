package acp

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// answerWait bounds how long a closing server waits for the answers of
// the prompts it cancelled to be written.
const answerWait = 5 * time.Second

// openPrompts counts the prompt requests whose answer is not written yet,
// so that a server closed by a signal returns only once each cancelled
// prompt has been answered: the library writes a handler's answer after
// the handler returns, and the process may end right after Serve does (a
// SIGTERM's "cancelled" answer was lost that way).
type openPrompts struct {
	mu      sync.Mutex
	n       int
	changed chan struct{} // closed and renewed when n goes down
}

func newOpenPrompts() *openPrompts { return &openPrompts{changed: make(chan struct{})} }

// started counts a prompt whose answer will be written.
func (o *openPrompts) started() {
	o.mu.Lock()
	o.n++
	o.mu.Unlock()
}

// answered counts one answer written (or one prompt that ended with an
// error, whose answer is not told apart from other errors).
func (o *openPrompts) answered() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n > 0 {
		o.n--
	}
	close(o.changed)
	o.changed = make(chan struct{})
}

// wait returns when every counted prompt is answered, or after bound.
func (o *openPrompts) wait(bound time.Duration) {
	timer := time.NewTimer(bound)
	defer timer.Stop()
	for {
		o.mu.Lock()
		n, changed := o.n, o.changed
		o.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			return
		}
	}
}

// answerCounter passes what the connection writes to w and counts the
// prompt answers among it: a response (no "method") that carries a
// stopReason. The library writes one message per Write.
type answerCounter struct {
	w    io.Writer
	open *openPrompts
}

func (a *answerCounter) Write(p []byte) (int, error) {
	n, err := a.w.Write(p)
	if bytes.Contains(p, []byte(`"stopReason"`)) && !bytes.Contains(p, []byte(`"method"`)) {
		a.open.answered()
	}
	return n, err
}
