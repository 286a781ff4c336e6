package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/search/grep"
)

// closingWriter takes limit bytes and then fails every write, as a pipe
// whose reader went away does.
type closingWriter struct {
	n, limit int
}

func (w *closingWriter) Write(p []byte) (int, error) {
	if w.n >= w.limit {
		return 0, errors.New("reader went away")
	}
	w.n += len(p)
	return len(p), nil
}

// One line with many matches under --vimgrep prints the whole line once per
// match: 20,000 matches of a 20,000-byte line are 400 MB of output. It
// must reach the reader as it is made, and stop being made when the
// reader goes away after 1 MB. Before the output of a file was handed on
// in parts, all 400 MB were formatted in one buffer first.
func TestGrepHugeOutputOfOneLineIsStreamed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "line.txt")
	if err := os.WriteFile(file, []byte(strings.Repeat("a", 20000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{{"--vimgrep", "--color=always"}, {"--vimgrep"}} {
		w := &closingWriter{limit: 1 << 20}
		var stderr bytes.Buffer
		env := &cliEnv{stdout: w, stderr: &stderr, environ: isolatedEnviron(t)}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code := run(context.Background(), env, append(append([]string{"grep"}, flags...), "a", file))
		t.Logf("%v: exit %d, %d bytes, stderr %q", flags, code, w.n, stderr.String())
		runtime.ReadMemStats(&after)
		if w.n < 1<<20 {
			t.Errorf("%v: %d bytes reached the reader", flags, w.n)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%v: %d MB allocated for 1 MB read: the output was not streamed", flags, alloc>>20)
		}
	}
}

// One long output line is handed on in pieces of at most textChunk bytes
// of text, with and without colours, and the pieces make the same line.
func TestLongLineSpilledInPieces(t *testing.T) {
	text := strings.Repeat("ab", 600_000) // 1.2 MB
	spans := []grep.Span{{Start: 1, End: 2}, {Start: 700_001, End: 900_000}}
	for _, colors := range []palette{{}, {path: "P", line: "L", match: "M", reset: "R", column: "C"}} {
		f := &lineFormat{colors: colors, withPath: true, lineNums: true, column: true}
		want := appendLine(nil, f, "p", 3, ':', 2, 0, text, spans)
		var got []byte
		largest := 0
		spill := func(dst []byte) ([]byte, bool) {
			largest = max(largest, len(dst))
			got = append(got, dst...)
			return dst[:0], true
		}
		rest, ok := appendLineSpilled(nil, f, "p", 3, ':', 2, 0, text, spans, spill)
		got = append(got, rest...)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("colors %+v: pieces make %d bytes, the line is %d", colors, len(got), len(want))
		}
		if largest > textChunk+64 {
			t.Errorf("colors %+v: a piece of %d bytes", colors, largest)
		}
	}
}
