// Package promptwriter buffers command output the way bufio.Writer does,
// so that a command printing a lot (gopi grep, gopi find) writes in large
// blocks, but never keeps bytes back for longer than Delay: the first
// result of a long search reaches a reader such as `head -1` at once
// instead of when the buffer fills or the search ends.
package promptwriter

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// Delay is the longest a Writer keeps bytes back.
const Delay = 10 * time.Millisecond

// Writer buffers output as bufio.Writer does, so that a search that
// prints a lot writes in large blocks, but never holds bytes for more than
// Delay: the first result of a long search (`gopi grep x / | head
// -1`) reaches the reader at once instead of when 64 KiB have piled up.
// A write error (the reader went away) is kept by the buffer and returned
// by the next write, which stops the search.
type Writer struct {
	mu        sync.Mutex
	buf       *bufio.Writer
	timer     *time.Timer
	armed     bool      // the timer will flush what is buffered
	lastFlush time.Time // bytes written after a quiet spell go out at once
	// fresh: the timer was armed by this record, so it may follow a quiet
	// spell and EndRecord looks at the clock; inside a burst the timer is
	// already running and the clock is not read per record (200,000
	// paths printed read it 200,000 times, 3 % of the run).
	fresh bool
	// held: the writing goroutine holds mu for a whole record (Begin to
	// EndRecord), so its writes skip the lock; only that goroutine reads
	// or sets it.
	held bool
}

// New buffers up to size bytes of output for w. Stop it when done.
func New(w io.Writer, size int) *Writer {
	p := &Writer{buf: bufio.NewWriterSize(w, size)}
	p.timer = time.AfterFunc(time.Hour, p.tick)
	p.timer.Stop()
	return p
}

// tick is the timer's flush.
func (p *Writer) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed = false
	p.buf.Flush() // an error stays in the buffer for the next write
	p.lastFlush = time.Now()
}

// arm starts the timer for newly buffered bytes; p.mu is held.
func (p *Writer) arm() {
	if !p.armed && p.buf.Buffered() > 0 {
		p.armed, p.fresh = true, true
		p.timer.Reset(Delay)
	}
}

// EndRecord marks the end of one complete piece of output (a file's
// results, a path), begun with Begin or not. After a quiet spell (nothing written for Delay)
// it goes out at once, so the first result of a search is not delayed at
// all; otherwise the timer writes it within Delay together with
// whatever follows.
func (p *Writer) EndRecord() {
	if p.held {
		p.held = false // mu stays locked until the deferred unlock below
	} else {
		p.mu.Lock()
	}
	defer p.mu.Unlock()
	if !p.fresh {
		return
	}
	p.fresh = false
	if now := time.Now(); p.buf.Buffered() > 0 && now.Sub(p.lastFlush) >= Delay {
		p.buf.Flush()
		p.lastFlush = now
	}
}

// lock takes mu unless the current record holds it; unlock undoes it.
func (p *Writer) lock() {
	if !p.held {
		p.mu.Lock()
	}
}

func (p *Writer) unlock() {
	if !p.held {
		p.mu.Unlock()
	}
}

// Write writes b.
func (p *Writer) Write(b []byte) (int, error) {
	p.lock()
	defer p.unlock()
	n, err := p.buf.Write(b)
	p.arm()
	return n, err
}

// WriteString writes s.
func (p *Writer) WriteString(s string) (int, error) {
	p.lock()
	defer p.unlock()
	n, err := p.buf.WriteString(s)
	p.arm()
	return n, err
}

// WriteByte writes c.
func (p *Writer) WriteByte(c byte) error {
	p.lock()
	defer p.unlock()
	err := p.buf.WriteByte(c)
	p.arm()
	return err
}

// Begin starts a record: until EndRecord the writes of this goroutine
// take no lock each (the timer waits for the record to end).
func (p *Writer) Begin() {
	p.mu.Lock()
	p.held = true
}

// Flush writes everything buffered now.
func (p *Writer) Flush() error {
	p.lock()
	defer p.unlock()
	return p.buf.Flush()
}

// Stop ends the timer and writes what is left; the writer must not be used
// afterwards.
func (p *Writer) Stop() error {
	p.timer.Stop()
	return p.Flush()
}
