package agentsession

import (
	"os"
	"path/filepath"
	"testing"
)

// A session kept in memory (--no-session) removes its scratch directory
// when it closes; nothing else could ever read it again.
func TestMemorySessionScratchRemovedOnClose(t *testing.T) {
	f := newFixture(t)
	s, err := f.tryOpen(Options{Cwd: f.project, NoSession: true, NoTitle: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := s.Tools().Env().LocalDir()
	if dir == "" || dir != s.Tools().Env().LocalFallback {
		t.Fatalf("scratch directory %q is not the in-memory fallback", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "PLAN.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("scratch directory %s left behind: %v", dir, err)
	}
}
