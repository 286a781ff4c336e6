package job

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeTree writes files (slash-separated names) under a new directory
// and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runJob runs o with stdin and returns what it printed and its status.
func runJob(t *testing.T, o Options, stdin string) (stdout, stderr string, code int, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := Streams{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(stdin), StdinReadable: stdin != ""}
	code, err = Run(context.Background(), o, s)
	return out.String(), errOut.String(), code, err
}

// A run prints what its options ask for, in path order, and returns the
// status as grep does; none of it needs the CLI.
func TestRun(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"a.txt":     "foo\nbar\nFoo\n",
		"sub/b.txt": "foo foo\n",
		"sub/c.go":  "nothing\n",
	})
	a, sub := filepath.Join(dir, "a.txt"), filepath.Join(dir, "sub")
	slash := filepath.ToSlash
	cases := []struct {
		name string
		o    Options
		want string
		code int
	}{
		{"one file: no path", Options{Patterns: []string{"foo"}, Paths: []string{a}, LineNumbers: true}, "1:foo\n", StatusMatch},
		{"smart case", Options{Patterns: []string{"foo"}, Case: CaseSmart, Paths: []string{a}}, "foo\nFoo\n", StatusMatch},
		{"two paths", Options{Patterns: []string{"foo"}, Paths: []string{a, sub}, LineNumbers: true},
			slash(a) + ":1:foo\n" + slash(sub) + "/b.txt:1:foo foo\n", StatusMatch},
		{"-c", Options{Patterns: []string{"foo"}, Paths: []string{sub}, Count: true}, slash(sub) + "/b.txt:1\n", StatusMatch},
		{"--count-matches", Options{Patterns: []string{"foo"}, Paths: []string{sub}, Count: true, CountMatches: true}, slash(sub) + "/b.txt:2\n", StatusMatch},
		{"-l -v", Options{Patterns: []string{"foo"}, Paths: []string{sub}, FilesWithMatches: true, Invert: true}, slash(sub) + "/c.go\n", StatusMatch},
		{"--files -t", Options{ListFiles: true, Paths: []string{sub}, Types: []string{"go"}}, slash(sub) + "/c.go\n", StatusMatch},
		{"-x -H", Options{Patterns: []string{"fo"}, Line: true, Paths: []string{a}, WithFilename: true}, "", StatusNoMatch},
		{"-o -0", Options{Patterns: []string{"o+"}, Paths: []string{a}, OnlyMatching: true, WithFilename: true, Null: true},
			slash(a) + "\x00oo\n" + slash(a) + "\x00oo\n", StatusMatch},
		{"-q", Options{Patterns: []string{"foo"}, Paths: []string{a}, Quiet: true}, "", StatusMatch},
		{"no match", Options{Patterns: []string{"zzz"}, Paths: []string{dir}}, "", StatusNoMatch},
	}
	for _, tc := range cases {
		out, errOut, code, err := runJob(t, tc.o, "")
		if err != nil || out != tc.want || code != tc.code || errOut != "" {
			t.Errorf("%s: status %d, err %v, stdout %q, stderr %q; want status %d, stdout %q", tc.name, code, err, out, errOut, tc.code, tc.want)
		}
	}
}

// Standard input is searched when no path is given and it holds input,
// or when "-" names it; its results are named <stdin> among other paths.
func TestRunStdin(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.txt": "foo\n"})
	out, _, code, err := runJob(t, Options{Patterns: []string{"foo"}, LineNumbers: true}, "x\nfoo\n")
	if err != nil || code != StatusMatch || out != "2:foo\n" {
		t.Errorf("implicit stdin: status %d, err %v, %q", code, err, out)
	}
	a := filepath.Join(dir, "a.txt")
	out, _, code, err = runJob(t, Options{Patterns: []string{"foo"}, Paths: []string{StdinPath, a}, Count: true}, "foo\n")
	if want := "<stdin>:1\n" + filepath.ToSlash(a) + ":1\n"; err != nil || code != StatusMatch || out != want {
		t.Errorf("stdin and a file: status %d, err %v, %q, want %q", code, err, out, want)
	}
	out, _, code, err = runJob(t, Options{Patterns: []string{"foo"}, Paths: []string{StdinPath}, Timeout: time.Minute}, "foo\n")
	if err != nil || code != StatusMatch || out != "foo\n" {
		t.Errorf("stdin with a timeout: status %d, err %v, %q", code, err, out)
	}
}

// A path that cannot be searched is named on stderr and the run goes on
// with the others; the status is then an error, whatever matched.
func TestRunMissingPath(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.txt": "foo\n"})
	missing := filepath.Join(dir, "nope")
	out, errOut, code, err := runJob(t, Options{Patterns: []string{"foo"}, Paths: []string{missing, dir}}, "")
	if err != nil || code != StatusError || out != filepath.ToSlash(dir)+"/a.txt:foo\n" {
		t.Errorf("status %d, err %v, stdout %q", code, err, out)
	}
	if want := "gopi grep: " + missing + ": No such file or directory\n"; errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
}

// A pattern that does not compile fails the run before anything is
// printed.
func TestRunBadPattern(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.txt": "foo\n"})
	out, _, code, err := runJob(t, Options{Patterns: []string{`\p{Nope}`}, Paths: []string{dir}}, "")
	if err == nil || code != StatusError || out != "" {
		t.Errorf("status %d, err %v, stdout %q", code, err, out)
	}
}

// --stats adds the totals on stderr; -l then still counts every match.
func TestRunStats(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.txt": "foo\nfoo\n", "b.txt": "bar\n"})
	_, errOut, code, err := runJob(t, Options{Patterns: []string{"foo"}, Paths: []string{dir}, FilesWithMatches: true, Stats: true}, "")
	if want := "2 matching lines in 1 files; 2 files searched, 0 binary skipped, 0 unreadable\n"; err != nil || code != StatusMatch || errOut != want {
		t.Errorf("status %d, err %v, stderr %q, want %q", code, err, errOut, want)
	}
}
