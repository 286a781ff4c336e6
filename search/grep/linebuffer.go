package grep

import (
	"bytes"
	"io"
	"runtime/debug"
)

// lineBuffer is the buffer of the block reader (searchReader): the text
// read from a stream and not yet consumed, searched a run of complete
// lines at a time. After a roll its start holds what the search keeps of
// the text before (the lines a context search may still show, already
// searched), then what the next read adds. A line longer than the buffer
// grows it: a line is always searched whole, as ripgrep does.
type lineBuffer struct {
	buf       []byte
	blockSize int   // how much a read asks for (the buffer is grown when less than half is free)
	skip      int   // a UTF-8 byte-order mark at the start of buf, not yet consumed
	scanned   int   // bytes at the start of data() already seen to hold no newline (and no NUL)
	lineBase  int   // lines of the text before data()
	byteBase  int64 // offset of data() in the text searched (after a byte-order mark)
	first     bool  // nothing was read yet
	// lineCap: a stream nothing caps (standard input, a FIFO), whose line
	// may never end: a very long line grows the buffer straight to
	// SpecialFileCap rather than by doubling.
	lineCap bool
}

// newLineBuffer returns a buffer reading blockSize bytes at a time into
// buf (empty, with room for a block).
func newLineBuffer(buf []byte, blockSize int, lineCap bool) lineBuffer {
	return lineBuffer{buf: buf[:0], blockSize: blockSize, first: true, lineCap: lineCap}
}

// fill reads what r has now, not a full block: a pipe that delivers a
// line at a time (`tail -f log | gopi grep x`) gets each line searched
// and reported as it comes. The first read waits for more only while what
// came could begin a byte-order mark. eof reports the end of r; err is
// any other read error.
func (b *lineBuffer) fill(r io.Reader) (eof bool, err error) {
	if room := cap(b.buf) - len(b.buf); room < b.blockSize/2 {
		if size, ok := grownSize(r, len(b.buf), cap(b.buf), false); ok {
			// A line longer than the buffer: grow it.
			if b.lineCap && size > SpecialFileCap/8 {
				// Long enough to be a line that never ends: straight to
				// the cap, not through buffers held until a GC.
				size = SpecialFileCap + b.blockSize
			}
			b.buf = append(make([]byte, 0, size), b.buf...)
			if size >= hugeLineBuffer {
				// The buffers this line outgrew are garbage the size
				// of the line: give them back before reading more
				// (a 256 MiB line peaked at 633 MB, 2.5 times its size).
				debug.FreeOSMemory()
			}
		}
	}
	var n int
	if b.first {
		b.first = false
		n, err = readHead(r, b.buf[len(b.buf):cap(b.buf)])
	} else {
		n, err = r.Read(b.buf[len(b.buf):cap(b.buf)])
	}
	b.buf = b.buf[:len(b.buf)+n]
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return true, nil
	}
	return false, err
}

// data is the text not consumed yet: the kept lines, then what was read
// since.
func (b *lineBuffer) data() []byte { return b.buf[b.skip:] }

// dropBOM leaves out a UTF-8 byte-order mark at the start of the text
// (call it after the first fill) and returns its length (0: none).
func (b *lineBuffer) dropBOM() int {
	if bytes.HasPrefix(b.buf, utf8BOM) {
		b.skip = len(utf8BOM)
	}
	return b.skip
}

// newNUL returns the offset in data() of the first NUL byte in what the
// reads since the last roll or scan added, or -1.
func (b *lineBuffer) newNUL() int {
	if i := bytes.IndexByte(b.data()[b.scanned:], 0); i >= 0 {
		return b.scanned + i
	}
	return -1
}

// lineEnd returns the length of the complete lines at the start of
// data() (0: no line is complete yet); only the bytes past scanned are
// looked at.
func (b *lineBuffer) lineEnd() int {
	data := b.data()
	if end := bytes.LastIndexByte(data[b.scanned:], '\n') + 1; end > 0 {
		return b.scanned + end
	}
	return 0
}

// roll consumes the first drop bytes of data(), which were searched up to
// end: the lines in them are counted into lineBase and byteBase, the rest
// (end-drop bytes, kept for context) moves to the start of the buffer,
// marked as scanned.
func (b *lineBuffer) roll(drop, end int) {
	data := b.data()
	b.lineBase += bytes.Count(data[:drop], []byte{'\n'})
	b.byteBase += int64(drop)
	consumed := b.skip + drop
	b.skip, b.scanned = 0, end-drop
	b.buf = b.buf[:copy(b.buf, b.buf[consumed:])]
}
