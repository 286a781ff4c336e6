package fscache

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRipgrepOracle compares the files of a walk, in order, with
// `rg --files --sort path` on a fixture mixing every kind of ignore file,
// a nested repository, hidden entries and sort-sensitive names.
func TestRipgrepOracle(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg not installed")
	}
	tmp := t.TempDir()
	t.Setenv("HOME", filepath.Join(tmp, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(tmp, "xdg"))
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	writeTree(t, tmp, map[string]string{
		"xdg/git/ignore": "*.glob\n",
	})
	root := filepath.Join(tmp, "repo")
	writeTree(t, root, map[string]string{
		".git/HEAD":                "",
		".git/info/exclude":        "*.ex\n",
		".gitignore":               "*.log\n!keep.log\nbuild/\n/only-top\n!.shown\n!x.ex\n",
		".ignore":                  "!b.log\n*.ig\n",
		".github/workflows/ci.yml": "",
		".shown":                   "",
		".hidden":                  "",
		"a.log":                    "", "b.log": "", "keep.log": "", "c.glob": "", "d.ex": "", "x.ex": "",
		"only-top": "", "sub/only-top": "", "sub/.gitignore": "!*.ig\n", "sub/y.ig": "",
		"build/out": "", "sub/build/out": "", "sub/build.txt": "",
		"a": "", "a.txt": "", "a-b": "", "B": "", "dir/a/b": "", "dir/a.txt": "", "dir/a0": "",
		"node_modules/m/i.js": "",
		"nested/.git/HEAD":    "", "nested/.gitignore": "*.tmp\n", "nested/x.log": "", "nested/y.tmp": "", "nested/z.ig": "",
	})
	if err := os.Symlink("a.txt", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		opts Options
	}{
		{nil, Options{Gitignore: true}},
		{[]string{"--hidden"}, Options{Gitignore: true, Hidden: true}},
		{[]string{"--no-ignore"}, Options{}},
		{[]string{"--no-ignore", "--hidden"}, Options{Hidden: true}},
	} {
		cmd := exec.Command(rg, append([]string{"--files", "--sort", "path", "--no-config"}, tc.args...)...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rg %v: %v", tc.args, err)
		}
		var want []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l != "" && !strings.HasPrefix(l, ".git/") && !strings.Contains(l, "/.git/") {
				want = append(want, l)
			}
		}
		es, err := walkTree(context.Background(), root, tc.opts, false, testExcludes())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range es {
			if e.Type == TypeFile {
				got = append(got, e.Path)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("rg %v:\n walk: %q\n   rg: %q", tc.args, got, want)
		}
	}
}
