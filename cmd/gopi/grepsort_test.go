package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// --sort/--sortr by modification time order the files of every path
// argument together (not directory by directory), stably, in either
// direction; --files and -c follow the same order.
func TestGrepSortByTime(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	hours := map[string]int{"z.txt": 1, "sub/deep/a.txt": 2, "b.txt": 5, "sub/m.txt": 3, "other/o.txt": 4}
	// Access times in another order, long ago: reading a file moves its
	// access time to now (relatime), so the sort must take them first.
	accessHours := map[string]int{"z.txt": 3, "sub/deep/a.txt": 5, "b.txt": 1, "sub/m.txt": 2, "other/o.txt": 4}
	for name := range hours {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("foo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Set before every run: each search reads the files.
	setTimes := func() {
		for name, h := range hours {
			mt := base.Add(time.Duration(h) * time.Hour)
			at := base.Add(time.Duration(accessHours[name]) * time.Hour)
			if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(name)), at, mt); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Chdir(dir)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-l", "--sort", "modified", "foo"}, "z.txt sub/deep/a.txt sub/m.txt other/o.txt b.txt"},
		{[]string{"-l", "--sortr", "modified", "foo"}, "b.txt other/o.txt sub/m.txt sub/deep/a.txt z.txt"},
		{[]string{"--files", "--sortr=modified"}, "b.txt other/o.txt sub/m.txt sub/deep/a.txt z.txt"},
		{[]string{"-c", "--sort", "modified", "foo", "sub", "z.txt", "b.txt"}, "z.txt:1 sub/deep/a.txt:1 sub/m.txt:1 b.txt:1"},
		{[]string{"-l", "--sortr", "path", "foo"}, "z.txt sub/m.txt sub/deep/a.txt other/o.txt b.txt"},
		{[]string{"-l", "--sortr", "modified", "--sort", "path", "foo"}, "b.txt other/o.txt sub/deep/a.txt sub/m.txt z.txt"},
		{[]string{"-l", "--sort", "none", "foo"}, "b.txt other/o.txt sub/deep/a.txt sub/m.txt z.txt"},
		{[]string{"-n", "--sort", "accessed", "foo"}, "b.txt:1:foo sub/m.txt:1:foo z.txt:1:foo other/o.txt:1:foo sub/deep/a.txt:1:foo"},
		{[]string{"-l", "--sortr", "accessed", "foo"}, "sub/deep/a.txt other/o.txt z.txt sub/m.txt b.txt"},
	}
	for _, tc := range cases {
		setTimes()
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
		code := run(context.Background(), env, append([]string{"grep"}, tc.args...))
		got := strings.Join(strings.Fields(stdout.String()), " ")
		if code != 0 || got != tc.want {
			t.Errorf("gopi grep %q: exit %d, got %q, want %q (stderr %q)", tc.args, code, got, tc.want, stderr.String())
		}
	}
	// Creation times: every file is listed once, whatever the file system
	// records.
	for _, key := range []string{"created"} {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
		if code := run(context.Background(), env, []string{"grep", "-l", "--sort", key, "foo"}); code != 0 || len(strings.Fields(stdout.String())) != len(hours) {
			t.Errorf("--sort %s: exit %d, %q (stderr %q)", key, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
	if code := run(context.Background(), env, []string{"grep", "--sort", "size", "foo"}); code != 2 || !strings.Contains(stderr.String(), "path, modified, accessed, created or none") {
		t.Errorf("--sort size: exit %d, stderr %q", code, stderr.String())
	}
}
