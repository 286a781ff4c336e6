package lsp

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The tool reads a file's lines (symbol columns, context lines) as the
// client reads documents: a FIFO named like a source file is refused at
// once instead of blocking the call.
func TestToolReadsOnlyRegularFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := position(fifo, 1, nil); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("position on a FIFO: %v", err)
	}
	if l := (sources{}).lines(fifo); l != nil {
		t.Fatalf("context lines of a FIFO: %q", l)
	}
}
