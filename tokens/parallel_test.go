package tokens

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parallelTexts are the corpus files and texts that stress the cuts: runs
// that never break, white space and punctuation around line feeds,
// invalid UTF-8 and CRLF lines.
func parallelTexts(t testing.TB) map[string]string {
	texts := map[string]string{
		"run":     strings.Repeat("a", 300000),
		"lines":   strings.Repeat("x\n/y\n\tz\n w\n's\n(a)\n1234\n}\n", 3000),
		"crlf":    strings.Repeat("line one\r\nTwo\r\n", 2000),
		"invalid": strings.Repeat("é\xff\n😀\xe2\x82\nA\xe2\n", 1000),
		"puncts":  strings.Repeat(";\n/\n//x\n!!\n?\n", 2000),
		"spaces":  "x" + strings.Repeat(" ", 5000) + "\n\n\n" + strings.Repeat("\n", 3000) + "z\n  \nk",
	}
	paths, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("corpus missing: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(p)] = string(data)
	}
	return texts
}

// Counting in segments on several workers, with blocks small enough that
// every kind of line start is a cut, gives Count of the whole text, for
// both encodings; text without cuts longer than the segment limit is
// streamed and counts the same.
func TestCountParallelMatchesCount(t *testing.T) {
	t.Parallel()
	w := NewWorkers(4)
	for _, name := range Names() {
		e := mustGet(t, name)
		for label, text := range parallelTexts(t) {
			want := e.Count(text)
			for _, sz := range [][2]int{{16, 64}, {256, 4096}, {4096, 8192}, {segmentBlock, maxSegment}} {
				got, size, err := e.countParallel(context.Background(), strings.NewReader(text), w, sz[0], sz[1])
				if err != nil || got != want || size != int64(len(text)) {
					t.Fatalf("%s %s block %d: %d tokens, %d bytes, %v; want %d, %d", name, label, sz[0], got, size, err, want, len(text))
				}
			}
		}
	}
}

// Every place safeCut may choose is a piece boundary of both encodings:
// the text's two sides count to the whole's count.
func FuzzSafeCut(f *testing.F) {
	for _, s := range []string{"a\nb", ";\n/x", "  \n\tx\ny", "x\n's", "é\xff\nA", "1\n23\n4567", "a\r\nB", "!\n!", "\n\n\nz", "'\nre"} {
		f.Add(s)
	}
	encs := map[string]*Encoding{}
	for _, name := range Names() {
		encs[name] = mustGet(f, name)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		for end := len(b); end > 0; {
			cut := safeCut(b[:end])
			if cut == 0 {
				break
			}
			for name, e := range encs {
				if e.Count(s[:cut])+e.Count(s[cut:]) != e.Count(s) {
					t.Fatalf("%s: cut at %d of %q", name, cut, s)
				}
			}
			end = cut - 1
		}
	})
}

// eightReader refuses reads whose size is not a multiple of 8, as
// /proc/self/pagemap does.
type eightReader struct{ r io.Reader }

func (e eightReader) Read(p []byte) (int, error) {
	if len(p)%8 != 0 {
		return 0, errors.New("invalid argument")
	}
	return e.r.Read(p)
}

// After a cut leaves text of any length behind, and no further cut comes
// within the segment limit, the rest is still read whole blocks at a time.
func TestCountParallelKeepsReadSizes(t *testing.T) {
	text := "on\ntwo\nthree" + strings.Repeat("z", 5012) // a cut at 7; 5024 bytes: whole 8-byte reads to the end
	e := mustGet(t, O200kBase)
	got, size, err := e.countParallel(context.Background(), eightReader{strings.NewReader(text)}, NewWorkers(2), 64, 256)
	if err != nil || got != e.Count(text) || size != int64(len(text)) {
		t.Fatalf("%d tokens, %d bytes, %v; want %d, %d", got, size, err, e.Count(text), len(text))
	}
}
