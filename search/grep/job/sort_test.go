package job

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/search/grep/printer"
)

// Sorted by modification time, the files of every path argument are
// ordered together, in either direction; by path in reverse, the results
// are held and printed at the end.
func TestRunSorted(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"x/a.txt": "foo\n", "x/b.txt": "foo\n", "y/c.txt": "foo\n"})
	base := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, h := range map[string]int{"x/a.txt": 3, "x/b.txt": 1, "y/c.txt": 2} {
		mt := base.Add(time.Duration(h) * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(name)), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	x, y := filepath.Join(dir, "x"), filepath.Join(dir, "y")
	rel := func(out string) string {
		return strings.ReplaceAll(out, filepath.ToSlash(dir)+"/", "")
	}
	cases := []struct {
		name string
		o    Options
		want string
	}{
		{"modified", Options{FilesWithMatches: true, Sort: printer.Order{Key: "modified"}}, "x/b.txt\ny/c.txt\nx/a.txt\n"},
		{"modified, reversed", Options{FilesWithMatches: true, Sort: printer.Order{Key: "modified", Reverse: true}}, "x/a.txt\ny/c.txt\nx/b.txt\n"},
		{"path, reversed", Options{Count: true, Sort: printer.Order{Key: "path", Reverse: true}}, "y/c.txt:1\nx/b.txt:1\nx/a.txt:1\n"},
		{"--files, modified", Options{ListFiles: true, Sort: printer.Order{Key: "modified"}}, "x/b.txt\ny/c.txt\nx/a.txt\n"},
	}
	for _, tc := range cases {
		tc.o.Patterns, tc.o.Paths = []string{"foo"}, []string{x, y}
		out, errOut, code, err := runJob(t, tc.o, "")
		if err != nil || code != StatusMatch || rel(out) != tc.want {
			t.Errorf("%s: status %d, err %v, stdout %q (stderr %q), want %q", tc.name, code, err, rel(out), errOut, tc.want)
		}
	}
}
