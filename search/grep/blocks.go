package grep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// SpecialFileCap bounds how much of a file that is not a regular file (a
// device such as /dev/zero) is read when it is named as Options.Path; such
// files found in a directory are never read. A named FIFO, like standard
// input, is read to its end, and only a line longer than this (or, for a
// search that needs the whole text, this much text) ends its search.
const SpecialFileCap = 64 << 20

// ErrTooLarge is wrapped by the SkippedFile error of a file over
// Options.MaxFileSize.
var ErrTooLarge = errors.New("file is over the size limit")

// searchBlocks searches a large file, or a named special file, a block of
// complete lines at a time, so memory stays at a few blocks whatever the
// size: content results go to send block by block; counts (and the
// "binary file matches" result of a named binary file) once at the end.
// Like ripgrep, the first block decides whether the file is binary, and a
// NUL byte found later ends the search of a text file there. Searches that
// need the whole text at once (multiline, UTF-16) read it whole, up to the
// size limit; context lines are read block by block too (contextstream.go).
func (w *worker) searchBlocks(ctx context.Context, c candidate, countOnly bool, send func(*FileResult) bool) fileOutcome {
	open := os.Open
	if c.special {
		open = func(p string) (*os.File, error) { return openSpecial(ctx, p) }
	}
	f, err := open(c.abs)
	if err != nil {
		if ctx.Err() != nil {
			return fileOutcome{} // the search is over; the caller reports why
		}
		return fileOutcome{skipped: err}
	}
	defer f.Close()
	if !c.special {
		return w.searchReader(ctx, c, f, countOnly, send)
	}
	// A FIFO whose writer goes quiet would block a read forever: the end
	// of ctx interrupts it (pipes are read through the poller).
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
	defer stop()
	if fi, err := f.Stat(); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		// A FIFO is a stream like standard input (`mkfifo p; tail -f log
		// > p`): searched for as long as its writer writes, with only a
		// line longer than SpecialFileCap ending it.
		return w.searchReader(ctx, c, f, countOnly, send)
	}
	return w.searchCapped(ctx, c, f, countOnly, send)
}

// searchCapped is searchReader over at most SpecialFileCap bytes of r (a
// device, a FIFO, a pseudo-file that reports no size); when r had more,
// the file is reported as cut.
func (w *worker) searchCapped(ctx context.Context, c candidate, r io.Reader, countOnly bool, send func(*FileResult) bool) fileOutcome {
	capped := &capReader{r: r, left: SpecialFileCap}
	out := w.searchReader(ctx, c, capped, countOnly, send)
	if capped.hit && out.skipped == nil {
		// Say so: what was read is searched and reported, the rest is not.
		out.skipped = &fs.PathError{Op: "read", Path: c.abs, Err: errSpecialCap{}}
	}
	return out
}

// errSpecialCap is the SkippedFile error of a named special file that had
// more than SpecialFileCap bytes to give. It wraps ErrTooLarge.
type errSpecialCap struct{}

func (errSpecialCap) Error() string {
	return fmt.Sprintf("not a regular file (or one that reports no size): only its first %d MiB were searched", SpecialFileCap>>20)
}

// Is makes the error match ErrTooLarge.
func (errSpecialCap) Is(target error) bool { return target == ErrTooLarge }

