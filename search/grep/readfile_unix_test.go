//go:build unix

package grep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/native/rure"
)

// TestReadWholeDoesNotBlock reads a FIFO that has no writer: a blocking
// open would wait for one forever, so readWhole must answer at once (with
// no content) the way it must for pseudo-files such as /proc/kmsg.
func TestReadWholeDoesNotBlock(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		data, err := readWhole(path, 0, nil)
		if err == nil && len(data) != 0 {
			t.Errorf("read %q from an empty FIFO", data)
		}
		done <- err
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("readWhole blocked on a FIFO without a writer")
	}
}

// A FIFO named as the path is read (as a special file, in blocks) until
// its writer closes it.
func TestSearchNamedFIFO(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteString("foo\nbar\nfoo bar\n")
			f.Close()
		}
		done <- err
	}()
	res, err := Search(context.Background(), DefaultOptions("foo", p))
	if werr := <-done; werr != nil {
		t.Fatal(werr)
	}
	if err != nil || res.TotalMatches != 2 {
		t.Fatalf("res %+v err %v", res, err)
	}
}

// A named FIFO is a stream like standard input: searched to its end, past
// SpecialFileCap (it used to be cut there, like a device).
func TestSearchNamedFIFOPastTheCap(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	chunk := []byte(strings.Repeat("foo bar baz qux\n", 1<<16)) // 1 MiB, 65,536 lines
	chunks := SpecialFileCap>>20 + 8
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		for i := 0; err == nil && i < chunks; i++ {
			_, err = f.Write(chunk)
		}
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	o := DefaultOptions("baz", p)
	o.Mode = ModeCount
	res, err := Search(context.Background(), o)
	if werr := <-done; werr != nil {
		t.Fatal(werr)
	}
	if err != nil || res.TotalMatches != chunks<<16 || len(res.Skipped) != 0 {
		t.Fatalf("%d matching lines of %d, skipped %+v, err %v", res.TotalMatches, chunks<<16, res.Skipped, err)
	}
}

// A multiline search reads a regular file whole, as ripgrep does without a
// memory map, into one buffer of the file's size: it used to double its way
// there, allocating about twice the file (a 1 GiB file peaked at 3.2 GB).
func TestSearchMultilineReadsRegularFileOnce(t *testing.T) {
	const size = 48 << 20
	dir := writeTree(t, map[string]string{"big.txt": strings.Repeat("abcdefghijklmno\n", size/16)})
	o := DefaultOptions(`zzz\nyyy`, filepath.Join(dir, "big.txt"))
	o.Mode = ModeCount
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Search(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size+size/4 {
		t.Fatalf("allocated %d MiB to search a %d MiB file", alloc>>20, size>>20)
	}
}

// A named device that never ends (/dev/zero) is read up to SpecialFileCap
// and then reported as cut, not searched silently in part.
func TestSearchNamedDeviceSaysItWasCut(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	o := DefaultOptions("x", "/dev/zero")
	o.Text = true
	res, err := Search(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || !errors.Is(res.Skipped[0].Err, ErrTooLarge) || !strings.Contains(res.Skipped[0].Err.Error(), "64 MiB") {
		t.Fatalf("skipped %+v; want /dev/zero reported as cut at 64 MiB", res.Skipped)
	}
}

// A line that never ends in a named device grows the buffer once to the
// cap, not by doubling past it while the last buffer is still held (a
// 64 MiB line of /dev/zero peaked at 190 MB, 205 MB with -U), whatever the
// mode: lines by blocks, counts, multiline and context (read whole).
func TestSearchNamedDeviceAllocatesOneCap(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, tc := range []struct {
		name string
		set  func(*Options)
	}{
		{"content", func(*Options) {}},
		{"count", func(o *Options) { o.Mode = ModeCount }},
		{"multiline", func(o *Options) { o.Multiline = true }},
		{"context", func(o *Options) { o.ContextAfter = 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions("x", "/dev/zero")
			o.Text = true
			tc.set(&o)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if _, err := Search(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			if grown := int64(after.TotalAlloc - before.TotalAlloc); grown > SpecialFileCap+SpecialFileCap/4 {
				t.Fatalf("allocated %d MiB for a cap of %d MiB", grown>>20, SpecialFileCap>>20)
			}
		})
	}
}

// A named file that reports size 0 but never ends (/proc/self/pagemap) is
// read like a device, in blocks and up to SpecialFileCap, not whole.
func TestSearchNamedEndlessPseudoFile(t *testing.T) {
	const p = "/proc/self/pagemap"
	if _, err := os.Stat(p); err != nil {
		t.Skip("no " + p)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o := DefaultOptions("x", p)
	o.Text = true
	if _, err := Search(ctx, o); ctx.Err() != nil {
		t.Fatalf("still reading %s after a minute (err %v)", p, err)
	}
	runtime.ReadMemStats(&after)
	// One buffer of the cap, and the text of a matching line as long.
	if grown := int64(after.TotalAlloc - before.TotalAlloc); grown > 2*SpecialFileCap+SpecialFileCap/2 {
		t.Fatalf("allocated %d MiB reading %s", grown>>20, p)
	}
}

// A search's timeout also ends the wait for a FIFO's writer and for a
// writer that opened the FIFO and went quiet.
func TestSearchFIFOHonoursTimeout(t *testing.T) {
	t.Parallel()
	for _, withWriter := range []bool{false, true} {
		p := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		if withWriter {
			go func() {
				// Opens (unblocking the reader's open) and never writes.
				f, err := os.OpenFile(p, os.O_WRONLY, 0)
				if err == nil {
					time.Sleep(30 * time.Second)
					f.Close()
				}
			}()
		}
		o := DefaultOptions("x", p)
		o.Timeout = 200 * time.Millisecond
		start := time.Now()
		_, err := Search(context.Background(), o)
		if took := time.Since(start); took > 10*time.Second {
			t.Fatalf("writer %v: took %v", withWriter, took)
		}
		if err == nil || !strings.Contains(err.Error(), "timed out") && !strings.Contains(err.Error(), "timeout") {
			t.Errorf("writer %v: err %v, want the timeout", withWriter, err)
		}
	}
}

// The files of a search read in blocks share their worker's block buffer:
// each used to allocate its own (1.25 MiB a file at the default sizes,
// 1.3 GB of garbage over a sorted search of /).
func TestSearchBlocksReuseTheWorkersBuffer(t *testing.T) {
	if !rure.Available {
		t.Skip("Go's regexp engine (no cgo) allocates per line searched: the bound is for the read buffers")
	}
	const n = 64
	files := map[string]string{}
	text := strings.Repeat("abcdefghijklmno\n", (128<<10)/16)
	for i := range n {
		files[fmt.Sprintf("f%02d.txt", i)] = text
	}
	root := writeTree(t, files)
	o := withBlocks(DefaultOptions("zzz", root), 64<<10, 64<<10)
	o.Mode = ModeCount
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if res := search(t, o); res.FilesSearched != n {
		t.Fatalf("%d files searched, want %d", res.FilesSearched, n)
	}
	runtime.ReadMemStats(&after)
	perFile := uint64(o.tuning.blockSize + o.tuning.blockSize/4)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > n*perFile/4 {
		t.Fatalf("allocated %d KiB to search %d files in blocks; a buffer each would be %d KiB", alloc>>10, n, n*perFile>>10)
	}
}
