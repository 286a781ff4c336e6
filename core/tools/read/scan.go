package read

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/hashline/linehash"
	"github.com/gopi-agent/gopi/core/tool"
)

// chunkSize is the read buffer: files are streamed, never loaded whole.
const chunkSize = 8 * 1024

// window is the slice of a text that a read shows.
type window struct {
	lines     []string // shown lines, without terminators or a trailing '\r'; the head of a long line
	first     int      // number of lines[0]
	total     int      // lines in the whole text: one more than its '\n's ("a\n" has two, "" one)
	byteLimit bool     // collection stopped at the byte budget
	lineLimit bool     // collection stopped at the line limit
	// long: the lines of lines (by index) longer than longLine, of which
	// only the first longHead bytes are kept.
	long map[int]longInfo
}

// longInfo is what a window knows of a line it keeps only the head of.
type longInfo struct {
	size int    // the whole line's length in bytes (no terminator, '\r' or byte-order mark)
	hash string // its hashline hash, computed as it was read
}

// Long lines: a line of more than longLine bytes is shown cut to
// tool.DefaultMaxColumn characters (see render), so it is not held: its
// first longHead bytes are kept, which hold those characters whatever
// they are, and the rest is hashed as it streams by (linehash). A file
// that is one line of 256 MiB used to cost 1.2 GB to show 1024 characters.
const (
	longLine = tool.DefaultMaxBytes
	longHead = 8 << 10
)

// isCut reports whether render shows a line of size bytes cut.
func isCut(size int) bool { return size > tool.DefaultMaxBytes-64 }

// ref returns the reference of the i-th line of w in mode.
func (w *window) ref(mode tool.DisplayMode, i int) string {
	n := w.first + i
	if l, ok := w.long[i]; ok {
		if mode == tool.DisplayHashline {
			return hashline.Ref{Line: n, Hash: l.hash}.String()
		}
		return mode.LineRef(n, "") // the text matters to hashline anchors only
	}
	return mode.LineRef(n, w.lines[i])
}

// size returns the length of the i-th line of w.
func (w *window) size(i int) int {
	if l, ok := w.long[i]; ok {
		return l.size
	}
	return len(w.lines[i])
}

// longLineReader assembles a line read in pieces, keeping all of it up to
// longLine bytes and only its head and hash past that.
type longLineReader struct {
	buf  []byte
	size int            // bytes of the line so far
	hash *linehash.Hash // set once the line is over longLine
	end  [2]byte        // the last two bytes seen
}

// add appends a piece of line number line.
func (l *longLineReader) add(line int, p []byte) {
	if len(p) == 0 {
		return
	}
	l.size += len(p)
	if len(p) >= 2 {
		l.end = [2]byte{p[len(p)-2], p[len(p)-1]}
	} else {
		l.end = [2]byte{l.end[1], p[0]}
	}
	if l.hash != nil {
		l.hash.Write(p)
		return
	}
	l.buf = append(l.buf, p...)
	if len(l.buf) <= longLine {
		return
	}
	text := l.buf
	if line == 1 {
		text = bytes.TrimPrefix(text, []byte("\uFEFF"))
	}
	l.hash = linehash.New(line)
	l.hash.Write(text)
	l.buf = l.buf[:longHead]
}

// info describes the whole line, number line, once it is read: its
// length as the window counts it (without the terminator, a '\r' before it
// or a byte-order mark) and its hash.
func (l *longLineReader) info(line int) *longInfo {
	size := l.size
	if l.end[1] == '\n' {
		size--
	}
	if l.end[1] == '\r' || l.end[1] == '\n' && l.end[0] == '\r' {
		size--
	}
	if line == 1 && bytes.HasPrefix(l.buf, []byte("\uFEFF")) {
		size -= len("\uFEFF")
	}
	return &longInfo{size: size, hash: l.hash.Sum()}
}

// reset forgets the line.
func (l *longLineReader) reset() {
	*l = longLineReader{buf: l.buf[:0]}
	if cap(l.buf) > longLine+chunkSize {
		l.buf = nil
	}
}

// last returns the number of the last shown line (first-1 when none).
func (w *window) last() int { return w.first + len(w.lines) - 1 }

// scanWindow streams r and collects up to maxLines lines from line from
// on, while their bytes stay within budget (the first line is always taken
// whole), and counts every line of the text. As in omp, a text has one
// line more than it has '\n's: the empty line after a final '\n' (and the
// one line of an empty text) is a line, shown and anchored like any other,
// so anchors taken from omp sessions hold. A UTF-8 byte order mark before
// line 1 is dropped.
func scanWindow(r io.Reader, from, maxLines, budget int) (*window, error) {
	br := bufio.NewReaderSize(r, chunkSize)
	w := &window{first: from}
	used := 0
	var long longLineReader // a line longer than the buffer, being assembled
	pending := false        // long holds the start of a line
	line := 0
	for {
		if !pending && len(w.lines) >= maxLines {
			// The window is full and the last line taken ended with a
			// '\n', so another line follows (at the end of the text, the
			// empty one): count the rest without reading it in.
			w.lineLimit = true
			return w, w.countRest(br, line, nil)
		}
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if line+1 >= from {
				long.add(line+1, chunk)
			}
			pending = true
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read: %w", err)
		}
		pending = false
		line++
		if line >= from {
			var text []byte
			var info *longInfo
			if long.size > 0 {
				long.add(line, chunk)
				if long.hash != nil {
					info = long.info(line)
				}
				text = long.buf
			} else {
				text = chunk
			}
			if info == nil {
				text = bytes.TrimSuffix(text, []byte{'\n'})
				text = bytes.TrimSuffix(text, []byte{'\r'})
			}
			if line == 1 {
				text = bytes.TrimPrefix(text, []byte("\uFEFF"))
			}
			size := len(text)
			if info != nil {
				size = info.size
			}
			// A line that will be shown cut costs what is shown of it: a
			// long line right after a line of leading context used to end
			// the window before itself, and the "Use :N to continue" hint
			// then led back to the same window.
			cost := size
			if isCut(size) {
				cost = min(size, tool.DefaultMaxColumn*utf8.UTFMax)
			}
			if len(w.lines) > 0 && used+cost+1 > budget {
				w.byteLimit = true
				return w, w.countRest(br, line, err)
			}
			used += cost + 1
			if info != nil {
				if w.long == nil {
					w.long = map[int]longInfo{}
				}
				w.long[len(w.lines)] = *info
			}
			w.lines = append(w.lines, string(text))
			long.reset()
		}
		if err != nil { // io.EOF after a final line without '\n'
			break
		}
	}
	w.total = line
	return w, nil
}

// countRest finishes the line count: line lines are known, the reader is
// positioned after the last of them (or at EOF when lastErr is io.EOF).
func (w *window) countRest(br *bufio.Reader, line int, lastErr error) error {
	if lastErr != nil {
		w.total = line
		return nil
	}
	buf := make([]byte, chunkSize)
	for {
		n, err := br.Read(buf)
		if n > 0 {
			line += bytes.Count(buf[:n], []byte{'\n'})
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
	}
	w.total = line + 1 // the line after the last '\n', empty or not
	return nil
}
