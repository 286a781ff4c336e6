package search

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/gopi-agent/gopi/core/hashline/linehash"
	"github.com/gopi-agent/gopi/core/tool"
)

// lineSource reads the lines of one file that a search showed cut, to
// anchor them with the hash of the whole line. A line is read from where
// the engine found it and hashed as it streams by (linehash): neither the
// file nor the line is held, so a file that is one 256 MiB line costs a
// buffer, not the 830 MB that reading it whole to split its lines took.
type lineSource struct {
	abs    string
	f      *os.File
	err    error // the open failed: no anchors from the file
	opened bool
	br     *bufio.Reader
	// skip is the length of the UTF-8 byte-order mark the engine dropped
	// before the text its offsets count in; offsets is false when they do
	// not count in the file's bytes at all (UTF-16 text, transcoded).
	skip    int64
	offsets bool
}

// lineBuffer is the read buffer of a lineSource.
const lineBuffer = 64 << 10

// open opens the file on first use and looks at its start.
func (s *lineSource) open() bool {
	if s.opened {
		return s.err == nil
	}
	s.opened = true
	if s.f, s.err = os.Open(s.abs); s.err != nil {
		return false
	}
	var head [3]byte
	n, _ := io.ReadFull(s.f, head[:])
	switch {
	case n == 3 && string(head[:]) == "\uFEFF":
		s.skip, s.offsets = 3, true
	case n >= 2 && (head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF):
	default:
		s.offsets = true
	}
	s.br = bufio.NewReaderSize(s.f, lineBuffer)
	return true
}

// close releases the file.
func (s *lineSource) close() {
	if s.f != nil {
		s.f.Close()
	}
}

// hash returns the hash of line n of the file as the read tool shows it,
// or false when the file has no line n (it changed, or cannot be read).
// The line is the one starting skipLines lines after byte offset of the
// text searched, when its start there is shown (shown, cut with "…"); in
// any other case line n is found by counting lines from the start.
func (s *lineSource) hash(n int, offset int64, skipLines int, shown string) (string, bool) {
	if !s.open() {
		return "", false
	}
	if s.offsets && offset >= 0 {
		prefix := strings.TrimSuffix(shown, tool.Ellipsis)
		if sum, ok := s.hashAt(s.skip+offset, skipLines, n, prefix); ok {
			return sum, true
		}
	}
	return s.hashAt(0, n-1, n, "")
}

// hashAt hashes the line that starts skipLines lines after byte pos of the
// file (line number n), if it exists and starts with prefix.
func (s *lineSource) hashAt(pos int64, skipLines, n int, prefix string) (string, bool) {
	if _, err := s.f.Seek(pos, io.SeekStart); err != nil {
		return "", false
	}
	s.br.Reset(s.f)
	for range skipLines {
		if !s.skipLine() {
			return "", false
		}
	}
	if _, err := s.br.Peek(1); err != nil {
		return "", false // the file ends before the line
	}
	if pos == 0 && skipLines == 0 {
		// The first line, counted from the start: without a byte-order mark.
		if head, _ := s.br.Peek(3); string(head) == "\uFEFF" {
			s.br.Discard(3)
		}
	}
	h := linehash.New(n)
	for {
		chunk, err := s.br.ReadSlice('\n')
		if len(prefix) > 0 {
			k := min(len(prefix), len(chunk))
			if string(chunk[:k]) != prefix[:k] {
				return "", false
			}
			prefix = prefix[k:]
		}
		h.Write(chunk)
		switch {
		case err == nil, errors.Is(err, io.EOF):
			if len(prefix) > 0 {
				return "", false // the line is shorter than what was shown
			}
			return h.Sum(), true
		case !errors.Is(err, bufio.ErrBufferFull):
			return "", false
		}
	}
}

// skipLine reads past the next '\n'; it reports false at the end of the
// file.
func (s *lineSource) skipLine() bool {
	for {
		_, err := s.br.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err == nil
		}
	}
}
