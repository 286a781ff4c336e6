package replace

import (
	"errors"
	"strings"
	"testing"
)

func TestReplace(t *testing.T) {
	t.Parallel()
	text := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	cases := []struct {
		name, old, new string
		all            bool
		want           string
		err            error
		tolerant       bool
	}{
		{"exact unique", "func a() {\n\treturn 1", "func a() {\n\treturn 2", false, strings.Replace(text, "return 1", "return 2", 1), nil, false},
		{"ambiguous", "return 1", "return 2", false, "", ErrAmbiguous, false},
		{"all", "return 1", "return 2", true, strings.ReplaceAll(text, "return 1", "return 2"), nil, false},
		{"tolerant reindents", "func b() {\n    return   1\n}", "func b() {\n    return 3\n}", false, "func a() {\n\treturn 1\n}\n\nfunc b() {\n    return 3\n}\n", nil, true},
		{"tolerant keeps file indent", "  func b() {", "  func c() {", false, "func a() {\n\treturn 1\n}\n\nfunc c() {\n\treturn 1\n}\n", nil, true},
		{"missing", "return 42", "x", false, "", ErrNotFound, false},
		{"empty old", "", "x", false, "", ErrEmptyOld, false},
	}
	for _, c := range cases {
		got, m, err := Replace(text, c.old, c.new, c.all, "f.go")
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: err = %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want || m.Tolerant != c.tolerant {
			t.Errorf("%s: got %q (%+v), %v; want %q", c.name, got, m, err, c.want)
		}
	}
}

func TestErrorTexts(t *testing.T) {
	t.Parallel()
	text := "a\nneedle one\nb\nneedle two\n"
	_, _, err := Replace(text, "needle", "x", false, "f.txt")
	want := "Found 2 occurrences:\n\n  1 | a\n  2 | needle one\n  3 | b\n  4 | needle two\n  5 | \n\n  1 | a\n  2 | needle one\n  3 | b\n  4 | needle two\n  5 | \n\nAdd more context lines to disambiguate."
	if err == nil || err.Error() != want {
		t.Errorf("ambiguous:\n%v\nwant\n%s", err, want)
	}
	_, _, err = Replace(text, "needle\nthree", "x", false, "f.txt")
	want = "Could not find a close enough match in f.txt.\n\nClosest match (48% similar) at line 2:\n  - needle\n  + needle one\nClosest match was below the 95% similarity threshold."
	if err == nil || err.Error() != want {
		t.Errorf("not found:\n%v\nwant\n%s", err, want)
	}
	many := strings.Repeat("x\n", 7) + strings.Repeat("y", 90)
	_, _, err = Replace(many, "x", "z", false, "f.txt")
	if err == nil || !strings.HasPrefix(err.Error(), "Found 7 occurrences (showing first 5 of 7):\n\n  1 | x\n") ||
		!strings.Contains(err.Error(), "  8 | "+strings.Repeat("y", 79)+"…\n") {
		t.Errorf("many occurrences:\n%v", err)
	}
}
