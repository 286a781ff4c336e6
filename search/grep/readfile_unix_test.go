//go:build unix

package grep

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadWholeDoesNotBlock reads a FIFO that has no writer: a blocking
// open would wait for one forever, so readWhole must answer at once (with
// no content) the way it must for pseudo-files such as /proc/kmsg.
func TestReadWholeDoesNotBlock(t *testing.T) {
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
