package ast

import (
	"cmp"
	"context"
	"errors"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// Errors for runs stopped early; the texts are the reference agent's.
var (
	ErrAborted = errors.New("Aborted: Signal")
	ErrTimeout = errors.New("Aborted: Timeout")
)

// batchBytes and batchFiles bound one native call: large enough that the
// cgo crossing is noise, small enough that both cores stay busy to the end
// and that few results wait in memory for an earlier batch to finish.
const (
	batchBytes = 1 << 20
	batchFiles = 64
)

// hugeFile is the size from which a file is searched on its own and
// before every batch of smaller files: one parse cannot be shared between
// cores, so a big file started last would leave the other cores idle.
const hugeFile = 1 << 20

// job is one batch of candidates of one language.
type job struct {
	m     *astgrep.Matcher
	items []int // indexes into the candidate slice
	size  int64 // bytes of the files, from the scan
	huge  bool  // one huge file, scheduled first
}

// aheadJobs is how many batches may always be handed out beyond the first
// file not yet passed on to the sink, per worker. Beyond that, workers run
// ahead of a slow batch while the results waiting behind it are small
// (under aheadBytes, as estimated by resultBytes) and no more than
// maxAheadJobs batches per worker lie ahead: a search whose few matching
// files are slow to parse (a rare call in C headers) keeps every core busy
// past them, and one whose every file matches holds little in memory.
const (
	aheadJobs    = 2
	maxAheadJobs = 64
	aheadBytes   = 4 << 20
)

// resultBytes estimates the memory a result holds while it waits: the
// source its matches keep (their lines, which hold their texts, and the
// nodes a rule captured outside the match) and the match records.
func resultBytes(r *astgrep.FileResult) int64 {
	n := int64(64)
	for i := range r.Matches {
		m := &r.Matches[i]
		n += int64(len(m.Lines)) + 256
		for _, c := range m.Captures {
			for _, nd := range c.Nodes {
				if nd.Start.Offset < m.Start.Offset || nd.End.Offset > m.End.Offset {
					n += int64(len(nd.Text))
				}
			}
		}
	}
	return n
}

// done is a finished job with its native results (parallel to items).
type done struct {
	items []int
	res   []astgrep.FileResult
	err   error
}

// runNative searches every candidate that has a matcher (by index) on
// all cores and returns the native results by candidate index (zero
// FileResult with Status Stopped for those never searched).
func runNative(ctx context.Context, cands []candidate, matcherOf func(i int) *astgrep.Matcher, opts astgrep.Options, timeout time.Duration) ([]astgrep.FileResult, error) {
	results := make([]astgrep.FileResult, len(cands))
	for i := range results {
		results[i].Status = astgrep.Stopped
	}
	err := streamNative(ctx, cands, matcherOf, opts, timeout, func(i int, r astgrep.FileResult) error {
		results[i] = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}

// streamNative searches every candidate that has a matcher on all cores
// and hands each result to sink in candidate order, on the calling
// goroutine, as soon as every earlier candidate is done: results are held
// only while an earlier file is still being searched. An error from sink
// stops the search and is returned.
func streamNative(ctx context.Context, cands []candidate, matcherOf func(i int) *astgrep.Matcher, opts astgrep.Options, timeout time.Duration, sink func(i int, r astgrep.FileResult) error) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return stopError(ctx)
	}
	jobs := makeJobs(cands, matcherOf)
	canceller := astgrep.NewCanceller()
	defer canceller.Close()
	opts.Cancel = canceller
	stopWatch := context.AfterFunc(ctx, canceller.Cancel)
	defer stopWatch()
	// quit stops the feeder when the sink fails.
	quit := make(chan struct{})
	var quitOnce sync.Once
	stop := func() {
		quitOnce.Do(func() { close(quit) })
		canceller.Cancel()
	}

	workers := min(runtime.GOMAXPROCS(0), len(jobs))
	queue := make(chan job)
	finished := make(chan done, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			// One OS thread per worker: the C allocator gives every thread
			// that parses its own arena and keeps what the arena grew to, so
			// a worker wandering over the Go runtime's threads left six
			// arenas behind instead of two (about 5 MB more peak RSS over
			// the Python standard library).
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for j := range queue {
				in := make([]astgrep.Input, len(j.items))
				for k, idx := range j.items {
					in[k] = astgrep.Input{Path: cands[idx].abs}
				}
				res, err := j.m.Search(in, opts)
				if errors.Is(err, astgrep.ErrCancelled) || errors.Is(err, astgrep.ErrTimeout) {
					err = nil
				}
				finished <- done{items: j.items, res: res, err: err}
			}
		})
	}
	// frontier is the first candidate not yet passed on to the sink;
	// advanced wakes the feeder when it moves.
	var frontier atomic.Int64
	// waiting is the estimated size of the results held until their turn.
	var waiting atomic.Int64
	advanced := make(chan struct{}, 1)
	wg.Go(func() {
		defer close(queue)
		var firsts []int // first candidate of each batch handed out, ascending
		for _, j := range jobs {
			// Batches come in candidate order: wait while too many of those
			// handed out lie wholly ahead of the frontier. The batch that
			// holds the frontier always starts at or before it, so it is
			// never kept waiting.
			for !j.huge {
				ahead := len(firsts) - sort.SearchInts(firsts, int(frontier.Load())+1)
				if ahead < aheadJobs*workers || ahead < maxAheadJobs*workers && waiting.Load() < aheadBytes {
					break
				}
				select {
				case <-advanced:
				case <-ctx.Done():
					return
				case <-quit:
					return
				}
			}
			if !j.huge {
				firsts = append(firsts, j.items[0])
			}
			select {
			case queue <- j:
			case <-ctx.Done():
				return
			case <-quit:
				return
			}
		}
	})
	go func() {
		wg.Wait()
		close(finished)
	}()

	// Results by candidate index until their turn comes; ready marks the
	// candidates that are done (those without a matcher from the start).
	pending := map[int]astgrep.FileResult{}
	ready := make([]bool, len(cands))
	for i := range cands {
		ready[i] = matcherOf(i) == nil
	}
	next := 0
	var firstErr error
	incomplete := false // a result handed on was cut short
	for d := range finished {
		if firstErr != nil {
			continue // drain
		}
		if d.err != nil {
			firstErr = d.err
			stop()
			continue
		}
		for k, idx := range d.items {
			if k < len(d.res) {
				pending[idx] = d.res[k]
				waiting.Add(resultBytes(&d.res[k]))
			} else {
				pending[idx] = astgrep.FileResult{Status: astgrep.Stopped}
				waiting.Add(resultBytes(&astgrep.FileResult{}))
			}
			ready[idx] = true
		}
		start := next
		for ; next < len(cands) && ready[next]; next++ {
			r, ok := pending[next]
			if !ok {
				continue
			}
			delete(pending, next)
			waiting.Add(-resultBytes(&r))
			incomplete = incomplete || r.Status == astgrep.Stopped
			if err := sink(next, r); err != nil {
				firstErr = err
				stop()
				break
			}
		}
		if next != start {
			frontier.Store(int64(next))
			select {
			case advanced <- struct{}{}:
			default:
			}
		}
	}
	if firstErr != nil {
		return firstErr
	}
	// A deadline that passes once every file is done (while the last
	// results are printed) cut nothing short.
	if ctx.Err() != nil && (incomplete || next < len(cands)) {
		return stopError(ctx)
	}
	return nil
}

