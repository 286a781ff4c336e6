package glob

import (
	"errors"
	"testing"
)

// Fuzz inputs are capped so the reference interpreter stays fast; the bugs
// worth finding live in short patterns.
const (
	fuzzMaxPattern = 40
	fuzzMaxPath    = 48
)

func FuzzGlobMatch(f *testing.F) {
	seeds := [][2]string{
		{"**/*.go", "a/b/c.go"},
		{"a/**/b", "a/b"},
		{"{a,b/}**", "b/x"},
		{"[!a-c]?*x", "dzzx"},
		{`\**`, "*x"},
		{"*a*b*", "xaybz"},
		{"**/", "a/"},
		{"[]-a]", "^"},
		{"{,**/}x/**", "y/x/z"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if len(pattern) > fuzzMaxPattern || len(path) > fuzzMaxPath {
			t.Skip()
		}
		p, err := Compile(pattern)
		if err != nil {
			t.Skip()
		}
		if got, want := p.Match(path), refMatch(pattern, path); got != want {
			t.Fatalf("Match(%q, %q) = %v, reference %v", pattern, path, got, want)
		}
	})
}

func FuzzGlobCompile(f *testing.F) {
	for _, s := range []string{"", "**", "a[", "{a,{b,c}", `x\`, "[!]]", "{{{{}}}}", "a/**/b/{c,d/e}/*.[ch]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		p, err := Compile(pattern)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Compile(%q) error %T is not a *SyntaxError", pattern, err)
			}
			if se.Pos < 0 || se.Pos > len(pattern) || se.Pattern != pattern || se.Msg == "" {
				t.Fatalf("Compile(%q): bad error %+v", pattern, se)
			}
			return
		}
		if p.String() != pattern {
			t.Fatalf("String() = %q", p.String())
		}
		// Matching the pattern text and a few paths must not panic.
		for _, s := range []string{pattern, "", "a", "a/b", "/", "é/\xff"} {
			p.Match(s)
		}
	})
}
