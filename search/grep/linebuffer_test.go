package grep

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// drainLines drains r through a lineBuffer of blockSize bytes the way the
// block reader does, keeping keep lines of each run for the next (context
// retention), and returns each line with the number and offset the buffer
// gives it.
func drainLines(t *testing.T, r io.Reader, blockSize, keep int) []string {
	t.Helper()
	lb := newLineBuffer(make([]byte, 0, blockSize+blockSize/4), blockSize, false)
	var out []string
	seen := 0 // lines reported so far: kept lines come round again
	for range 100_000 {
		first := lb.first
		eof, err := lb.fill(r)
		if err != nil {
			t.Fatal(err)
		}
		if first {
			lb.dropBOM()
		}
		end := len(lb.data())
		if !eof {
			if end = lb.lineEnd(); end == 0 {
				lb.scanned = len(lb.data())
				continue
			}
		}
		region := lb.data()[:end]
		line, at := lb.lineBase, lb.byteBase
		var starts []int
		for i := 0; i < len(region); {
			n := bytes.IndexByte(region[i:], '\n')
			if n < 0 {
				n = len(region) - i
			} else {
				n++
			}
			if line >= seen {
				out = append(out, strings.Join([]string{strconv.Itoa(line + 1), strconv.Itoa(int(at)), string(region[i : i+n])}, ":"))
				seen = line + 1
			}
			starts = append(starts, i)
			line, at, i = line+1, at+int64(n), i+n
		}
		if eof {
			return out
		}
		// Keep the last keep lines (already searched), as a context
		// search keeps what the next match may show before it.
		drop := end
		if keep > 0 && len(starts) > 0 {
			drop = starts[max(len(starts)-keep, 0)]
		}
		lb.roll(drop, end)
		if lb.scanned != end-drop {
			t.Fatalf("scanned %d after a roll keeping %d bytes", lb.scanned, end-drop)
		}
	}
	t.Fatal("no end of input")
	return nil
}

// wholeLines is what drainLines must give for text: every line once, in
// order, with its number and offset.
func wholeLines(text string) []string {
	var out []string
	at := 0
	for i, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		out = append(out, strings.Join([]string{strconv.Itoa(i + 1), strconv.Itoa(at), l}, ":"))
		at += len(l)
	}
	return out
}

func TestLineBuffer(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 300)
	for _, tc := range []struct {
		name, text string
	}{
		{"short lines", "a\nbb\nccc\n"},
		{"no final newline", "a\nbb\nccc"},
		{"lines cross blocks", strings.Repeat("0123456789abcdef\n", 40)},
		{"a line longer than the buffer", "a\n" + long + "\nb\n" + long + long},
		{"CRLF stays in the line", "a\r\nb\r\n\r\nc"},
		{"empty", ""},
		{"only newlines", "\n\n\n"},
	} {
		for _, block := range []int{16, 64, 1 << 10} {
			for _, keep := range []int{0, 1, 3} {
				for _, oneByte := range []bool{false, true} {
					var r io.Reader = strings.NewReader(tc.text)
					if oneByte {
						r = iotest.OneByteReader(r) // a pipe that delivers a byte at a time
					}
					got := drainLines(t, r, block, keep)
					if want := wholeLines(tc.text); strings.Join(got, "|") != strings.Join(want, "|") {
						t.Errorf("%s, block %d, keep %d, one byte %v:\n got %q\nwant %q", tc.name, block, keep, oneByte, got, want)
					}
				}
			}
		}
	}
}

// A UTF-8 byte-order mark is left out of the text: offsets count from
// after it, and the first read waits for all of it even from a pipe that
// delivers a byte at a time.
func TestLineBufferDropsBOM(t *testing.T) {
	t.Parallel()
	got := drainLines(t, iotest.OneByteReader(strings.NewReader("\xef\xbb\xbfab\ncd\n")), 16, 0)
	if want := []string{"1:0:ab\n", "2:3:cd\n"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
	lb := newLineBuffer(make([]byte, 0, 32), 16, false)
	if _, err := lb.fill(strings.NewReader("\xef\xbbX")); err != nil {
		t.Fatal(err)
	}
	if n := lb.dropBOM(); n != 0 || string(lb.data()) != "\xef\xbbX" {
		t.Fatalf("not a mark: dropped %d, data %q", n, lb.data())
	}
}

// newNUL looks only at what was read since the last scan or roll: binary
// detection after the first block does not go over the text again.
func TestLineBufferNewNUL(t *testing.T) {
	t.Parallel()
	lb := newLineBuffer(make([]byte, 0, 64), 64, false)
	r := io.MultiReader(strings.NewReader("ab\ncd"), strings.NewReader("ef\x00g\n"))
	if _, err := lb.fill(r); err != nil {
		t.Fatal(err)
	}
	if i := lb.newNUL(); i != -1 {
		t.Fatalf("NUL at %d in %q", i, lb.data())
	}
	end := lb.lineEnd()
	if end != 3 {
		t.Fatalf("complete lines end at %d, want 3", end)
	}
	lb.roll(end, end)
	lb.scanned = len(lb.data()) // "cd": seen, no newline yet
	if _, err := lb.fill(r); err != nil {
		t.Fatal(err)
	}
	if i := lb.newNUL(); i != 4 || string(lb.data()) != "cdef\x00g\n" {
		t.Fatalf("NUL at %d in %q, want 4", i, lb.data())
	}
	if lb.lineBase != 1 || lb.byteBase != 3 {
		t.Fatalf("after the roll: line base %d, byte base %d; want 1, 3", lb.lineBase, lb.byteBase)
	}
}

// A line longer than what is free grows the buffer, keeping what it held.
func TestLineBufferGrowsForALongLine(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("y", 1000) + "\n"
	lb := newLineBuffer(make([]byte, 0, 20), 16, false)
	r := strings.NewReader(text)
	for lb.lineEnd() == 0 {
		lb.scanned = len(lb.data())
		eof, err := lb.fill(r)
		if err != nil || eof {
			t.Fatalf("eof %v, err %v before the line's end", eof, err)
		}
	}
	if string(lb.data()) != text || cap(lb.buf) < len(text) {
		t.Fatalf("%d bytes held in a buffer of %d, want the %d-byte line", len(lb.data()), cap(lb.buf), len(text))
	}
}
