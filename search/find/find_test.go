package find

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// findTree is the tree the tests of Run search.
var findTree = map[string]string{
	".gitignore":    "gen/\n",
	"a.go":          "package a\n",
	"sub/b.go":      "",
	"sub/c.TXT":     "hello world\n",
	"sub/deep/d.md": "# d\n",
	"gen/e.go":      "",
	".hid/f.go":     "",
	"big.bin":       strings.Repeat("x", 5000),
}

// writeTree writes files (slash-separated names) under a new directory,
// with a .git directory, and returns it.
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
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runFind runs o and returns what it printed, its status and error.
func runFind(t *testing.T, o Options) (stdout, stderr string, code int, err error) {
	t.Helper()
	f, err := New(o)
	if err != nil {
		t.Fatalf("New(%+v): %v", o, err)
	}
	var out, errOut bytes.Buffer
	code, err = f.Run(context.Background(), Streams{Stdout: &out, Stderr: &errOut})
	return out.String(), errOut.String(), code, err
}

// Run lists what its options ask for, as fd would, without the CLI.
func TestRun(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, findTree)
	d := filepath.ToSlash(dir)
	cases := []struct {
		name string
		o    Options
		want string // paths below dir, space-separated
	}{
		{"glob at any depth", Options{Pattern: "*.go", Gitignore: true}, "a.go sub/b.go"},
		{"hidden, no ignore", Options{Pattern: "*.go", Hidden: true}, ".hid/f.go a.go gen/e.go sub/b.go"},
		{"smart case", Options{Pattern: "*.txt", Gitignore: true}, "sub/c.TXT"},
		{"case sensitive", Options{Pattern: "*.TXT", Gitignore: true}, "sub/c.TXT"},
		{"-s", Options{Pattern: "*.txt", CaseSensitive: true, Gitignore: true}, ""},
		{"regex", Options{Pattern: `^[bc]\.`, Regex: true, Gitignore: true}, "sub/b.go sub/c.TXT"},
		{"full path", Options{Pattern: "sub/*.go", FullPath: true, Gitignore: true}, "sub/b.go"},
		{"type d", Options{Type: "d", Gitignore: true}, "sub sub/deep"},
		{"extension", Options{Extensions: []string{".MD"}, Gitignore: true}, "sub/deep/d.md"},
		{"exclude", Options{Excludes: []string{"sub/"}, Gitignore: true}, "a.go big.bin"},
		{"depth", Options{MaxDepth: 1, Type: "f", Gitignore: true}, "a.go big.bin"},
		{"size", Options{Sizes: []string{"+1k"}, Gitignore: true}, "big.bin"},
		{"empty", Options{Type: "e", Gitignore: true}, "sub/b.go"},
		{"limit after filters", Options{Extensions: []string{"go"}, Limit: 1, Gitignore: true, Hidden: true}, ".hid/f.go"},
		{"changed within", Options{ChangedWithin: "1h", Pattern: "a.go", Gitignore: true}, "a.go"},
	}
	for _, tc := range cases {
		tc.o.Paths = []string{dir}
		out, errOut, code, err := runFind(t, tc.o)
		got := strings.Join(strings.Fields(strings.ReplaceAll(out, d+"/", "")), " ")
		wantCode := StatusFound
		if tc.want == "" {
			wantCode = StatusNotFound
		}
		if err != nil || got != tc.want || code != wantCode {
			t.Errorf("%s: status %d, err %v, got %q, want %q (stderr %q)", tc.name, code, err, got, tc.want, errOut)
		}
	}
}

// The newest come first with Newest; --json gives the type and time of
// each; -0 ends each path with a NUL; a path argument that is a file is
// refused.
func TestRunOutput(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"old.txt": "", "new.txt": ""})
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "old.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	d := filepath.ToSlash(dir)
	if out, _, _, err := runFind(t, Options{Paths: []string{dir}, Newest: true}); err != nil || out != d+"/new.txt\n"+d+"/old.txt\n" {
		t.Errorf("newest: %q, %v", out, err)
	}
	out, _, _, err := runFind(t, Options{Paths: []string{dir}, Pattern: "old.txt", JSON: true})
	if want := `{"mtime":` + strconv.FormatInt(old.UnixMilli(), 10) + `,"path":"` + d + `/old.txt","type":"file"}` + "\n"; err != nil || out != want {
		t.Errorf("json: %q, want %q (%v)", out, want, err)
	}
	if out, _, _, err := runFind(t, Options{Paths: []string{dir}, Pattern: "old.txt", Print0: true, PathColor: "<", ColorReset: ">"}); err != nil || out != "<"+d+"/old.txt>\x00" {
		t.Errorf("print0 in color: %q, %v", out, err)
	}
	if _, _, code, err := runFind(t, Options{Paths: []string{filepath.Join(dir, "old.txt")}}); code != StatusError || err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("a file as PATH: status %d, err %v", code, err)
	}
}

