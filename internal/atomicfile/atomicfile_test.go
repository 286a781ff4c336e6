package atomicfile

import (
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
