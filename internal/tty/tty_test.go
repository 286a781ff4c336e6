package tty

import (
	"os"
	"path/filepath"
	"testing"
)

// A regular file and a pipe are readable input and no terminal; /dev/null
// is neither.
func TestStreams(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "in"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, f := range []*os.File{file, r} {
		if !IsReadableInput(f) || IsTerminal(f) {
			t.Errorf("%s: readable %v, terminal %v; want readable, no terminal", f.Name(), IsReadableInput(f), IsTerminal(f))
		}
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if IsReadableInput(null) || IsTerminal(null) {
		t.Errorf("%s counts as readable input or a terminal", os.DevNull)
	}
}
