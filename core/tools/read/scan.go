package read

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// chunkSize is the read buffer: files are streamed, never loaded whole.
const chunkSize = 8 * 1024

// window is the slice of a text that a read shows.
type window struct {
	lines     []string // shown lines, without terminators or a trailing '\r'
	first     int      // number of lines[0]
	total     int      // lines in the whole text ("a\n" has one)
	byteLimit bool     // collection stopped at the byte budget
	lineLimit bool     // collection stopped at the line limit
}

// last returns the number of the last shown line (first-1 when none).
func (w *window) last() int { return w.first + len(w.lines) - 1 }

// scanWindow streams r and collects up to maxLines lines from line from
// on, while their bytes stay within budget (the first line is always taken
// whole), and counts every line of the text. A UTF-8 byte order mark
// before line 1 is dropped.
func scanWindow(r io.Reader, from, maxLines, budget int) (*window, error) {
	br := bufio.NewReaderSize(r, chunkSize)
	w := &window{first: from}
	used := 0
	var long []byte // a line longer than the buffer, being assembled
	line := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if line+1 >= from {
				long = append(long, chunk...)
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read: %w", err)
		}
		if len(chunk) == 0 && len(long) == 0 { // EOF right after a '\n' (or an empty text)
			break
		}
		line++
		if line >= from {
			text := chunk
			if long != nil {
				text = append(long, chunk...)
				long = nil
			}
			text = bytes.TrimSuffix(text, []byte{'\n'})
			text = bytes.TrimSuffix(text, []byte{'\r'})
			if line == 1 {
				text = bytes.TrimPrefix(text, []byte("\uFEFF"))
			}
			if len(w.lines) >= maxLines {
				w.lineLimit = true
				return w, w.countRest(br, line, err)
			}
			if len(w.lines) > 0 && used+len(text)+1 > budget {
				w.byteLimit = true
				return w, w.countRest(br, line, err)
			}
			used += len(text) + 1
			w.lines = append(w.lines, string(text))
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
	var tail byte = '\n'
	for {
		n, err := br.Read(buf)
		if n > 0 {
			line += bytes.Count(buf[:n], []byte{'\n'})
			tail = buf[n-1]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
	}
	if tail != '\n' {
		line++
	}
	w.total = line
	return nil
}
