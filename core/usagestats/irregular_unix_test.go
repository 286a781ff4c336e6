//go:build unix

package usagestats

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// A named pipe named like a session file is skipped, not opened (that
// would wait for a writer forever), and it and a dangling symbolic link
// are counted as unreadable and named with the reason.
func TestScanSkipsIrregularFiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "--p--")
	os.MkdirAll(dir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "a.jsonl"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	os.Symlink("nowhere", filepath.Join(dir, "b.jsonl"))
	r, err := Scan(context.Background(), Options{Dirs: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	want := []UnreadableFile{
		{Path: filepath.Join(dir, "a.jsonl"), Reason: "not a regular file: a named pipe"},
		{Path: filepath.Join(dir, "b.jsonl"), Reason: "a symbolic link to a missing file"},
	}
	if r.Unreadable != 2 || !reflect.DeepEqual(r.UnreadableFiles, want) {
		t.Fatalf("unreadable %d %+v, want %+v", r.Unreadable, r.UnreadableFiles, want)
	}
	// gopi stats --json names them too, with the reason.
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Files []struct{ Path, Reason string } `json:"unreadableFiles"`
	}
	if err := json.Unmarshal(b, &out); err != nil || len(out.Files) != 2 || out.Files[1].Reason != want[1].Reason || out.Files[0].Path != want[0].Path {
		t.Fatalf("the JSON report names %+v (%v), want %+v:\n%s", out.Files, err, want, b)
	}
}
