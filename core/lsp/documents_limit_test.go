package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// readDocument refuses what a language server should not be sent: a FIFO
// (which would block), a directory, a file over MaxDocument.
func TestReadDocumentRefusesWhatIsNotASourceFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	big := filepath.Join(dir, "big.go")
	if err := os.WriteFile(big, make([]byte, MaxDocument+1), 0o644); err != nil {
		t.Fatal(err)
	}
	fine := filepath.Join(dir, "fine.go")
	os.WriteFile(fine, []byte("package x\n"), 0o644)
	for path, want := range map[string]string{fifo: "not a regular file", dir: "not a regular file", big: "too large", filepath.Join(dir, "none.go"): "File not found"} {
		if _, err := ReadDocument(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", path, err, want)
		}
	}
	if data, err := ReadDocument(fine); err != nil || string(data) != "package x\n" {
		t.Errorf("fine.go: %q, %v", data, err)
	}
}