// capReader reads at most left bytes from r and records, in hit, that a
// read was asked for past them. It does not probe r for more (a FIFO could
// block): a file of exactly the cap counts as cut.
type capReader struct {
	r    io.Reader
	left int64
	hit  bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		c.hit = true
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// takeBlock returns the worker's block buffer (empty, room for a block
// and a quarter), made on first use: every large file of a search used to
// allocate its own, 1.25 MiB a file (1.3 GB over a sorted search of /).
func (w *worker) takeBlock() []byte {
	blockSize := w.opts.tuning.blockSize
	if cap(w.block) < blockSize+blockSize/4 {
		w.block = make([]byte, 0, blockSize+blockSize/4)
	}
	b := w.block[:0]
	w.block = nil
	return b
}

// putBlock gives buf back for the next large file, unless a long line
// grew it past keptBufferLimit (then the heap gets it back).
func (w *worker) putBlock(buf []byte) {
	blockSize := w.opts.tuning.blockSize
	if cap(buf) <= max(keptBufferLimit, blockSize+blockSize/4) {
		w.block = buf[:0]
	}
}

// searchReader is searchBlocks over any reader (a file, standard input).
func (w *worker) searchReader(ctx context.Context, c candidate, r io.Reader, countOnly bool, send func(*FileResult) bool) fileOutcome {
	o := w.opts
	blockSize := o.tuning.blockSize
	if o.Multiline || NeedsMultiline(o.Pattern) {
		// These need the whole text at once. A stream that may not end
		// (standard input, a FIFO, a device) is read up to SpecialFileCap.
		var capped *capReader
		if c.special {
			capped = &capReader{r: r, left: SpecialFileCap}
			r = capped
		}
		buf, err := readAll(r, nil)
		if err != nil {
			return fileOutcome{skipped: &fs.PathError{Op: "read", Path: c.abs, Err: err}}
		}
		out := w.searchBuf(c, buf, countOnly, send)
		if out.result != nil {
			send(out.result)
			out.result = nil
		}
		if capped != nil && capped.hit && out.skipped == nil {
			out.skipped = &fs.PathError{Op: "read", Path: c.abs, Err: errSpecialCap{}}
		}
		return out
	}
	aggregate := countOnly || o.Mode != ModeContent
	// Context lines: matches are built once their context is read (see
	// contextStream), and the lines they may still need are kept between
	// blocks: the first kept bytes of buf, already searched.
	var ctxs *contextStream
	if !aggregate && (o.ContextBefore > 0 || o.ContextAfter > 0) {
		ctxs = newContextStream(w, c.display)
	}
	kept := 0 // bytes at the start of the text in buf kept for context, already searched
	// toCount, once a NUL byte turns up after the first block of a file
	// searched as binary: where in data the lines to count only begin.
	toCount := -1
	shown := false // content results were sent for the text before a NUL
	bom := 0       // length of a UTF-8 byte-order mark dropped at the start
	total := &FileResult{Path: c.display}
	remaining := o.MaxCount // lines still wanted; 0 = no limit
	nul := -1
	// A stream nothing caps (standard input, a FIFO) holding a line that
	// never ends is searched up to SpecialFileCap of that line, then cut.
	_, capped := r.(*capReader)
	lb := newLineBuffer(w.takeBlock(), blockSize, c.special && !capped)
	defer func() { w.putBlock(lb.buf) }()
	var cut error
	for {
		if ctx.Err() != nil {
			return fileOutcome{}
		}
		first := lb.first
		eof, rerr := lb.fill(r)
		if rerr != nil {
			return fileOutcome{skipped: &fs.PathError{Op: "read", Path: c.abs, Err: rerr}}
		}
		data := lb.data()
		stop := eof
		if first {
			if len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF) {
				return w.searchRestWhole(c, r, lb.buf, countOnly, send)
			}
			bom = lb.dropBOM()
			data = lb.data()
			if i := bytes.IndexByte(data, 0); i >= 0 && !o.Text {
				if !w.searchesBinary(c) {
					return fileOutcome{binary: true}
				}
				nul, aggregate = i+bom, true
			}
		} else if nul < 0 && !o.Text {
			// Only what this read added: the rest was looked at before.
			if i := lb.newNUL(); i >= 0 {
				lineStart := bytes.LastIndexByte(data[:i], '\n') + 1
				switch {
				case !w.searchesBinary(c):
					// Binary data after text in a file found by the walk:
					// stop at the line before it (ripgrep's "quit").
					data = data[:lineStart]
					stop = true
				case aggregate:
					nul = bom + int(lb.byteBase) + i // counted on through the NUL
				default:
					// A named file (or --binary): as ripgrep without a
					// memory map, the text before the NUL line is shown,
					// the rest only counted, and a file with any match
					// ends with "binary file matches".
					nul = bom + int(lb.byteBase) + i
					toCount = lineStart
				}
			}
		}
		end := len(data)
		if toCount >= 0 {
			end = toCount
		} else if !stop {
			end = lb.lineEnd()
			switch {
			case end > 0:
			case lb.lineCap && len(data) >= SpecialFileCap:
				end, stop = len(data), true
				cut = &fs.PathError{Op: "read", Path: c.abs, Err: errLongLine{}}
			default:
				// No complete line yet: read more. A line is always
				// searched whole, as ripgrep does, so one line longer
				// than the buffer grows it.
				lb.scanned = len(data)
				continue
			}
		}
		region := data[:end]
		if ctxs != nil && !aggregate {
			drop, ok, err := ctxs.feed(region, kept, lb.lineBase, lb.byteBase, stop || toCount >= 0, func(fr *FileResult) bool {
				shown = true
				return send(fr)
			})
			switch {
			case err != nil:
				return engineFailure(c, err)
			case !ok:
				return fileOutcome{}
			}
			if stop || ctxs.done() {
				break
			}
			if toCount >= 0 {
				// Everything before the NUL line is shown: count the rest.
				drop, ctxs, aggregate, toCount = end, nil, true, -1
			}
			lb.roll(drop, end)
			kept = end - drop
			continue
		}
		if aggregate {
			limit := remaining
			if w.needs.FirstMatchEnough && o.Mode == ModeFilesWithMatches && nul < 0 && !o.Invert {
				limit = 1 // one match decides (below): no need to count the block
			}
			lines, count, err := w.countLimit(region, limit)
			if err != nil {
				return engineFailure(c, err)
			}
			total.Lines += lines
			total.Count += count
			if remaining > 0 {
				remaining -= lines
				stop = stop || remaining <= 0
			}
			if w.needs.FirstMatchEnough && o.Mode == ModeFilesWithMatches && total.Lines > 0 && nul < 0 {
				total.Lines, total.Count = 1, 1
				stop = true // reported now, whatever follows (a FIFO's writer may go on for ever)
			}
		} else {
			hits, err := w.findLimit(region, remaining)
			if err != nil {
				return engineFailure(c, err)
			}
			if k := len(hits.Lines); k > 0 {
				fr := &FileResult{Path: c.display, Lines: k, Count: len(hits.Spans)}
				if o.Invert {
					fr.Count = k
				}
				w.content(fr, region, hits, c.display, lb.lineBase, lb.byteBase, send)
				if !send(fr) {
					return fileOutcome{}
				}
				shown = true
				if remaining > 0 {
					remaining -= k
					stop = stop || remaining <= 0
				}
			}
		}
		if stop {
			break
		}
		if toCount >= 0 {
			aggregate, toCount = true, -1 // the lines from the NUL on are counted
		}
		lb.roll(end, end)
	}
	if total.Lines > 0 || nul >= 0 && shown {
		if nul >= 0 {
			total.Binary, total.NULOffset = true, nul
		}
		send(total)
	}
	return fileOutcome{skipped: cut}
}

