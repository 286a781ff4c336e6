//go:build unix

package tokens

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// With --estimate, a named pipe is counted exactly, whole: it is opened
// once. Opening it to see whether it could be sampled, then again to
// count it, lost what the writer had sent before the first close (and
// broke the writer's pipe, whenever the writer wrote before that close:
// a race, so the test runs it many times).
func TestEstimateCountsPipeOnce(t *testing.T) {
	dir := t.TempDir()
	line := "func main() { println(\"hello, world\") }\n"
	for i := range 50 {
		fifo := filepath.Join(dir, "pipe"+strconv.Itoa(i))
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no named pipes here:", err)
		}
		wrote := make(chan error, 1)
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				wrote <- err
				return
			}
			defer f.Close()
			for range 100 { // a write at once, then more
				if _, err := f.WriteString(line); err != nil {
					wrote <- err
					return
				}
			}
			wrote <- nil
		}()
		type result struct {
			r        Report
			warnings []string
			all      bool
		}
		done := make(chan result, 1)
		go func() {
			r, warnings, all := countInputs(t, []string{fifo}, InputOptions{Estimate: true})
			done <- result{r, warnings, all}
		}()
		var res result
		select {
		case res = <-done:
		case <-time.After(10 * time.Second):
			// Opened a second time after the writer had gone: a writer
			// opened without waiting releases it.
			if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			t.Fatalf("round %d: the count hung (the pipe opened twice)", i)
		}
		r, warnings, all := res.r, res.warnings, res.all
		if err := <-wrote; err != nil {
			t.Fatalf("round %d, the writer: %v", i, err)
		}
		if want := 100 * len(line); !all || len(warnings) != 0 || r.Bytes != want {
			t.Fatalf("round %d: counted %d of %d bytes (all %v, warnings %q)", i, r.Bytes, want, all, warnings)
		}
	}
}
