package find

import (
	"path/filepath"
	"testing"
)

// fdBase and joinClean join without cleaning each path again: the same paths as
// cleaning the joined path, "./" kept for the current directory.
func TestFdPathMatchesCleanJoin(t *testing.T) {
	for _, arg := range []string{"", ".", "./", "a", "a/", "./a/../b", "/", "/x/", "a//b", "../up", ".."} {
		for _, rel := range []string{"x", "x/y", ".hidden/z"} {
			want := filepath.ToSlash(filepath.Join(arg, rel))
			switch {
			case arg == "":
				want = rel
			case filepath.Clean(arg) == ".":
				want = "./" + rel
			}
			if got := joinClean(fdBase(arg), rel); got != want {
				t.Errorf("path of %q under %q = %q, want %q", arg, rel, got, want)
			}
		}
	}
}
