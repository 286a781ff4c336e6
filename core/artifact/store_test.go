package artifact

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestArtifactStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sess")
	s := NewStore(dir)
	if _, err := s.Read("artifact://0"); !errors.Is(err, ErrNoDir) {
		t.Fatalf("missing dir: %v", err)
	}
	id, err := s.Save("bash", "full output")
	if err != nil || id != "0" {
		t.Fatal(id, err)
	}
	id2, _ := s.Save("py thon/../x", "second")
	if id2 != "1" {
		t.Fatal(id2)
	}
	if txt, err := s.Read(URL("1")); err != nil || txt != "second" {
		t.Fatal(txt, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "1.py_thon_x.log")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read("7"); err == nil || err.Error() != "Artifact 7 not found. Available artifacts: 0, 1" {
		t.Fatal(err)
	}
	if _, err := s.Read("x"); err == nil || !strings.Contains(err.Error(), "artifact IDs are numbers") {
		t.Fatal(err)
	}
	// A resumed session continues numbering after what is on disk.
	os.WriteFile(filepath.Join(dir, "9.bash.log"), []byte("old"), 0o644)
	s2 := NewStore(dir)
	if id, _ := s2.Save("bash", "new"); id != "10" {
		t.Fatal(id)
	}
}
