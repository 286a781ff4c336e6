//go:build unix

package plugins

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A registry, catalog or manifest that is a FIFO (a download can hold
// one) is refused at once: opening it waited for a writer for ever,
// holding the lock, or a session's start in that project.
func TestFIFOFilesRefused(t *testing.T) {
	m := newManager(t)
	ctx := context.Background()
	reg := ProjectInstalledFile(m.ProjectDir)
	mk := t.TempDir()
	for _, f := range []string{reg, filepath.Join(mk, filepath.FromSlash(CatalogPath))} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(f, 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, errs := Roots(m.sources(), nil); len(errs) != 1 || !strings.Contains(errs[0].Error(), "not a regular file") {
			t.Errorf("project registry: %v", errs)
		}
		if _, err := m.AddMarketplace(ctx, mk); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("catalog: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("reading a FIFO hung")
	}
}
