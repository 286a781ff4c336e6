package glob

import (
	"errors"
	"strings"
	"testing"
)

func TestMatchTable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		yes     []string
		no      []string
	}{
		{"*.go", []string{"a.go", ".go", "main.go"}, []string{"x/a.go", "a.go/b", "a.gox", "a.g"}},
		{"**/*.go", []string{"a.go", "x/a.go", "x/y/z/a.go"}, []string{"a.gox", "x/a.go/y", "go"}},
		{"**", []string{"a", "a/b", ".x/y/z"}, nil},
		{"", []string{"a", "a/b/c"}, nil},
		{"a/**", []string{"a/b", "a/b/c", "a/"}, []string{"a", "b/a/c", "ab/c"}},
		{"a/**/b", []string{"a/b", "a/x/b", "a/x/y/b"}, []string{"a/b/c", "ab", "x/a/b"}},
		{"**/b/**", []string{"b/x", "a/b/x/y"}, []string{"b", "a/b", "ab/x"}},
		{"a**b", []string{"ab", "axxb"}, []string{"a/b", "ax/yb"}},
		{"src/{a,b/c}/*.ts", []string{"src/a/x.ts", "src/b/c/x.ts"}, []string{"src/b/x.ts", "src/c/x.ts"}},
		{"{src/**/*.go,cmd/*}", []string{"src/x.go", "src/a/b.go", "cmd/gopi"}, []string{"cmd/a/b", "x.go"}},
		{"{a,{b,c}d}", []string{"a", "bd", "cd"}, []string{"d", "b", "ad"}},
		{"x{,.bak}", []string{"x", "x.bak"}, []string{"x.", "xbak"}},
		{"{**/,}a", []string{"a", "b/a", "b/c/a"}, []string{"ba"}},
		{"?.c", []string{"a.c", "é.c"}, []string{".c", "ab.c", "/.c"}},
		{"a?b", []string{"axb"}, []string{"a/b", "ab"}},
		{"[abc].txt", []string{"a.txt", "c.txt"}, []string{"d.txt", "ab.txt"}},
		{"[a-c]*", []string{"a", "bcd"}, []string{"d", "A"}},
		{"[!a-c]", []string{"d", "Z", "é"}, []string{"a", "b", "/", ""}},
		{"[^x]", []string{"y"}, []string{"x"}},
		{"[]]", []string{"]"}, []string{"["}},
		{"[!]]", []string{"a"}, []string{"]"}},
		{"[a-]", []string{"a", "-"}, []string{"b"}},
		{"a[/]b", nil, []string{"a/b"}},
		{"[é-ü]", []string{"é", "ô"}, []string{"e", "ÿ"}},
		{`\*.go`, []string{"*.go"}, []string{"a.go"}},
		{`a\{b,c\}`, []string{"a{b,c}"}, []string{"ab"}},
		{`\[x]`, []string{"[x]"}, []string{"x"}},
		{`a\/b`, []string{"a/b"}, nil},
		{`\**`, []string{"*", "*x"}, []string{"x"}},
		{"a}b,c", []string{"a}b,c"}, nil},
		{"node_modules/**/*.js", []string{"node_modules/x/y.js"}, []string{"src/y.js"}},
		{"*.GO", []string{"A.GO"}, []string{"a.go"}},
		{"a//b", []string{"a//b"}, []string{"a/b"}},
		{"a/*/b", []string{"a/x/b", "a//b"}, []string{"a/b"}},
		{"**/", []string{"a/", "a/b/"}, []string{"a"}},
	}
	for _, tt := range tests {
		p, err := Compile(tt.pattern)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.pattern, err)
		}
		for _, s := range tt.yes {
			if !p.Match(s) {
				t.Errorf("%q should match %q", tt.pattern, s)
			}
			if !refMatch(tt.pattern, s) {
				t.Errorf("reference: %q should match %q", tt.pattern, s)
			}
		}
		for _, s := range tt.no {
			if p.Match(s) {
				t.Errorf("%q should not match %q", tt.pattern, s)
			}
			if refMatch(tt.pattern, s) {
				t.Errorf("reference: %q should not match %q", tt.pattern, s)
			}
		}
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		pos     int
		msg     string
	}{
		{"a[bc", 1, "unclosed '['"},
		{"[]", 0, "unclosed '['"},
		{"x/{a,b", 2, "unclosed '{'"},
		{"{a,{b}", 0, "unclosed '{'"},
		{`abc\`, 3, "trailing '\\'"},
		{`[a\`, 0, "unclosed '['"},
		{"a\xffb", 1, "invalid UTF-8"},
		{strings.Repeat("{", 40), 32, "nested deeper"},
		{strings.Repeat("{a,b,c,d}", 7), 54, "more than 4096 alternatives"},
	}
	for _, tt := range tests {
		_, err := Compile(tt.pattern)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Compile(%q) = %v, want *SyntaxError", tt.pattern, err)
			continue
		}
		if se.Pos != tt.pos || !strings.Contains(se.Msg, tt.msg) || se.Pattern != tt.pattern {
			t.Errorf("Compile(%q) = %+v, want pos %d msg %q", tt.pattern, se, tt.pos, tt.msg)
		}
		if !strings.Contains(err.Error(), tt.pattern) && tt.pattern != "a\xffb" {
			t.Errorf("error %q does not name the pattern", err)
		}
	}
}

func TestPatternHelpers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, suffix string
		all, nm         bool
	}{
		{"**/*.go", ".go", false, false},
		{"{a,b}.test.ts", ".test.ts", false, false},
		{"{*.ts,*.js}", "s", false, false},
		{"{*.ts,*.go}", "", false, false},
		{"src/**", "", false, false},
		{"**", "", true, false},
		{"", "", true, false},
		{"node_modules/**/package.json", "package.json", false, true},
		{"**/x[ab]", "", false, false},
	}
	for _, tt := range tests {
		p := MustCompile(tt.pattern)
		if got := p.RequiredSuffix(); got != tt.suffix {
			t.Errorf("%q: RequiredSuffix = %q, want %q", tt.pattern, got, tt.suffix)
		}
		if p.MatchesAll() != tt.all || p.MentionsNodeModules() != tt.nm {
			t.Errorf("%q: MatchesAll=%v MentionsNodeModules=%v", tt.pattern, p.MatchesAll(), p.MentionsNodeModules())
		}
		if p.String() != tt.pattern {
			t.Errorf("String() = %q", p.String())
		}
	}
}

func TestMatchDoesNotAllocate(t *testing.T) {
	p := MustCompile("{src,lib}/**/[a-z]*_test.{go,ts}")
	paths := []string{"src/a/b/c/foo_test.go", "lib/x_test.ts", "src/a/b/c/Foo_test.go", "docs/readme.md"}
	allocs := testing.AllocsPerRun(100, func() {
		for _, s := range paths {
			p.Match(s)
		}
	})
	if allocs != 0 {
		t.Fatalf("Match allocates %.1f times per run", allocs)
	}
}

// TestMatchExhaustive compares the matcher with the reference on every
// pattern built from up to three pieces against every short path over a
// small alphabet.
func TestMatchExhaustive(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "b", "/", "*", "**", "?", "[ab]", "[!a]", "{a,b/}", "{,a/}", `\*`}
	paths := []string{""}
	for n, frontier := 0, []string{""}; n < 5; n++ {
		var next []string
		for _, p := range frontier {
			for _, c := range []string{"a", "b", "/", "*"} {
				next = append(next, p+c)
			}
		}
		paths = append(paths, next...)
		frontier = next
	}
	patterns := []string{""}
	for n, frontier := 0, []string{""}; n < 3; n++ {
		var next []string
		for _, p := range frontier {
			for _, c := range pieces {
				next = append(next, p+c)
			}
		}
		patterns = append(patterns, next...)
		frontier = next
	}
	if testing.Short() {
		patterns = patterns[:200]
	}
	for _, pat := range patterns {
		p := MustCompile(pat)
		for _, s := range paths {
			if got, want := p.Match(s), refMatch(pat, s); got != want {
				t.Fatalf("Match(%q, %q) = %v, reference %v", pat, s, got, want)
			}
		}
	}
}

func TestCompileFold(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		pattern string
		yes     []string
		no      []string
	}{
		{"**/*.go", []string{"a.go", "A.GO", "Src/c.Go"}, []string{"a.gox"}},
		{"readme*", []string{"README.md", "readme.txt"}, []string{"xreadme"}},
		{"Src/*.go", []string{"src/a.go", "SRC/A.GO"}, []string{"x/src/a.go"}},
		{"[A-C]*", []string{"b", "B"}, []string{"d", "D"}},
		{"[!a-c]", []string{"d", "D"}, []string{"a", "B"}},
		{"[é-ü]", []string{"É", "ô", "Ô"}, []string{"e"}},
		{"k", []string{"K", "\u212a"}, []string{"x"}},
		{"ß*", []string{"ß", "ßa"}, nil},
	} {
		p, err := CompileFold(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tt.yes {
			if !p.Match(s) {
				t.Errorf("CompileFold(%q) does not match %q", tt.pattern, s)
			}
		}
		for _, s := range tt.no {
			if p.Match(s) {
				t.Errorf("CompileFold(%q) matches %q", tt.pattern, s)
			}
		}
	}
	if MustCompile("**/*.go").Match("A.GO") {
		t.Error("Compile ignores case")
	}
}
