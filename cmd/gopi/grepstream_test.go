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
