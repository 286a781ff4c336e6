package grep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/native/rure"
)

// Summary holds the totals of a streamed search.
type Summary struct {
	TotalMatches     int   // matching lines across every file
	FilesWithMatches int   // files with at least one match
	FilesSearched    int   // files read and searched
	FilesSkipped     int   // files that could not be read
	BinarySkipped    int   // files holding a NUL byte
	CacheAge         int64 // age of the directory scan in milliseconds; 0 when fresh
	// Skipped names the first MaxReportedSkips files counted in
	// FilesSkipped, in path order, with why each was skipped.
	Skipped []SkippedFile
}

// MaxReportedSkips bounds Summary.Skipped and Result.Skipped, so a search
// of a tree full of unreadable files keeps bounded memory.
const MaxReportedSkips = 1000

// SkippedFile is a file that was not searched and why.
type SkippedFile struct {
	Path string // as in Match.Path
	Err  error  // the read error, or the engine's error for this file
}

// compileSearchMatcher builds a search's matcher; tests replace it to
// inject engine failures.
var compileSearchMatcher = compileMatcher

// errStop ends a stream early without an error.
var errStop = errors.New("stop")

// Search runs a search and returns the requested page with totals. Totals
// always cover every file: once the page is full, the remaining files are
// only counted.
func Search(ctx context.Context, opts Options) (*Result, error) {
	res := &Result{}
	skip, limit := max(opts.Offset, 0), opts.Limit
	full := func() bool { return limit > 0 && len(res.Matches)+len(res.Files) >= limit }
	sum, err := stream(ctx, opts, func(fr *FileResult) error {
		if opts.Mode == ModeContent {
			for _, m := range fr.Matches {
				if skip > 0 {
					skip--
					continue
				}
				if full() {
					res.LimitReached = true
					break
				}
				res.Matches = append(res.Matches, m)
			}
			fr.Matches = nil
			return nil
		}
		switch {
		case skip > 0:
			skip--
		case full():
			res.LimitReached = true
		default:
			res.Files = append(res.Files, *fr)
		}
		return nil
	}, func(seen int) bool { return limit > 0 && seen >= max(opts.Offset, 0)+limit })
	if err != nil {
		return nil, err
	}
	res.TotalMatches = sum.TotalMatches
	res.FilesWithMatches = sum.FilesWithMatches
	res.FilesSearched = sum.FilesSearched
	res.FilesSkipped = sum.FilesSkipped
	res.BinarySkipped = sum.BinarySkipped
	res.Skipped = sum.Skipped
	res.CacheAge = time.Duration(sum.CacheAge) * time.Millisecond
	if opts.Mode == ModeContent {
		res.LimitReached = limit > 0 && sum.TotalMatches > max(opts.Offset, 0)+len(res.Matches)
	} else {
		res.LimitReached = limit > 0 && sum.FilesWithMatches > max(opts.Offset, 0)+len(res.Files)
	}
	return res, nil
}

// Stream runs a search and calls fn with each file that has matches, in
// path order, as soon as that file and every file before it are done.
// Offset and Limit are ignored; return a non-nil error from fn to stop.
func Stream(ctx context.Context, opts Options, fn func(*FileResult) error) (*Summary, error) {
	return stream(ctx, opts, fn, nil)
}

// fileOutcome is a worker's report for one candidate.
type fileOutcome struct {
	result  *FileResult // nil when the file had no match
	skipped error       // why the file was not searched; nil when it was
	binary  bool
}

