package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/gopi-agent/gopi/search/grep"
)

// streamStdin searches standard input, giving up after o.Timeout: a read
// of a terminal or a pipe cannot be interrupted, so the search goes on in
// a goroutine that is abandoned (and ends with the process) when the time
// is up; from then on its results are dropped.
func streamStdin(ctx context.Context, o grep.Options, r io.Reader, needs grep.Needs, onResult func(*grep.FileResult) error) (*grep.Summary, error) {
	if o.Timeout <= 0 {
		return grep.StreamReaderTo(ctx, o, "<stdin>", r, fileSink{needs, onResult})
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	var mu sync.Mutex
	abandoned := false
	type outcome struct {
		sum *grep.Summary
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		sum, err := grep.StreamReaderTo(ctx, o, "<stdin>", r, fileSink{needs, func(fr *grep.FileResult) error {
			mu.Lock()
			defer mu.Unlock()
			if abandoned {
				return context.DeadlineExceeded
			}
			return onResult(fr)
		}})
		done <- outcome{sum, err}
	}()
	select {
	case d := <-done:
		return d.sum, d.err
	case <-ctx.Done():
		mu.Lock()
		abandoned = true
		mu.Unlock()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("grep timed out after %s", o.Timeout)
		}
		return nil, ctx.Err()
	}
}

// fileSink is a grep.Sink: fn gets each file's results, which hold what
// needs asks for.
type fileSink struct {
	needs grep.Needs
	fn    func(*grep.FileResult) error
}

// Needs returns the needs the sink was made with.
func (s fileSink) Needs() grep.Needs { return s.needs }

// File hands fr to the function.
func (s fileSink) File(fr *grep.FileResult) error { return s.fn(fr) }
