package tool

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// lineSearch bounds how far the cut points look for a line boundary: the
// head ends after the last newline within the chunk that fills it, the
// tail starts after the first newline within its first lineSearch bytes.
const lineSearch = 64 << 10

// cappedFile writes a stream to an artifact file that holds at most about
// max bytes of it. Up to max everything is kept. Past it the file keeps
// the stream's first half (the head, written as it comes) and its last
// half (the tail, written round a window of its own in a hidden file
// beside it, so that neither memory nor disk grows with the stream), and
// close puts a line between them saying how many bytes and lines were
// dropped. max 0 keeps everything.
type cappedFile struct {
	f       *os.File
	max     int64 // 0: no cap
	headMax int64 // max / 2
	tailMax int64 // the window's size, what the head left of max (set when the head is full)

	head      int64 // bytes in f
	headLines int64 // newlines in them
	headEnd   byte  // the last of them
	headDone  bool  // the head is full: the rest goes to the window

	ring    *os.File // the tail window
	ringPos int64    // where the next byte goes in it
	ringLen int64    // bytes in it (at most tailMax)
	ringIn  int64    // bytes sent to it
	err     error    // the first write error; later writes are dropped
}

// newCappedFile writes to f, capped at max bytes (0: no cap).
func newCappedFile(f *os.File, max int64) *cappedFile {
	return &cappedFile{f: f, max: max, headMax: max / 2}
}

// write appends p.
func (c *cappedFile) write(p []byte) {
	if c.err != nil || len(p) == 0 {
		return
	}
	if !c.headDone {
		keep := len(p)
		if c.max > 0 && c.head+int64(len(p)) > c.headMax {
			keep = headCut(p, int(c.headMax-c.head))
			c.headDone = true
		}
		if keep > 0 {
			n, err := c.f.Write(p[:keep])
			c.head += int64(n)
			c.headLines += int64(bytes.Count(p[:n], []byte{'\n'}))
			if n > 0 {
				c.headEnd = p[n-1]
			}
			if err != nil {
				c.err = err
				return
			}
		}
		p = p[keep:]
		if c.headDone {
			c.tailMax = c.max - c.head // a head cut short at a line leaves more to the tail
		}
		if len(p) == 0 {
			return
		}
	}
	c.toWindow(p)
}

// headCut returns where the head ends in p when k more bytes fit: after
// the last newline among them, else at the last character boundary.
func headCut(p []byte, k int) int {
	if i := bytes.LastIndexByte(p[:k], '\n'); i >= 0 {
		return i + 1
	}
	for k > 0 && k < len(p) && !utf8.RuneStart(p[k]) {
		k--
	}
	return k
}

// toWindow writes p round the tail window.
func (c *cappedFile) toWindow(p []byte) {
	if c.ring == nil {
		f, err := os.CreateTemp(filepath.Dir(c.f.Name()), ".tail-*")
		if err != nil {
			c.err = err
			return
		}
		// Unlinked at once where the system allows it: a crash leaves
		// nothing behind (close removes it elsewhere).
		_ = os.Remove(f.Name())
		c.ring = f
	}
	c.ringIn += int64(len(p))
	if int64(len(p)) >= c.tailMax {
		p = p[int64(len(p))-c.tailMax:]
		c.ringPos = 0
	}
	for len(p) > 0 {
		n := min(int64(len(p)), c.tailMax-c.ringPos)
		if _, err := c.ring.WriteAt(p[:n], c.ringPos); err != nil {
			c.err = err
			return
		}
		c.ringPos = (c.ringPos + n) % c.tailMax
		c.ringLen = min(c.ringLen+n, c.tailMax)
		p = p[n:]
	}
}

// close writes the tail after the head (with the line saying what was
// dropped in between, when something was), closes the file and returns
// the bytes and lines dropped; totalLines is the stream's newline count.
func (c *cappedFile) close(totalLines int64) (droppedBytes, droppedLines int64, err error) {
	if c.ring != nil {
		droppedBytes, droppedLines = c.appendTail(totalLines)
		c.ring.Close()
		_ = os.Remove(c.ring.Name())
	}
	if cerr := c.f.Close(); c.err == nil {
		c.err = cerr
	}
	if c.err != nil {
		return 0, 0, c.err
	}
	return droppedBytes, droppedLines, nil
}

// appendTail copies the window, oldest byte first, after the head.
func (c *cappedFile) appendTail(totalLines int64) (droppedBytes, droppedLines int64) {
	if c.err != nil {
		return 0, 0
	}
	start := int64(0)
	if c.ringIn > c.tailMax {
		start = c.ringPos // full: the oldest byte is the next to be overwritten
	}
	window := func() *bufio.Reader {
		return bufio.NewReaderSize(io.MultiReader(io.NewSectionReader(c.ring, start, c.ringLen-start), io.NewSectionReader(c.ring, 0, start)), lineSearch)
	}
	dropped := c.ringIn - c.ringLen
	var skip int
	if dropped > 0 {
		// Start at a line: after the first newline near the start, else at
		// a character boundary.
		peek, _ := window().Peek(int(min(c.ringLen, lineSearch)))
		if i := bytes.IndexByte(peek, '\n'); i >= 0 && i+1 < len(peek) {
			skip = i + 1
		} else {
			for skip < len(peek)-1 && !utf8.RuneStart(peek[skip]) {
				skip++
			}
		}
		dropped += int64(skip)
		r := window()
		_, _ = r.Discard(skip)
		tailLines, err := countLines(r)
		if err != nil {
			c.err = err
			return 0, 0
		}
		droppedLines = totalLines - c.headLines - tailLines
		what := fmt.Sprintf("%d bytes (%d lines)", dropped, droppedLines)
		if droppedLines == 0 {
			what = fmt.Sprintf("%d bytes, all within one line,", dropped)
		}
		note := fmt.Sprintf("[%s of output dropped here: past the artifact cap of %s only the first %s and the last %s are kept]\n",
			what, FormatSize(c.max), FormatSize(c.head), FormatSize(c.ringLen-int64(skip)))
		if c.head > 0 && c.headEnd != '\n' {
			note = "\n" + note
		}
		if _, err := io.WriteString(c.f, note); err != nil {
			c.err = err
			return 0, 0
		}
	}
	r := window()
	_, _ = r.Discard(skip)
	if _, err := io.Copy(c.f, r); err != nil {
		c.err = err
		return 0, 0
	}
	return dropped, droppedLines
}

// countLines counts the newlines r holds.
func countLines(r io.Reader) (int64, error) {
	var n int64
	buf := make([]byte, 64<<10)
	for {
		k, err := r.Read(buf)
		n += int64(bytes.Count(buf[:k], []byte{'\n'}))
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
