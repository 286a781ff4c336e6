package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileKeepsModeAndLeavesNoTemp(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.sh")
	if err := os.WriteFile(p, []byte("old"), 0o751); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	b, _ := os.ReadFile(p)
	if fi.Mode().Perm() != 0o751 || string(b) != "new" {
		t.Fatal(fi.Mode(), string(b))
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatal("temporary file left behind")
	}
}

func TestWriteFileNewFileGetsPerm(t *testing.T) {
	p := filepath.Join(t.TempDir(), "new.yml")
	if err := WriteFile(p, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatal(fi, err)
	}
}

func TestWriteFileMissingDir(t *testing.T) {
	p := filepath.Join(t.TempDir(), "no", "such", "f")
	if err := WriteFile(p, []byte("x"), 0o644); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}

func TestWriteStreamsAndFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, 0o644, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want it to wrap the writer's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("a failed write changed the file: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	if err := Write(path, 0o644, func(w io.Writer) error {
		for range 3 {
			io.WriteString(w, "chunk")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "chunkchunkchunk" || fi.Mode().Perm() != 0o640 {
		t.Errorf("content %q mode %v", b, fi.Mode().Perm())
	}
}
