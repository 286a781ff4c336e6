package ast

import (
	"cmp"
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// Errors for runs stopped early; the texts are the reference agent's.
var (
	ErrAborted = errors.New("Aborted: Signal")
	ErrTimeout = errors.New("Aborted: Timeout")
)

// batchBytes and batchFiles bound one native call: large enough that the
// cgo crossing is noise, small enough that both cores stay busy to the end.
const (
	batchBytes = 1 << 20
	batchFiles = 64
)

// job is one batch of candidates of one language.
type job struct {
	m     *astgrep.Matcher
	items []int // indexes into the candidate slice
	size  int64 // bytes of the files, from the scan
}

// runNative searches every candidate that has a matcher (by index) on
// all cores and returns the native results by candidate index (zero
// FileResult with Status Stopped for those never searched).
func runNative(ctx context.Context, cands []candidate, matcherOf func(i int) *astgrep.Matcher, opts astgrep.Options, timeout time.Duration) ([]astgrep.FileResult, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return nil, stopError(ctx)
	}
	jobs := makeJobs(cands, matcherOf)
	results := make([]astgrep.FileResult, len(cands))
	for i := range results {
		results[i].Status = astgrep.Stopped
	}
	canceller := astgrep.NewCanceller()
	defer canceller.Close()
	opts.Cancel = canceller
	stopWatch := context.AfterFunc(ctx, canceller.Cancel)
	defer stopWatch()

	workers := min(runtime.GOMAXPROCS(0), len(jobs))
	queue := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range workers {
		wg.Go(func() {
			for j := range queue {
				in := make([]astgrep.Input, len(j.items))
				for k, idx := range j.items {
					in[k] = astgrep.Input{Path: cands[idx].abs}
				}
				res, err := j.m.Search(in, opts)
				if err != nil && !errors.Is(err, astgrep.ErrCancelled) && !errors.Is(err, astgrep.ErrTimeout) {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				for k, idx := range j.items {
					results[idx] = res[k]
				}
			}
		})
	}
feed:
	for _, j := range jobs {
		select {
		case queue <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	if ctx.Err() != nil {
		return nil, stopError(ctx)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return results, nil
}

func stopError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return ErrTimeout
	}
	return ErrAborted
}

// makeJobs cuts the candidates into per-matcher batches, keeping the
// candidate order inside each batch.
func makeJobs(cands []candidate, matcherOf func(i int) *astgrep.Matcher) []job {
	open := map[*astgrep.Matcher]*job{}
	size := map[*astgrep.Matcher]int64{}
	var jobs []job
	for i, c := range cands {
		m := matcherOf(i)
		if m == nil {
			continue
		}
		j := open[m]
		if j == nil {
			j = &job{m: m}
			open[m] = j
		}
		j.items = append(j.items, i)
		j.size += c.size
		size[m] += c.size
		if len(j.items) >= batchFiles || size[m] >= batchBytes {
			jobs = append(jobs, *j)
			delete(open, m)
			size[m] = 0
		}
	}
	for i := range cands {
		m := matcherOf(i)
		if j := open[m]; j != nil {
			jobs = append(jobs, *j)
			delete(open, m)
		}
	}
	// Largest batches first: a huge file started last would leave the
	// other cores idle while it parses.
	slices.SortStableFunc(jobs, func(a, b job) int { return cmp.Compare(b.size, a.size) })
	return jobs
}