func stopError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return ErrTimeout
	}
	return ErrAborted
}

// makeJobs cuts the candidates into per-matcher batches. Huge files get a
// job of their own each, scheduled first, largest first; the other files
// are batched in candidate order and follow in that order, so that
// results can be streamed out in order while few of them wait.
func makeJobs(cands []candidate, matcherOf func(i int) *astgrep.Matcher) []job {
	open := map[*astgrep.Matcher]*job{}
	var huge, jobs []job
	for i, c := range cands {
		m := matcherOf(i)
		if m == nil {
			continue
		}
		if c.size >= hugeFile {
			huge = append(huge, job{m: m, items: []int{i}, size: c.size, huge: true})
			continue
		}
		j := open[m]
		if j == nil {
			j = &job{m: m}
			open[m] = j
		}
		j.items = append(j.items, i)
		j.size += c.size
		if len(j.items) >= batchFiles || j.size >= batchBytes {
			jobs = append(jobs, *j)
			delete(open, m)
		}
	}
	for i := range cands {
		m := matcherOf(i)
		if j := open[m]; j != nil {
			jobs = append(jobs, *j)
			delete(open, m)
		}
	}
	// Leftover batches were appended in the order of their first file's
	// matcher; keep every batch in the order of its first candidate.
	slices.SortStableFunc(jobs, func(a, b job) int { return cmp.Compare(a.items[0], b.items[0]) })
	slices.SortStableFunc(huge, func(a, b job) int { return cmp.Compare(b.size, a.size) })
	return append(huge, jobs...)
}
