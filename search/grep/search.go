package grep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf16"
	"unicode/utf8"

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

// Search runs a search and returns the requested page with totals. Totals
// always cover every file: once the page is full, the remaining files are
// only counted.
func Search(ctx context.Context, opts Options) (*Result, error) {
	res := &Result{}
	p := &pager{res: res, content: opts.Mode == ModeContent, skip: max(opts.Offset, 0), offset: max(opts.Offset, 0), limit: opts.Limit}
	sum, err := stream(ctx, opts, p)
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
		res.LimitReached = p.limit > 0 && sum.TotalMatches > max(opts.Offset, 0)+len(res.Matches)
	} else {
		res.LimitReached = p.limit > 0 && sum.FilesWithMatches > max(opts.Offset, 0)+len(res.Files)
	}
	return res, nil
}

// pager is Search's sink: it keeps the page [Offset, Offset+Limit) of
// the matches (content mode) or files, and has enough once the page is
// full (the remaining files are then only counted).
type pager struct {
	res     *Result
	content bool // content mode: the page is of matches, not files
	skip    int  // of the Offset, how much is still to skip
	offset  int
	limit   int // 0: no limit
}

// Needs asks for whole records: Result holds them.
func (p *pager) Needs() Needs { return Needs{} }

func (p *pager) full() bool { return p.limit > 0 && len(p.res.Matches)+len(p.res.Files) >= p.limit }

// File adds what of fr falls in the page.
func (p *pager) File(fr *FileResult) error {
	res := p.res
	if p.content {
		for _, m := range fr.Matches {
			if p.skip > 0 {
				p.skip--
				continue
			}
			if p.full() {
				res.LimitReached = true
				break
			}
			res.Matches = append(res.Matches, m)
		}
		fr.Matches = nil
		return nil
	}
	switch {
	case p.skip > 0:
		p.skip--
	case p.full():
		res.LimitReached = true
	default:
		res.Files = append(res.Files, *fr)
	}
	return nil
}

// enough reports whether delivered results fill the page.
func (p *pager) enough(delivered int) bool { return p.limit > 0 && delivered >= p.offset+p.limit }

// Stream runs a search and calls fn with each file that has matches, in
// path order, as soon as that file and every file before it are done.
// Offset and Limit are ignored; return a non-nil error from fn to stop.
// It is StreamTo with a sink of whole records.
func Stream(ctx context.Context, opts Options, fn func(*FileResult) error) (*Summary, error) {
	return stream(ctx, opts, Records(fn))
}

// StreamTo is Stream with a sink that says what it needs of each file.
func StreamTo(ctx context.Context, opts Options, sink Sink) (*Summary, error) {
	return stream(ctx, opts, sink)
}

// StreamReader searches everything r delivers as one file named name (the
// CLI passes standard input as "<stdin>"), the way Stream searches a file
// given as Options.Path: a binary input is still searched and reported
// with FileResult.Binary. r is read a block of lines at a time, so memory
// stays bounded whatever its length, and fn gets each block's results as
// they are found. Options.Path and the directory options are ignored.
func StreamReader(ctx context.Context, opts Options, name string, r io.Reader, fn func(*FileResult) error) (*Summary, error) {
	return StreamReaderTo(ctx, opts, name, r, Records(fn))
}

