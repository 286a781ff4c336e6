package search

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// TestLargeFileBounded searches a directory holding a 64 MiB file with the
// tool's context lines and its content cache on: the file is searched a
// block at a time, never held whole (a 1 GiB file took 3.2 GB), and the
// results are those of a small file.
func TestLargeFileBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB file")
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.go"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	const size = 64 << 20
	for n := 0; n < size; {
		k, _ := fmt.Fprintf(w, "\tx := compute(%d) // a line of Go source, not a match\n", n)
		n += k
	}
	fmt.Fprintln(w, "needle at the end")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	env := tool.NewEnv(dir)
	env.Settings.SearchContextBefore, env.Settings.SearchContextAfter = 1, 3
	for _, pattern := range []string{"zzzqqq", "needle"} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := tool.Run(context.Background(), New(env), json.RawMessage(`{"pattern":"`+pattern+`","paths":["."]}`), nil)
		runtime.ReadMemStats(&after)
		if err != nil || res.IsError {
			t.Fatal(res.FirstText(), err)
		}
		text := res.FirstText()
		switch pattern {
		case "zzzqqq":
			if text != "No matches found" {
				t.Fatalf("%s: %q", pattern, text)
			}
		default:
			if !strings.HasPrefix(text, "# big.go\n ") || !strings.HasSuffix(text, "|needle at the end") {
				t.Fatalf("%s: %q", pattern, text)
			}
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d KiB allocated", pattern, alloc>>10)
		if alloc > 16<<20 {
			t.Errorf("searching a %d MiB file for %s allocated %d MiB", size>>20, pattern, alloc>>20)
		}
	}
}
