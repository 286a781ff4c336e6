package shell

import (
	"errors"
	"io"
	"os"
	"time"
)

// maxDrain bounds the reading of output after the shell exited, when a
// process that escaped its group keeps the pipe open and keeps writing.
const maxDrain = 2 * time.Second

// copyOutput copies the pipe r to w until its end. Once exited is closed
// (the shell is gone and its group killed), the reading may wait at most
// drainWait for more data — a daemon that left the group may hold the pipe
// open — and maxDrain in all. The caller sets a first read deadline when
// the shell exits, to wake a read that is blocked; the copier renews it
// itself, so output already in the pipe is read however late the copying
// goroutine gets to run (a loaded machine delayed it past a deadline set
// by another goroutine, and the output of the command was lost).
func copyOutput(w io.Writer, r *os.File, exited <-chan struct{}) {
	drainPipe(r, exited, func(p []byte) { _, _ = w.Write(p) })
}

// drainPipe reads r until its end as copyOutput does, handing each chunk
// to sink.
func drainPipe(r *os.File, exited <-chan struct{}, sink func([]byte)) {
	buf := make([]byte, 256<<10)
	var stopAt time.Time
	retried := false
	for {
		n, err := r.Read(buf)
		if n > 0 {
			sink(buf[:n])
			retried = false
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return // EOF, or the pipe closed
		}
		select {
		case <-exited:
		default:
			return // a deadline before the exit: not ours to renew
		}
		if stopAt.IsZero() {
			stopAt = time.Now().Add(maxDrain)
		}
		// One more short wait after a timeout with nothing read since the
		// last one: what is in the pipe comes at once; a silent writer
		// that keeps it open ends the copy.
		if retried || !time.Now().Before(stopAt) {
			return
		}
		retried = n == 0
		next := time.Now().Add(drainWait)
		if next.After(stopAt) {
			next = stopAt
		}
		_ = r.SetReadDeadline(next)
	}
}