// StreamReaderTo is StreamReader with a sink that says what it needs of
// each part of the input.
func StreamReaderTo(ctx context.Context, opts Options, name string, r io.Reader, sink Sink) (*Summary, error) {
	opts.tuning = opts.tuning.resolved()
	m, err := opts.compileSearch()
	if err != nil {
		return nil, err
	}
	defer m.close()
	w := worker{m: m, opts: &opts, needs: sink.Needs()}
	if w.needs.ReuseRendered {
		w.bufs = make(renderBufs, 2)
	}
	sum := &Summary{}
	var fnErr error
	matched := false
	// special: a stream that may not end. A multiline search (which needs
	// the whole text) reads at most SpecialFileCap of it; any other stops
	// at a line longer than that. Not for a regular file given as standard input
	// (`gopi grep x < file`): it ends, and is searched as the file would be.
	special := true
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			special = false
		}
	}
	o := w.searchReader(ctx, candidate{display: name, abs: name, named: true, special: special}, r, false, func(fr *FileResult) bool {
		matched = true
		sum.TotalMatches += fr.Lines
		if fnErr == nil {
			if fnErr = sink.File(fr); fnErr == nil {
				w.bufs.put(fr.Rendered)
			}
		}
		return fnErr == nil
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if fnErr != nil {
		return nil, fnErr
	}
	switch {
	case o.skipped != nil:
		sum.FilesSkipped = 1
		sum.Skipped = []SkippedFile{{Path: name, Err: o.skipped}}
		return sum, nil
	case o.binary:
		sum.BinarySkipped = 1
		return sum, nil
	}
	sum.FilesSearched = 1
	if matched {
		sum.FilesWithMatches = 1
	}
	return sum, nil
}

// batch is a run of consecutive candidates searched by one worker: tiny
// files go in dozens at a time, so the hand-offs between the walk, the
// workers and the printer cost little per file.
type batch struct {
	files []candidate
	outs  []fileOutcome    // per file, written before parts is closed
	parts chan *FileResult // results in file order; closed when the batch is done
}

// Batch bounds: a batch is handed to the workers once it holds this many
// files or bytes, or when the walk has to wait for a directory listing.
// Batches are small enough that one holding a few large files (whose size
// a streamed walk does not know) keeps the other workers busy with the
// batches queued behind it, up to queueBatches per worker. The first
// batches are smaller (1, 2, 4, … files up to batchFiles), so that the
// first file is searched, and its result printed, as soon as it is found.
const (
	batchFiles   = 32
	batchBytes   = 1 << 20
	queueBatches = 16
)

// fileOutcome is a worker's report for one candidate.
type fileOutcome struct {
	result  *FileResult // nil when the file had no match
	skipped error       // why the file was not searched; nil when it was
	binary  bool
	matched bool // the file sent at least one result
}

// stream is the engine. A pagingSink is told how many matches (content
// mode) or files have been delivered so far; once it has enough the
// remaining files are counted instead of materialised.
//
// Three parties run at once: a producer walks the candidates (a directory
// walk hands them over while it goes on) and cuts them into batches, the
// workers search the batches on every core, and the caller's goroutine
// delivers each batch's results in order as soon as that batch and every
// earlier one are done. The queues between them are short, so a fast
// producer or worker waits for the printer instead of piling results up.
func stream(ctx context.Context, opts Options, sink Sink) (*Summary, error) {
	needs := sink.Needs()
	pages, _ := sink.(pagingSink)
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	opts.tuning = opts.tuning.resolved()
	m, err := opts.compileSearch()
	if err != nil {
		return nil, err
	}
	defer m.close()
	tgt, err := collect(ctx, &opts)
	if err != nil {
		return nil, timeoutError(ctx, opts, err)
	}
	sum := &Summary{CacheAge: tgt.cacheAge}

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := runtime.GOMAXPROCS(0)
	if tgt.walk == nil {
		workers = max(min(workers, tgt.known()), 1)
	}
	order := make(chan *batch, queueBatches*workers) // to the printer, in candidate order
	jobs := make(chan *batch, queueBatches*workers)  // to the workers, in the same order
	var wg sync.WaitGroup
	var srcErr error // the producer's error; read after order is closed
	wg.Go(func() {
		defer close(jobs)
		defer close(order)
		srcErr = produce(ctx, tgt, order, jobs)
	})

	var countOnly atomic.Bool // set once the caller has enough materialised results
	var cacheGen uint64
	var scope *contentScope
	if opts.ContentCache != nil {
		cacheGen, scope = opts.ContentCache.begin(contentScopeKey(&opts))
	}
	var bufs renderBufs
	if needs.ReuseRendered {
		bufs = make(renderBufs, 2*workers+2)
	}
	for range workers {
		wg.Go(func() {
			w := worker{m: m, opts: &opts, needs: needs, cacheGen: cacheGen, scope: scope, bufs: bufs}
			for b := range jobs {
				for i, c := range b.files {
					if ctx.Err() != nil {
						break
					}
					sent := false
					send := func(fr *FileResult) bool {
						sent = true
						if ctx.Err() != nil {
							return false // the select below may pick either
						}
						select {
						case b.parts <- fr:
							return true
						case <-ctx.Done():
							return false
						}
					}
					b.outs[i] = w.search(ctx, c, countOnly.Load(), send)
					b.outs[i].matched = sent
				}
				close(b.parts) // publishes b.outs to the printer
			}
		})
	}

	delivered := 0
	var stopErr error
batches:
	for b := range order {
	parts:
		for {
			select {
			case fr, ok := <-b.parts:
				if !ok {
					break parts
				}
				sum.TotalMatches += fr.Lines
				if countOnly.Load() {
					continue
				}
				if opts.Mode == ModeContent {
					delivered += len(fr.Matches)
					if fr.Rendered != nil {
						delivered += fr.Lines
					}
				} else {
					delivered++
				}
				if err := sink.File(fr); err != nil {
					// Stop the workers now (cancel, below): a file with a
					// huge output would otherwise go on being formatted
					// to the end, for nobody.
					stopErr = err
					break batches
				}
				bufs.put(fr.Rendered)
				if pages != nil && pages.enough(delivered) {
					countOnly.Store(true)
				}
			case <-ctx.Done():
				break batches
			}
		}
		if ctx.Err() != nil {
			break
		}
		for i, o := range b.outs {
			switch {
			case o.skipped != nil:
				sum.FilesSkipped++
				if len(sum.Skipped) < MaxReportedSkips {
					sum.Skipped = append(sum.Skipped, SkippedFile{Path: b.files[i].display, Err: o.skipped})
				}
			case o.binary:
				sum.BinarySkipped++
			default:
				sum.FilesSearched++
				if o.matched {
					sum.FilesWithMatches++
				}
			}
		}
	}
	complete := ctx.Err() == nil && stopErr == nil // every file was gone through
	cancel()
	wg.Wait()
	if scope != nil {
		scope.cache.end(scope, complete && srcErr == nil)
	}
	if stopErr != nil {
		return nil, stopErr
	}
	if err := parent.Err(); err != nil {
		return nil, timeoutError(parent, opts, err)
	}
	if srcErr != nil && !errors.Is(srcErr, context.Canceled) {
		return nil, timeoutError(parent, opts, srcErr)
	}
	return sum, nil
}

// produce cuts the candidates of tgt into batches and hands each to the
// printer (order) and then to the workers (jobs).
func produce(ctx context.Context, tgt *target, order, jobs chan<- *batch) error {
	var cur *batch
	bytes := int64(0)
	limit := 1 // files in the next batch, doubling up to batchFiles
	flush := func() error {
		if cur == nil {
			return nil
		}
		b := cur
		cur, bytes = nil, 0
		limit = min(2*limit, batchFiles)
		b.outs = make([]fileOutcome, len(b.files))
		// Room for a result per file: a worker ahead of the printer
		// finishes its batch without waiting. A file read in blocks may
		// send more parts than that; its worker then waits for the
		// printer, which keeps the memory of a huge file bounded.
		b.parts = make(chan *FileResult, len(b.files)+2)
		for _, ch := range [...]chan<- *batch{order, jobs} {
			select {
			case ch <- b:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
	emit := func(c candidate) error {
		if cur == nil {
			cur = &batch{files: make([]candidate, 0, 16)}
		}
		cur.files = append(cur.files, c)
		bytes += max(c.size, 4<<10) // a file of unknown size counts as a small one
		if len(cur.files) >= limit || bytes >= batchBytes {
			return flush()
		}
		return nil
	}
	if err := tgt.each(ctx, emit, func() { _ = flush() }); err != nil {
		return err
	}
	return flush()
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
	m        lineMatcher
	opts     *Options
	needs    Needs         // what the sink needs of each file
	cacheGen uint64        // the content cache generation of this search; 0: the cache is not used
	scope    *contentScope // what the search charges its files to in the content cache (with cacheGen)
	buf      []byte
	block    []byte // searchReader's buffer, kept for the next large file (takeBlock)
	conv     []byte // UTF-16 text transcoded to UTF-8
	hits     rure.Hits
	inverted rure.Hits
	view     MatchView // handed to Needs.Render
	cut      []byte    // a line cut to MaxColumns for Needs.Render
	// bufs: the search's output buffers for reuse (Needs.ReuseRendered).
	bufs renderBufs
}

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte-order mark.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// search reads and searches one file, handing its results to send (which
// reports false once the search is being abandoned). Large files and
// files of unknown size are read a block at a time (see searchBlocks).
func (w *worker) search(ctx context.Context, c candidate, countOnly bool, send func(*FileResult) bool) fileOutcome {
	if c.denied {
		return fileOutcome{skipped: &fs.PathError{Op: "open", Path: c.abs, Err: syscall.EACCES}}
	}
	var key fileKey
	var dir *dirWatch
	cached := false
	if w.cacheGen != 0 && !c.special && filepath.IsAbs(c.abs) && filepath.Clean(c.abs) == c.abs {
		needText := w.searchesBinary(c) || w.opts.Text
		if text, nul, size, ok := w.scope.cache.getTrusted(c.abs, w.cacheGen, needText); ok {
			w.scope.charge(contentCost(c.abs, text))
			if w.opts.MaxFileSize > 0 && size > w.opts.MaxFileSize {
				return fileOutcome{skipped: tooLarge(size, w.opts.MaxFileSize)}
			}
			o := w.searchText(c, text, nul, countOnly, send)
			if o.result != nil {
				send(o.result)
				o.result = nil
			}
			return o
		}
		if w.scope.pastBudget() && !w.scope.cache.holds(c.abs) {
			// The search went through more than the whole budget: it
			// admits nothing more, so a file not cached is searched as
			// without the cache (no watch, no stat).
		} else {
			// Watch the directory before the file is stat'ed and read, so that
			// any later change is reported; the stat also gives the size.
			dir = w.scope.cache.watchDir(filepath.Dir(c.abs), w.cacheGen)
			if key, cached = statKey(c.abs); cached {
				c.size = key.size
			}
		}
	}
	if c.size <= 0 && !c.special {
		// Unknown, or reported as 0: procfs and sysfs files do that and
		// may hold any amount (see searchUnsized).
		return w.searchUnsized(ctx, c, countOnly, send)
	}
	if w.opts.MaxFileSize > 0 && c.size > w.opts.MaxFileSize {
		return fileOutcome{skipped: tooLarge(c.size, w.opts.MaxFileSize)}
	}
	if cached && c.size > w.opts.tuning.wholeFileLimit {
		// A large file is read whole only to be kept (and then searched
		// from memory); one that is not is read in blocks.
		switch {
		case c.size > contentFileLimit:
			cached = false // never kept
		case !w.scope.cache.holds(c.abs) && !w.scope.room(c.abs, c.size):
			// This search would not admit it: counted (as text: whether
			// it is binary is not known yet) and not read whole.
			w.scope.charge(contentCost(c.abs, nil) + c.size)
			cached = false
		}
	}
	if (c.size > w.opts.tuning.wholeFileLimit && !cached) || c.special {
		return w.searchBlocks(ctx, c, countOnly, send)
	}
	var o fileOutcome
	if cached {
		o = w.searchThroughCache(c, key, dir, countOnly, send)
		w.trimBuffers()
	} else {
		buf, err := w.read(c)
		if err != nil {
			return fileOutcome{skipped: err}
		}
		o = w.searchBuf(c, buf, countOnly, send)
	}
	if o.result != nil {
		send(o.result)
		o.result = nil
	}
	return o
}

// searchesBinary reports whether a binary file c is searched and reported
// (FileResult.Binary) rather than skipped: one named as the path, or any
// with Options.Binary.
func (w *worker) searchesBinary(c candidate) bool { return c.named || w.opts.Binary }

// searchThroughCache is search for a file the content cache's stat found
// (key): a file unchanged since it was cached is searched from memory (the
// stat instead of an open, a read and a close), another one is read and,
// if its size is still the one the stat saw, cached.
func (w *worker) searchThroughCache(c candidate, key fileKey, dir *dirWatch, countOnly bool, send func(*FileResult) bool) fileOutcome {
	needText := w.searchesBinary(c) || w.opts.Text
	if text, nul, hit := w.scope.cache.get(c.abs, key, w.cacheGen, needText); hit {
		w.scope.charge(contentCost(c.abs, text))
		return w.searchText(c, text, nul, countOnly, send)
	}
	buf, err := w.read(c)
	if err != nil {
		return fileOutcome{skipped: err}
	}
	text := w.decode(buf)
	nul := bytes.IndexByte(text, 0)
	kept := text
	if nul >= 0 {
		kept = nil // a binary file's verdict is kept, not its text
	}
	if w.scope.charge(contentCost(c.abs, kept)) && int64(len(buf)) == key.size {
		w.scope.cache.put(c.abs, key, w.cacheGen, text, nul, dir)
	}
	return w.searchText(c, text, nul, countOnly, send)
}

// searchUnsized is search for a file whose size the walk did not look up:
// a file that ends within wholeFileLimit is searched whole, a longer one
// goes on a block at a time from where the first read stopped.
func (w *worker) searchUnsized(ctx context.Context, c candidate, countOnly bool, send func(*FileResult) bool) fileOutcome {
	data, rest, err := readUpTo(c.abs, int(w.opts.tuning.wholeFileLimit), w.buf[:0])
	if err != nil {
		return fileOutcome{skipped: err}
	}
	if rest == nil {
		w.buf = data
		if limit := w.opts.MaxFileSize; limit > 0 && int64(len(data)) > limit {
			return fileOutcome{skipped: tooLarge(int64(len(data)), limit)}
		}
		o := w.searchBuf(c, data, countOnly, send)
		if o.result != nil {
			send(o.result)
			o.result = nil
		}
		return o
	}
	defer rest.Close()
	fi, err := rest.Stat()
	if limit := w.opts.MaxFileSize; limit > 0 && err == nil && fi.Size() > limit {
		return fileOutcome{skipped: tooLarge(fi.Size(), limit)}
	}
	w.buf = data // the block reader keeps its own buffer; data is only read
	if err == nil && fi.Size() == 0 {
		// More than wholeFileLimit from a file that reports no size: a
		// kernel pseudo-file (/proc/self/pagemap never ends). Capped as a
		// named device is.
		return w.searchCapped(ctx, c, io.MultiReader(bytes.NewReader(data), rest), countOnly, send)
	}
	return w.searchReader(ctx, c, io.MultiReader(bytes.NewReader(data), rest), countOnly, send)
}

// searchBuf searches the content of one file. A leading byte-order mark is
// handled first, as ripgrep does: a UTF-8 one is dropped (it is not text of
// the first line, so `^` matches right after it and reported text and
// offsets leave it out) and UTF-16 text is transcoded to UTF-8.
func (w *worker) searchBuf(c candidate, buf []byte, countOnly bool, send func(*FileResult) bool) fileOutcome {
	buf = w.decode(buf)
	nul := -1
	if !w.opts.Text {
		nul = bytes.IndexByte(buf, 0)
	}
	return w.searchText(c, buf, nul, countOnly, send)
}

// searchText is searchBuf after decoding: buf is the file's text and nul
// the offset of its first NUL byte (-1: none, or the search treats binary
// files as text).
func (w *worker) searchText(c candidate, buf []byte, nul int, countOnly bool, send func(*FileResult) bool) fileOutcome {
	if w.opts.Text {
		nul = -1
	}
	if nul >= 0 && !w.searchesBinary(c) {
		return fileOutcome{binary: true}
	}
	if nul >= 0 {
		// A binary file named on the command line (or found with
		// Options.Binary): say whether it matches, print none of its
		// lines (ripgrep's behaviour).
		lines, count, err := w.count(buf)
		if err != nil {
			return engineFailure(c, err)
		}
		if lines == 0 {
			return fileOutcome{}
		}
		return fileOutcome{result: &FileResult{Path: c.display, Lines: lines, Count: count, Binary: true, NULOffset: nul}}
	}
	if countOnly || w.opts.Mode == ModeCount {
		lines, count, err := w.count(buf)
		if err != nil {
			return engineFailure(c, err)
		}
		if lines == 0 {
			return fileOutcome{}
		}
		return fileOutcome{result: &FileResult{Path: c.display, Lines: lines, Count: count}}
	}
	if w.opts.Mode == ModeFilesWithMatches && !w.opts.Invert {
		ok, err := w.m.isMatch(buf)
		if err != nil {
			return engineFailure(c, err)
		}
		if !ok {
			return fileOutcome{}
		}
		if w.needs.FirstMatchEnough {
			return fileOutcome{result: &FileResult{Path: c.display, Lines: 1, Count: 1}}
		}
		// The line total still has to be exact.
		lines, count, err := w.count(buf)
		if err != nil {
			return engineFailure(c, err)
		}
		return fileOutcome{result: &FileResult{Path: c.display, Lines: lines, Count: count}}
	}
	hits, err := w.find(buf)
	if err != nil {
		return engineFailure(c, err)
	}
	if len(hits.Lines) == 0 {
		return fileOutcome{}
	}
	fr := &FileResult{Path: c.display, Lines: len(hits.Lines), Count: len(hits.Spans)}
	if w.opts.Invert {
		fr.Count = fr.Lines
	}
	if w.opts.Mode == ModeContent {
		w.content(fr, buf, hits, c.display, 0, 0, send)
		if w.opts.MaxCount > 0 && fr.Lines >= w.opts.MaxCount {
			w.markTrailing(fr.Matches)
		}
	}
	return fileOutcome{result: fr}
}

// markTrailing gives the after-context lines of the last of matches that
// match the pattern too their spans (ContextLine.Spans): once MaxCount
// matching lines were found, ripgrep still prints the context after the
// last one, and a matching line in it as a match.
func (w *worker) markTrailing(matches []Match) {
	if len(matches) == 0 {
		return
	}
	after := matches[len(matches)-1].After
	for i := range after {
		line := []byte(after[i].Text)
		var h rure.Hits
		if err := w.m.findLines(line, 1, false, &h); err != nil {
			continue
		}
		switch {
		case w.opts.Invert && len(h.Lines) == 0:
			// With -v a line that lacks the pattern is the match.
			after[i].Spans = []Span{}
		case !w.opts.Invert && len(h.Lines) > 0:
			after[i].Spans = slices.Clone(h.Spans)
		}
	}
}

// content fills fr's Matches, or Rendered with Needs.Render, from the
// hits of buf, whose first line is line lineBase+1 of the file and whose
// first byte is byte byteBase of the text searched. Rendered output past
// the tuning's renderSpill is handed to send ahead of fr (nil: kept in fr).
func (w *worker) content(fr *FileResult, buf []byte, hits *rure.Hits, display string, lineBase int, byteBase int64, send func(*FileResult) bool) {
	if w.renders() {
		room := 0
		for _, hit := range hits.Lines {
			room += hit.End - hit.Start + len(display) + 16
		}
		spillAt := w.opts.tuning.renderSpill
		out := Rendering{Buf: w.bufs.get(min(room, 2*spillAt)), bufs: w.bufs, spillAt: spillAt}
		if send != nil {
			out.spill = func(part []byte) bool {
				return send(&FileResult{Path: display, Rendered: part})
			}
		}
		renderMatches(&out, buf, hits, display, lineBase, byteBase, w.opts, w.needs.Render, &w.view, &w.cut)
		fr.Rendered = out.Buf
		return
	}
	fr.Matches = buildMatches(buf, hits, display, w.opts)
	moveMatches(fr.Matches, lineBase, byteBase)
}

// moveMatches adds lines to the line numbers and bytes to the offsets of
// matches and their context lines: built from a part of the text, they
// become numbered in the whole.
func moveMatches(matches []Match, lines int, bytes int64) {
	if lines == 0 && bytes == 0 {
		return
	}
	for i := range matches {
		m := &matches[i]
		m.Line += lines
		m.Offset += bytes
		for k := range m.Before {
			m.Before[k].Line += lines
			m.Before[k].Offset += bytes
		}
		for k := range m.After {
			m.After[k].Line += lines
			m.After[k].Offset += bytes
		}
	}
}

// find returns the hits to report: the matching lines, at most MaxCount,
// or with Invert the lines that do not match.
func (w *worker) find(buf []byte) (*rure.Hits, error) { return w.findLimit(buf, w.opts.MaxCount) }

// findLimit is find with at most limit lines (0: no limit).
func (w *worker) findLimit(buf []byte, limit int) (*rure.Hits, error) {
	w.hits.Reset()
	if !w.opts.Invert {
		err := w.m.findLines(buf, max(limit, 0), w.needs.FirstMatchOnly, &w.hits)
		return &w.hits, err
	}
	if err := w.m.findLines(buf, 0, true, &w.hits); err != nil { // inverted lines have no spans
		return nil, err
	}
	invertHits(buf, &w.hits, limit, &w.inverted)
	return &w.inverted, nil
}

// count returns the number of reported lines and of matches without
// materialising them when no option needs the lines themselves.
func (w *worker) count(buf []byte) (lines, matches int, err error) {
	return w.countLimit(buf, w.opts.MaxCount)
}

// countLimit is count with at most limit lines (0: no limit).
func (w *worker) countLimit(buf []byte, limit int) (lines, matches int, err error) {
	if !w.opts.Invert && limit <= 0 {
		if w.needs.CountLinesOnly && w.opts.Mode == ModeCount {
			n, err := w.m.countMatchingLines(buf)
			return n, 0, err
		}
		return w.m.countLines(buf)
	}
	h, err := w.findLimit(buf, limit)
	if err != nil {
		return 0, 0, err
	}
	if w.opts.Invert {
		return len(h.Lines), len(h.Lines), nil
	}
	return len(h.Lines), len(h.Spans), nil
}

// invertHits stores in out the lines of buf that no hit of h covers, at
// most max when max > 0. They carry no spans.
func invertHits(buf []byte, h *rure.Hits, max int, out *rure.Hits) {
	out.Reset()
	k := 0
	forEachLine(buf, func(lineNo, start, end int) bool {
		for k < len(h.Lines) && h.Lines[k].End < start {
			k++
		}
		if k < len(h.Lines) && h.Lines[k].Start <= start {
			return true // covered by a hit
		}
		n := len(out.Spans)
		out.Lines = append(out.Lines, rure.LineHit{Line: lineNo, Start: start, End: end, SpanLo: n, SpanHi: n})
		return max <= 0 || len(out.Lines) < max
	})
}

// decode drops a UTF-8 byte-order mark and transcodes UTF-16 text that
// starts with its byte-order mark to UTF-8, into the worker's buffer.
func (w *worker) decode(buf []byte) []byte {
	switch {
	case bytes.HasPrefix(buf, utf8BOM):
		return buf[len(utf8BOM):]
	case len(buf) >= 2 && buf[0] == 0xFF && buf[1] == 0xFE:
		w.conv = appendUTF16(w.conv[:0], buf[2:], false)
		return w.conv
	case len(buf) >= 2 && buf[0] == 0xFE && buf[1] == 0xFF:
		w.conv = appendUTF16(w.conv[:0], buf[2:], true)
		return w.conv
	}
	return buf
}

// appendUTF16 appends the UTF-8 form of UTF-16 text to dst. Unpaired
// surrogates and a final odd byte become U+FFFD.
func appendUTF16(dst, src []byte, bigEndian bool) []byte {
	unit := func(i int) rune {
		if bigEndian {
			return rune(src[i])<<8 | rune(src[i+1])
		}
		return rune(src[i+1])<<8 | rune(src[i])
	}
	for i := 0; i+1 < len(src); i += 2 {
		r := unit(i)
		if utf16.IsSurrogate(r) {
			if i+3 < len(src) {
				if d := utf16.DecodeRune(r, unit(i+2)); d != utf8.RuneError {
					dst = utf8.AppendRune(dst, d)
					i += 2
					continue
				}
			}
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
	}
	if len(src)%2 == 1 {
		dst = utf8.AppendRune(dst, utf8.RuneError)
	}
	return dst
}

// engineFailure is the outcome of a file the regex engine failed on (a
// caught Rust panic): the file is skipped with that error and the search
// goes on with the next one.
func engineFailure(c candidate, err error) fileOutcome {
	return fileOutcome{skipped: fmt.Errorf("regex engine failed on %s: %w", c.display, err)}
}

// keptBufferLimit is the largest read buffer a worker keeps for the next
// file: one grown for a large file read whole to be cached (up to
// contentFileLimit) goes back to the heap instead of staying with the
// worker for the rest of the search.
const keptBufferLimit = 4 << 20

// trimBuffers drops the worker's read and transcoding buffers when a large
// file grew them past keptBufferLimit.
func (w *worker) trimBuffers() {
	if cap(w.buf) > keptBufferLimit {
		w.buf = nil
	}
	if cap(w.conv) > keptBufferLimit {
		w.conv = nil
	}
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
