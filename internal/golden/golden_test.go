package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what a check reports instead of
// failing the test running it.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
}

func (r *recorder) Fatal(args ...any) {
	r.errors = append(r.errors, fmt.Sprint(args...))
	r.fatal = true
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFlagRegistered(t *testing.T) {
	t.Parallel()
	f := flag.Lookup("update")
	if f == nil || f.DefValue != "false" {
		t.Fatalf("the -update flag is not registered as a boolean off by default: %+v", f)
	}
	if Update() != (f.Value.String() == "true") {
		t.Fatalf("Update() = %v, flag %s", Update(), f.Value)
	}
}

func TestCheckMatch(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a.golden")
	writeFile(t, path, "one\ntwo\n")
	r := &recorder{TB: t}
	if !check(r, path, "one\ntwo\n", false) || len(r.errors) > 0 {
		t.Fatalf("equal text reported: %q", r.errors)
	}
}

func TestCheckMismatchReported(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a.golden")
	writeFile(t, path, "one\ntwo\nthree\nfour\n")
	r := &recorder{TB: t}
	if check(r, path, "one\ntwo\nthree\nFOUR\n", false) {
		t.Fatal("a different text matched")
	}
	if len(r.errors) != 1 || r.fatal {
		t.Fatalf("want one error, got %q (fatal %v)", r.errors, r.fatal)
	}
	msg := r.errors[0]
	for _, want := range []string{path, "-update", "line 4", `-want "four\n"`, `+got  "FOUR\n"`, "      three\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("report lacks %q:\n%s", want, msg)
		}
	}
	if got := readFile(t, path); got != "one\ntwo\nthree\nfour\n" {
		t.Errorf("a check without -update wrote the file: %q", got)
	}
}

func TestCheckMissingFileIsFatal(t *testing.T) {
	t.Parallel()
	r := &recorder{TB: t}
	if check(r, filepath.Join(t.TempDir(), "none.golden"), "x", false) || !r.fatal {
		t.Fatalf("a missing golden file passed: %q", r.errors)
	}
}

func TestCheckUpdateRewrites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "a.golden")
	writeFile(t, old, "stale\n")
	fresh := filepath.Join(dir, "new", "dir", "b.golden")
	for _, path := range []string{old, fresh} {
		r := &recorder{TB: t}
		if !check(r, path, "current\n", true) || len(r.errors) > 0 {
			t.Fatalf("%s: update failed: %q", path, r.errors)
		}
		if got := readFile(t, path); got != "current\n" {
			t.Errorf("%s after update: %q", path, got)
		}
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, want, got, diff string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"first line", "a\n", "b\n", "first difference at line 1, byte 1 (want 1 lines, got 1):\n-want \"a\\n\"\n+got  \"b\\n\""},
		{"context", "a\nb\nc\nd\n", "a\nb\nc\nx\n", "first difference at line 4, byte 1 (want 4 lines, got 4):\n      b\n      c\n-want \"d\\n\"\n+got  \"x\\n\""},
		{"long context", strings.Repeat("y", 130) + "\nab\n", strings.Repeat("y", 130) + "\naB\n", "first difference at line 2, byte 2 (want 2 lines, got 2):\n      " + strings.Repeat("y", 120) + "…\n-want \"ab\\n\"\n+got  \"aB\\n\""},
		{"got longer", "a\n", "a\nb\n", "first difference at line 2 (want 1 lines, got 2):\n      a\n-want (end of text)\n+got  \"b\\n\""},
		{"long context cut at a rune", strings.Repeat("y", 119) + "éé\na\n", strings.Repeat("y", 119) + "éé\nb\n", "first difference at line 2, byte 1 (want 2 lines, got 2):\n      " + strings.Repeat("y", 119) + "…\n-want \"a\\n\"\n+got  \"b\\n\""},
		{"final newline", "a\nb\n", "a\nb", "first difference at line 2, byte 2 (want 2 lines, got 2):\n      a\n-want \"b\\n\"\n+got  \"b\""},
		{"carriage return", "a\n", "a\r\n", "first difference at line 1, byte 2 (want 1 lines, got 1):\n-want \"a\\n\"\n+got  \"a\\r\\n\""},
		{"empty want", "", "a", "first difference at line 1 (want 0 lines, got 1):\n-want (end of text)\n+got  \"a\""},
	}
	for _, c := range cases {
		if got := Diff(c.want, c.got); got != c.diff {
			t.Errorf("%s: Diff =\n%s\nwant\n%s", c.name, got, c.diff)
		}
	}
}
