package grep

import (
	"regexp"
	"strings"
	"testing"
)

func TestEscapeLiteralBraces(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`${platform}`, `\$\{platform\}`},
		{`a{2,4}`, `a{2,4}`},
		{`a{2}`, `a{2}`},
		{`a{2,}`, `a{2,}`},
		{`interface{}`, `interface\{\}`},
		{`{2}`, `\{2\}`},
		{`x{,3}`, `x\{,3\}`},
		{`x{a}`, `x\{a\}`},
		{`\{literal\}`, `\{literal\}`},
		{`[{}]`, `[{}]`},
		{`[]{]`, `[]{]`},
		{`[^]{]x{2}`, `[^]{]x{2}`},
		{`(ab){3}`, `(ab){3}`},
		{`[a-z]{3}`, `[a-z]{3}`},
		{`\d{3}`, `\d{3}`},
		{`a*{2}`, `a*\{2\}`},
		{`(?i){2}`, `(?i)\{2\}`},
		{`^{2}`, `^\{2\}`},
		{`func \w+\(\) {`, `func \w+\(\) \{`},
		{`}`, `\}`},
		{`a{2}{3}`, `a{2}\{3\}`},
		{`\${x}`, `\$\{x\}`},
		{`[[:alpha:]]{2}`, `[[:alpha:]]{2}`},
		{`no braces`, `no braces`},
		{`\p{Greek}+`, `\p{Greek}+`},
		{`\P{L}{2}`, `\P{L}{2}`},
		{`[\p{Lu}\d]{3}`, `[\p{Lu}\d]{3}`},
		{`\x{41}{2}`, `\x{41}{2}`},
		{`\u{7F}`, `\u{7F}`},
		{`\pL{2}`, `\pL{2}`},
		{`\p{`, `\p\{`},
	}
	for _, c := range cases {
		if got := EscapeLiteralBraces(c.in); got != c.want {
			t.Errorf("EscapeLiteralBraces(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeLiteralBracesSearchesLiterally(t *testing.T) {
	t.Parallel()
	// The check from the original system: template text is found verbatim,
	// quantifiers keep working.
	re := regexp.MustCompile(EscapeLiteralBraces(`${platform}`))
	if !re.MatchString("path/${platform}/bin") {
		t.Fatal("${platform} did not match its literal text")
	}
	re = regexp.MustCompile(EscapeLiteralBraces(`^a{2,4}$`))
	if !re.MatchString("aaa") || re.MatchString("a{2,4}") {
		t.Fatal("a{2,4} is no longer a quantifier")
	}
}

func TestEscapeParens(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`foo(`, `foo\(`},
		{`foo)`, `foo\)`},
		{`f(x)`, `f\(x\)`},
		{`\(x`, `\(x`},
		{`[()]x(`, `[()]x\(`},
		{`[^)]`, `[^)]`},
	}
	for _, c := range cases {
		if got := EscapeParens(c.in); got != c.want {
			t.Errorf("EscapeParens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNeedsMultiline(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{"a\nb": true, `a\nb`: true, `a\\b`: false, "plain": false, `\s+`: false} {
		if got := NeedsMultiline(in); got != want {
			t.Errorf("NeedsMultiline(%q) = %v", in, got)
		}
	}
}

// FuzzEscapeLiteralBraces checks the properties the engine relies on: the
// rewrite is idempotent, leaves brace-free patterns alone, never breaks a
// pattern that was valid and brace-free, and keeps valid quantifiers.
func FuzzEscapeLiteralBraces(f *testing.F) {
	for _, s := range []string{`${platform}`, `a{2,4}`, `interface{}`, `[{]`, `\{`, `x{1}{2}`, `{`, `}`, `(a|b){3,}`, `\\{2}`, `\p{Greek}{2}`, `[\x{41}-\x{5A}]{1,2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		once := EscapeLiteralBraces(p)
		if twice := EscapeLiteralBraces(once); twice != once {
			t.Fatalf("not idempotent: %q -> %q -> %q", p, once, twice)
		}
		if !strings.ContainsAny(p, "{}") && once != p {
			t.Fatalf("changed a brace-free pattern: %q -> %q", p, once)
		}
		if _, err := regexp.Compile(p); err == nil {
			if _, err := regexp.Compile(once); err != nil {
				t.Fatalf("valid pattern %q became invalid %q: %v", p, once, err)
			}
		}
		if strings.Count(once, "{") < strings.Count(p, "{") {
			t.Fatalf("lost a brace: %q -> %q", p, once)
		}
	})
}
