// Package golden compares test output with golden files and with the
// expected sections of txtar cases, and rewrites them instead when the
// test binary runs with -update.
//
// It registers the one -update flag every test binary that imports it
// (directly or through a harness such as core/tool/tooltest) shares, so
// `go test ./pkg -update` rewrites a package's goldens whatever harness
// they belong to; a test package must not declare its own. What output is
// compared, and how it is normalised first, stays with the package under
// test: this package only compares, reports and rewrites.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite golden files and the expected sections of txtar cases from the actual output")

// Update reports whether the test binary runs with -update, for the
// harnesses that rewrite something this package does not (a generated
// corpus, a section renamed from "result" to "error").
func Update() bool { return *update }

// Check compares got with the golden file at path and reports the first
// difference as a test error; under -update it writes got to path
// instead (creating its directory). It reports whether the file matched
// (always true under -update), so callers can add their own verdict.
func Check(t testing.TB, path, got string) bool {
	t.Helper()
	return check(t, path, got, *update)
}

func check(t testing.TB, path, got string, rewrite bool) bool {
	t.Helper()
	if rewrite {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
			return false
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
			return false
		}
		return true
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
		return false
	}
	if got == string(want) {
		return true
	}
	t.Errorf("%s differs from the output (go test -update rewrites it)\n%s", path, Diff(string(want), got))
	return false
}

// diffContext is how many equal lines Diff shows before the first
// difference, and contextWidth how much of each it shows.
const (
	diffContext  = 2
	contextWidth = 120
)

// Diff describes the first difference between want and got: its line and
// the byte in that line where they part, the line counts, up to two equal
// lines before it (cut at 120 bytes), and the two differing lines in full,
// quoted with their line ends, so that invisible differences (trailing
// blanks, "\r", a missing final newline) show. It returns "" when want and
// got are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := lines(want), lines(got)
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d", i+1)
	if i < len(w) && i < len(g) {
		fmt.Fprintf(&b, ", byte %d", commonPrefix(w[i], g[i])+1)
	}
	fmt.Fprintf(&b, " (want %d lines, got %d):\n", len(w), len(g))
	for j := max(0, i-diffContext); j < i; j++ {
		line := strings.TrimSuffix(w[j], "\n")
		if len(line) > contextWidth {
			n := contextWidth
			for n > 0 && !utf8.RuneStart(line[n]) {
				n--
			}
			line = line[:n] + "…"
		}
		fmt.Fprintf(&b, "      %s\n", line)
	}
	fmt.Fprintf(&b, "-want %s\n+got  %s", quoteLine(w, i), quoteLine(g, i))
	return b.String()
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// lines splits s after each newline; a final line without one is kept.
func lines(s string) []string {
	out := strings.SplitAfter(s, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// quoteLine is line i of ls, quoted, or a note that the text has ended.
func quoteLine(ls []string, i int) string {
	if i >= len(ls) {
		return "(end of text)"
	}
	return fmt.Sprintf("%q", ls[i])
}