// Exec runs a program per path, or once with all of them; a program that
// fails makes the status "not found".
func TestRunExec(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh")
	}
	t.Parallel()
	dir := writeTree(t, map[string]string{"x/a.go": "", "x/b.go": ""})
	d := filepath.ToSlash(dir)
	cases := []struct {
		ex   Exec
		want string
		code int
	}{
		{Exec{Argv: []string{"echo", "{/.}", "{//}"}}, "a " + d + "/x\nb " + d + "/x\n", StatusFound},
		{Exec{Argv: []string{"echo"}, Batch: true}, d + "/x/a.go " + d + "/x/b.go\n", StatusFound},
		{Exec{Argv: []string{"sh", "-c", "exit 3"}}, "", StatusNotFound},
	}
	for _, tc := range cases {
		f, err := New(Options{Paths: []string{dir}, Type: "f", Exec: &tc.ex})
		if err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		code, err := f.Run(context.Background(), Streams{Stdout: &bytes.Buffer{}, Stderr: &errOut, ExecStdout: &out})
		if err != nil || code != tc.code || out.String() != tc.want {
			t.Errorf("%q: status %d, err %v, output %q, want %q (stderr %q)", tc.ex.Argv, code, err, out.String(), tc.want, errOut.String())
		}
	}
}

// New refuses values it cannot use, with the flag named.
func TestNewRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		o    Options
		want string
	}{
		{Options{Type: "z"}, `--type must be f, d, l, x or e, got "z"`},
		{Options{Sizes: []string{"10q"}}, `--size "10q": unknown unit "q"`},
		{Options{Sizes: []string{"ten"}}, `--size "ten": use [+-]N[unit]`},
		{Options{ChangedWithin: "soon"}, `--changed-within "soon"`},
		{Options{Excludes: []string{"["}}, `--exclude "["`},
		{Options{IgnoreCase: true, CaseSensitive: true}, "-i and -s cannot be combined"},
		{Options{Pattern: "(", Regex: true}, `invalid regex "("`},
	}
	for _, tc := range cases {
		if _, err := New(tc.o); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want %q…", tc.o, err, tc.want)
		}
	}
}

// Sizes in fd's syntax: decimal and binary units, bounds either way.
func TestParseSize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		s    string
		size int64
		ok   bool
	}{
		{"+10k", 10000, true}, {"+10k", 9999, false},
		{"-1ki", 1024, true}, {"-1ki", 1025, false},
		{"500", 500, true}, {"500b", 501, false},
		{"2MB", 2000000, true}, {"1gi", 1 << 30, true}, {"+1T", 1e12, true},
	}
	for _, tc := range cases {
		b, err := parseSize(tc.s)
		if err != nil {
			t.Fatalf("parseSize(%q): %v", tc.s, err)
		}
		if got := b.ok(tc.size); got != tc.ok {
			t.Errorf("%q on %d bytes: %v, want %v", tc.s, tc.size, got, tc.ok)
		}
	}
}

// --changed-within takes Go durations, days and weeks, and dates.
func TestParseChangedWithin(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 3, 10, 12, 0, 0, 0, time.Local)
	cases := map[string]time.Time{
		"90m":                 now.Add(-90 * time.Minute),
		"3d":                  now.Add(-72 * time.Hour),
		"1w":                  now.Add(-7 * 24 * time.Hour),
		"2024-01-31":          time.Date(2024, 1, 31, 0, 0, 0, 0, time.Local),
		"2024-01-31 10:00:00": time.Date(2024, 1, 31, 10, 0, 0, 0, time.Local),
	}
	for s, want := range cases {
		if got, err := parseChangedWithin(s, now); err != nil || !got.Equal(want) {
			t.Errorf("%q: %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := parseChangedWithin("3x", now); err == nil {
		t.Error("3x accepted")
	}
}

// fd's placeholders take parts of the path.
func TestExpandPlaceholders(t *testing.T) {
	t.Parallel()
	got := expandPlaceholders("{} {/} {//} {.} {/.}", "dir/sub/name.tar.gz")
	if want := "dir/sub/name.tar.gz name.tar.gz dir/sub dir/sub/name.tar name.tar"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// An empty result whose pattern was probably meant another way gets a
// hint; a pattern that is plainly a glob does not.
func TestHint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		pattern       string
		regex, fuzzy  bool
		wantSubstring string
	}{
		{dir, false, false, "is a directory"},
		{"^doc", false, false, "looks like a regex"},
		{"doc", false, false, "must match a whole name"},
		{"*.go", false, false, ""},
		{"doc", true, false, ""},
		{"doc", false, true, ""},
		{"", false, false, ""},
	}
	for _, tc := range cases {
		got := hint(tc.pattern, tc.regex, tc.fuzzy)
		if (tc.wantSubstring == "") != (got == "") || !strings.Contains(got, tc.wantSubstring) {
			t.Errorf("hint(%q, %v, %v) = %q, want it to hold %q", tc.pattern, tc.regex, tc.fuzzy, got, tc.wantSubstring)
		}
	}
}
