//go:build unix

package regularfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(file); err != nil || string(data) != "{}" {
		t.Errorf("regular file: %q, %v", data, err)
	}
	if data, err := ReadPrefix(file, 1); err != nil || string(data) != "{" {
		t.Errorf("first byte: %q, %v", data, err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	// Opening the pipe would block this test for ever.
	if _, err := Read(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("named pipe: %v", err)
	}
	// Swapped in after the first check: the open does not wait for a
	// writer, and the open file is refused.
	if _, _, err := openChecked(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("named pipe opened after the check: %v", err)
	}
	if _, err := ReadPrefix(fifo, 1); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("named pipe, a prefix: %v", err)
	}
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