// errLongLine is the SkippedFile error of a stream (standard input, a
// FIFO) with a line longer than SpecialFileCap: that much of the line was
// searched and the search of the stream stopped there. It wraps
// ErrTooLarge.
type errLongLine struct{}

func (errLongLine) Error() string {
	return fmt.Sprintf("a line longer than %d MiB: searched up to there, and the rest of the input was not read", SpecialFileCap>>20)
}

// Is makes the error match ErrTooLarge.
func (errLongLine) Is(target error) bool { return target == ErrTooLarge }

// readHead is the first read of a stream: what r has now, read again only
// while those bytes could still be the start of a byte-order mark (`EF`,
// `EF BB`, `FF`, `FE`). It used to wait for 4 bytes, which held back a
// first line such as "x\n" until more came or the stream ended.
func readHead(r io.Reader, p []byte) (int, error) {
	n := 0
	for {
		k, err := r.Read(p[n:])
		n += k
		if err != nil || n == len(p) || !startsBOM(p[:n]) {
			return n, err
		}
	}
}

// startsBOM reports whether b is a proper beginning of a UTF-8 or UTF-16
// byte-order mark (or empty).
func startsBOM(b []byte) bool {
	switch len(b) {
	case 0:
		return true
	case 1:
		return b[0] == 0xEF || b[0] == 0xFF || b[0] == 0xFE
	case 2:
		return b[0] == 0xEF && b[1] == 0xBB
	}
	return false
}

