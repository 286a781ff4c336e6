//go:build unix

package fscache

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestWalkOtherTypesAndUnreadable(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"locked/secret": "", "open/f": ""})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Chmod(filepath.Join(root, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(root, "locked"), 0o755) })
	es := walkAll(t, root, Options{})
	want := []string{"fifo", "locked", "open", "open/f"}
	if os.Geteuid() == 0 {
		want = []string{"fifo", "locked", "locked/secret", "open", "open/f"} // root reads anything
	}
	if !slices.Equal(paths(es), want) {
		t.Errorf("got %q, want %q", paths(es), want)
	}
	if es[0].Type != TypeOther {
		t.Errorf("fifo type %d", es[0].Type)
	}
	if denied := es[1].Denied; denied != (os.Geteuid() != 0) {
		t.Errorf("locked: Denied %v", denied)
	}
	var streamed []Entry
	if err := WalkStream(context.Background(), root, Options{}, false, func(e Entry) error {
		streamed = append(streamed, e)
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(streamed, es) {
		t.Errorf("streamed %v, walked %v", streamed, es)
	}
}

// With Follow, links to files and directories are walked as what they
// point at, a link loop is listed but not entered twice, and a dangling
// link stays a link.
func TestWalkFollow(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"real/f.txt": "hello", "other/g.txt": "hi"})
	for link, target := range map[string]string{
		"real/tofile": "f.txt", "todir": "other", "real/loop": "..", "dangling": "missing",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, stream := range []bool{false, true} {
		var got []Entry
		if stream {
			if err := WalkStream(context.Background(), root, Options{Follow: true}, false, func(e Entry) error {
				got = append(got, e)
				return nil
			}, nil); err != nil {
				t.Fatal(err)
			}
		} else {
			got = walkAll(t, root, Options{Follow: true})
		}
		kinds := map[string]EntryType{}
		for _, e := range got {
			kinds[e.Path] = e.Type
			if e.Path == "real/tofile" && e.Size != 5 {
				t.Errorf("followed file link has size %d, want its target's 5", e.Size)
			}
		}
		want := map[string]EntryType{
			"dangling": TypeSymlink, "other": TypeDir, "other/g.txt": TypeFile,
			"real": TypeDir, "real/f.txt": TypeFile, "real/tofile": TypeFile, "real/loop": 0,
			"todir": TypeDir, "todir/g.txt": TypeFile,
		}
		for p, k := range want {
			if kinds[p] != k {
				t.Errorf("stream=%v: %s is %v, want %v (all: %v)", stream, p, kinds[p], k, paths(got))
			}
		}
		// real/loop points at the root, an ancestor: left out.
		for p := range kinds {
			if strings.HasPrefix(p, "real/loop") {
				t.Fatalf("stream=%v: walked into the loop: %s", stream, p)
			}
		}
	}
	// Without Follow the links stay links.
	for _, e := range walkAll(t, root, Options{}) {
		if e.Path == "todir" && e.Type != TypeSymlink {
			t.Errorf("todir is %v without Follow", e.Type)
		}
	}
}