// stream is the engine. enough, when set, is told how many matches (content
// mode) or files have been delivered so far; once it answers true the
// remaining files are counted instead of materialised.
func stream(ctx context.Context, opts Options, fn func(*FileResult) error, enough func(int) bool) (*Summary, error) {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	m, err := compileSearchMatcher(matcherConfig{
		pattern:    opts.Pattern,
		ignoreCase: opts.IgnoreCase,
		multiline:  opts.Multiline || NeedsMultiline(opts.Pattern),
	})
	if err != nil {
		return nil, err
	}
	defer m.close()
	tgt, err := collect(ctx, &opts)
	if err != nil {
		return nil, timeoutError(ctx, opts, err)
	}
	sum := &Summary{CacheAge: tgt.cacheAge}
	n := len(tgt.files)
	if n == 0 {
		return sum, nil
	}

	var countOnly atomic.Bool // set once the caller has enough materialised results
	outcomes := make([]fileOutcome, n)
	done := make([]chan struct{}, n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var next atomic.Int64
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), n)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := worker{m: m, opts: &opts}
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if ctx.Err() == nil {
					outcomes[i] = w.search(tgt.files[i], countOnly.Load())
				}
				close(done[i])
			}
		}()
	}

	delivered := 0
	var stopErr error
	for i := 0; i < n && stopErr == nil; i++ {
		select {
		case <-done[i]:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		o := outcomes[i]
		outcomes[i] = fileOutcome{}
		switch {
		case o.skipped != nil:
			sum.FilesSkipped++
			if len(sum.Skipped) < MaxReportedSkips {
				sum.Skipped = append(sum.Skipped, SkippedFile{Path: tgt.files[i].display, Err: o.skipped})
			}
			continue
		case o.binary:
			sum.BinarySkipped++
			continue
		}
		sum.FilesSearched++
		if o.result == nil {
			continue
		}
		sum.FilesWithMatches++
		sum.TotalMatches += o.result.Lines
		if countOnly.Load() {
			continue
		}
		if opts.Mode == ModeContent {
			delivered += len(o.result.Matches)
		} else {
			delivered++
		}
		if err := fn(o.result); err != nil {
			stopErr = err
		}
		if enough != nil && enough(delivered) {
			countOnly.Store(true)
		}
	}
	cancel()
	wg.Wait()
	if stopErr != nil && !errors.Is(stopErr, errStop) {
		return nil, stopErr
	}
	if err := parent.Err(); err != nil && stopErr == nil {
		return nil, timeoutError(parent, opts, err)
	}
	return sum, nil
}

// timeoutError turns a deadline into the user-facing timeout text.
func timeoutError(_ context.Context, opts Options, err error) error {
	if opts.Timeout > 0 && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("grep timed out after %s", opts.Timeout)
	}
	return err
}

// worker owns the reusable buffers of one search goroutine.
type worker struct {
	m    lineMatcher
	opts *Options
	buf  []byte
	hits rure.Hits
}

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte-order mark.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// search reads and searches one file. A leading UTF-8 byte-order mark is
// dropped first, as ripgrep does: it is not text of the first line, so `^`
// matches right after it and reported text and offsets leave it out.
func (w *worker) search(c candidate, countOnly bool) fileOutcome {
	buf, err := w.read(c)
	if err != nil {
		return fileOutcome{skipped: err}
	}
	buf = bytes.TrimPrefix(buf, utf8BOM)
	if bytes.IndexByte(buf, 0) >= 0 {
		return fileOutcome{binary: true}
	}
	switch {
	case countOnly || w.opts.Mode == ModeCount:
		lines, count, err := w.m.countLines(buf)
		if err != nil {
			return engineFailure(c, err)
		}
		if lines == 0 {
			return fileOutcome{}
		}
		return fileOutcome{result: &FileResult{Path: c.display, Lines: lines, Count: count}}
	case w.opts.Mode == ModeFilesWithMatches:
		ok, err := w.m.isMatch(buf)
		if err != nil {
			return engineFailure(c, err)
		}
		if !ok {
			return fileOutcome{}
		}
		// The line total still has to be exact.
		lines, count, err := w.m.countLines(buf)
		if err != nil {
			return engineFailure(c, err)
		}
		return fileOutcome{result: &FileResult{Path: c.display, Lines: lines, Count: count}}
	}
	w.hits.Reset()
	if err := w.m.findLines(buf, 0, &w.hits); err != nil {
		return engineFailure(c, err)
	}
	if len(w.hits.Lines) == 0 {
		return fileOutcome{}
	}
	fr := &FileResult{Path: c.display, Lines: len(w.hits.Lines), Count: len(w.hits.Spans)}
	fr.Matches = buildMatches(buf, &w.hits, c.display, w.opts)
	return fileOutcome{result: fr}
}

// engineFailure is the outcome of a file the regex engine failed on (a
// caught Rust panic): the file is skipped with that error and the search
// goes on with the next one.
func engineFailure(c candidate, err error) fileOutcome {
	return fileOutcome{skipped: fmt.Errorf("regex engine failed on %s: %w", c.display, err)}
}

// read loads a whole file into the worker's buffer, which is reused for the
// next file: results must copy what they keep.
func (w *worker) read(c candidate) ([]byte, error) {
	buf, err := readWhole(c.abs, c.size, w.buf[:0])
	if err != nil {
		return nil, err
	}
	w.buf = buf
	return buf, nil
}