// hugeLineBuffer is the size from which a line buffer, once grown, has
// the garbage it leaves returned to the system at once.
const hugeLineBuffer = 64 << 20

// grownSize is the capacity for a block buffer holding n bytes of a line
// that did not fit in its capacity c: twice as much, or, when r is capped,
// as much as it can still deliver at once — doubling towards a cap holds
// both buffers at the end (a 64 MiB line of /dev/zero peaked at 190 MB).
// A regular file's remaining size bounds it the same way (a 256 MiB line
// doubled to 512 MiB). whole: everything r has is wanted (readAll), so a
// regular file's rest is taken in one allocation rather than by doubling.
// ok is false when r has nothing left to give and there is room for the
// end-of-file read.
func grownSize(r io.Reader, n, c int, whole bool) (size int, ok bool) {
	if capped, isCapped := r.(*capReader); isCapped {
		if capped.left <= int64(c-n) {
			return 0, false
		}
		return n + int(capped.left), true
	}
	left, known := leftIn(r)
	switch {
	case !known:
		return 2 * c, true
	case left < int64(c-n):
		return 0, false // room for the rest and the end-of-file read
	case whole:
		return n + int(left) + 1, true
	}
	return min(2*c, n+int(left)+1), true
}

// leftIn returns how many bytes r has left when it is a regular file: its
// size less the current offset. A file that grows meanwhile is still read
// to its end, by further growth.
func leftIn(r io.Reader) (int64, bool) {
	f, ok := r.(*os.File)
	if !ok {
		return 0, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil || at > fi.Size() {
		return 0, false
	}
	return fi.Size() - at, true
}

// readAll is io.ReadAll appending to head, growing as grownSize says: a
// capped reader's data ends in one buffer of at most the cap, not in a
// buffer grown past it while the last one is still held.
func readAll(r io.Reader, head []byte) ([]byte, error) {
	buf := head
	if cap(buf)-len(buf) < 512 {
		buf = append(make([]byte, 0, len(buf)+512<<10), buf...)
	}
	for {
		if len(buf) == cap(buf) {
			// A capped reader with nothing left is read into an empty
			// slice once more, which records that the cap was hit.
			if size, ok := grownSize(r, len(buf), cap(buf), true); ok {
				buf = append(make([]byte, 0, size), buf...)
			}
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// searchRestWhole reads the rest of r after head and searches everything
// at once (UTF-16 text, which is transcoded whole).
func (w *worker) searchRestWhole(c candidate, r io.Reader, head []byte, countOnly bool, send func(*FileResult) bool) fileOutcome {
	all, err := readAll(r, head)
	if err != nil {
		return fileOutcome{skipped: &fs.PathError{Op: "read", Path: c.abs, Err: err}}
	}
	out := w.searchBuf(c, all, countOnly, send)
	if out.result != nil {
		send(out.result)
		out.result = nil
	}
	return out
}

// tooLarge is the skip error of a file over the size limit.
func tooLarge(size, limit int64) error {
	return fmt.Errorf("%w: %d bytes, limit %d (raise or drop the limit: --max-filesize)", ErrTooLarge, size, limit)
}
