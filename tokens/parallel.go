package tokens

import (
	"bytes"
	"context"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Workers bounds how many segments are counted at once, across every
// input of one CountInputs call; its zero value is not usable (see
// NewWorkers).
type Workers struct {
	slots chan struct{}
	bufs  *segmentBuffers // read buffers, shared by every input
}

// NewWorkers returns a bound of n segments at once (n < 1 is 1).
func NewWorkers(n int) *Workers {
	n = max(n, 1)
	// Each input counted at once holds a buffer being read besides its
	// segments being counted.
	return &Workers{slots: make(chan struct{}, n), bufs: newSegmentBuffers(2 * n)}
}

// segmentBlock is how much CountParallel reads before it hands the text
// read so far, up to its last safe cut, to a worker.
const segmentBlock = 1 << 20

// maxSegment bounds a segment: text this long without a safe cut (one
// endless line, binary data) is counted by one streaming CountReader
// instead, which keeps memory bounded.
const maxSegment = 16 << 20

// CountParallel is CountReader spread over w's workers: the text is cut
// into segments at places no piece of either encoding spans (see
// safeCut), each segment is counted by Count on a worker, and the counts
// add up to Count of the whole text. Memory stays at a few segments per
// worker. With one worker, or text without cuts, it counts as CountReader
// does.
func (e *Encoding) CountParallel(ctx context.Context, r io.Reader, w *Workers) (count int, size int64, err error) {
	return e.countParallel(ctx, r, w, segmentBlock, maxSegment)
}

func (e *Encoding) countParallel(ctx context.Context, r io.Reader, w *Workers, block, limit int) (int, int64, error) {
	if cap(w.slots) == 1 {
		return e.countReader(ctx, r, readBlock)
	}
	var total atomic.Int64
	var wg sync.WaitGroup
	defer wg.Wait()
	var size int64
	// A small file gets a buffer of its size: many small files are
	// counted without a block each.
	step := smallFileBlock(r, block)
	bufs := w.bufs
	buf := bufs.get(2 * step)
	for {
		if err := ctx.Err(); err != nil {
			return 0, size, err
		}
		var n int
		var eof bool
		var rerr error
		buf, n, eof, rerr = readMore(r, buf, step)
		size += int64(n)
		if rerr != nil {
			return 0, size, rerr
		}
		cut := len(buf)
		if !eof {
			cut = safeCut(buf)
		}
		if cut == 0 && len(buf) >= limit {
			// No safe cut in sight: the rest is one stream.
			wg.Wait()
			n, rest, err := e.countReader(ctx, io.MultiReader(bytes.NewReader(buf), &wholeReads{r: r, buf: make([]byte, step)}), readBlock)
			return int(total.Load()) + n, size - int64(len(buf)) + rest, err
		}
		if cut > 0 {
			select {
			case w.slots <- struct{}{}:
			case <-ctx.Done():
				return 0, size, ctx.Err()
			}
			// The segment is read in place: from here on buf belongs
			// to its counter, which hands it back when done, and the
			// text after the cut moves to a buffer of its own.
			seg := unsafe.String(unsafe.SliceData(buf), cut)
			if eof { // the last segment: counted here
				total.Add(int64(e.Count(seg)))
				<-w.slots
				bufs.put(buf)
				wg.Wait()
				return int(total.Load()), size, nil
			}
			next := append(bufs.get(len(buf)-cut+step), buf[cut:]...)
			wg.Add(1)
			go func(owned []byte) {
				defer wg.Done()
				defer func() { <-w.slots }()
				total.Add(int64(e.Count(seg)))
				bufs.put(owned)
			}(buf)
			buf = next
		}
		if eof {
			bufs.put(buf)
			wg.Wait()
			return int(total.Load()), size, nil
		}
	}
}

// segmentBuffers keeps the buffers of counted segments for the next
// reads, so a large input, or many small ones, is read into the same few
// buffers over and over (no fresh pages to fault in, no garbage to
// collect) instead of a new one per segment or file.
type segmentBuffers struct {
	free chan []byte
}

func newSegmentBuffers(workers int) *segmentBuffers {
	return &segmentBuffers{free: make(chan []byte, workers+1)}
}

// get returns an empty buffer of at least size bytes of capacity.
func (s *segmentBuffers) get(size int) []byte {
	select {
	case b := <-s.free:
		if cap(b) >= size {
			return b[:0]
		}
	default:
	}
	return make([]byte, 0, size)
}

// put offers a buffer nothing reads any more for reuse.
func (s *segmentBuffers) put(b []byte) {
	select {
	case s.free <- b:
	default:
	}
}

// wholeReads reads r only len(buf) bytes at a time, as the segmenting
// loop did before it: a pseudo-file such as /proc/self/pagemap refuses
// reads of other sizes, and the stream after it would otherwise ask for
// what is left of a block.
type wholeReads struct {
	r        io.Reader
	buf      []byte
	from, to int
	err      error
}

func (w *wholeReads) Read(p []byte) (int, error) {
	if w.from == w.to {
		if w.err != nil {
			return 0, w.err
		}
		w.from, w.to = 0, 0
		w.to, w.err = io.ReadFull(w.r, w.buf)
		if w.err == io.ErrUnexpectedEOF {
			w.err = io.EOF
		}
		if w.to == 0 {
			return 0, w.err
		}
	}
	n := copy(p, w.buf[w.from:w.to])
	w.from += n
	return n, nil
}

// smallFileBlock is how much to read at a time from r: block, or for a
// regular file smaller than that its size and one byte (to see its end),
// so that counting many small files does not allocate a block each.
func smallFileBlock(r io.Reader, block int) int {
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() < int64(block) {
			return int(info.Size()) + 1
		}
	}
	return block
}

// safeCut returns the last place in b where both encodings' split
// patterns always break, whatever comes before or after: just after a
// line feed and before an ASCII byte that is neither white space nor '/'.
// No piece runs across it: white space pieces end at the line feed or
// stop before a non-space, a punctuation piece takes only '\r', '\n' and
// '/' after its line feed, and a word's or number's optional leading
// character is never a line feed. Invalid UTF-8 is cut nowhere near it
// either (both neighbours are ASCII). 0 when there is none.
func safeCut(b []byte) int {
	for i := len(b) - 1; i > 0; i-- {
		if b[i-1] != '\n' {
			continue
		}
		switch c := b[i]; {
		case c >= 0x80, c == ' ', c == '\t', c == '\n', c == '\r', c == '\v', c == '\f', c == '/':
			continue
		}
		return i
	}
	return 0
}
