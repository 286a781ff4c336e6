package job

import "testing"

// The patterns of a run become one regex: -e alternatives grouped, -F
// quoting every meta character, -w and -x wrapping the whole.
func TestPattern(t *testing.T) {
	t.Parallel()
	cases := []struct {
		o    Options
		want string
	}{
		{Options{Patterns: []string{"a.b"}}, `a.b`},
		{Options{Patterns: []string{"a.b"}, Fixed: true}, `a\.b`},
		{Options{Patterns: []string{`f(x)`, "y|z"}, Fixed: true}, `(?:f\(x\))|(?:y\|z)`},
		{Options{Patterns: []string{"a", "b"}, Word: true}, `\b(?:(?:a)|(?:b))\b`},
		{Options{Patterns: []string{"a"}, Line: true}, `^(?:a)$`},
		{Options{Patterns: []string{"${x}-~#&"}, Fixed: true}, `\$\{x\}\-\~\#\&`},
		{Options{ListFiles: true}, ``},
	}
	for _, tc := range cases {
		if got := pattern(&tc.o); got != tc.want {
			t.Errorf("pattern(%+v) = %q, want %q", tc.o, got, tc.want)
		}
	}
}

// Smart case ignores case unless a pattern has an upper-case letter to
// match: the letters of escapes and classes do not count, those of a
// fixed string do.
func TestIgnoreCase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		patterns []string
		c        Case
		fixed    bool
		want     bool
	}{
		{[]string{"Foo"}, CaseSensitive, false, false},
		{[]string{"foo"}, CaseSensitive, false, false},
		{[]string{"Foo"}, CaseIgnore, false, true},
		{[]string{"foo"}, CaseSmart, false, true},
		{[]string{"Foo"}, CaseSmart, false, false},
		{[]string{"foo", "Bar"}, CaseSmart, false, false},
		{[]string{`\W\S\p{Lu}\P{Greek}x`}, CaseSmart, false, true},
		{[]string{`\W`}, CaseSmart, true, false}, // -F: the W is text
		{[]string{"ünïcode"}, CaseSmart, false, true},
		{[]string{"Ünicode"}, CaseSmart, false, false},
	}
	for _, tc := range cases {
		o := Options{Patterns: tc.patterns, Case: tc.c, Fixed: tc.fixed}
		if got := ignoreCase(&o); got != tc.want {
			t.Errorf("ignoreCase(%q, case %d, fixed %v) = %v, want %v", tc.patterns, tc.c, tc.fixed, got, tc.want)
		}
	}
}

// The filters named when a search of the current directory reads nothing
// come in a fixed order, whichever order the flags were given in.
func TestGivenFilters(t *testing.T) {
	t.Parallel()
	o := Options{GlobFold: []bool{true, false}, TypesNot: []string{"go"}, MaxFileSize: 10, Types: []string{"c"}}
	got := givenFilters(&o)
	want := []string{"-g", "--iglob", "-t", "-T", "--max-filesize"}
	if len(got) != len(want) {
		t.Fatalf("givenFilters = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("givenFilters = %q, want %q", got, want)
		}
	}
	if got := givenFilters(&Options{}); len(got) != 0 {
		t.Errorf("no filters: %q", got)
	}
}
