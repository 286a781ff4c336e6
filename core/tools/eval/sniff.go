package eval

import (
	"regexp"
	"strings"
	"sync"
)

// Signs of one language that the other does not share. Ambiguous code
// (signs of both, or of neither) is not guessed at.
var (
	shebangPython = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bi?python\d?(\.\d+)?\b`)
	})
	shebangJS = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(node|bun|deno|javascript|js)\b`)
	})
	jsSigns = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*(const\s|let\s|var\s|async\s+function\b|function\s*\*?\s*[\w$]*\s*\(|import\s.+\sfrom\s|export\s+(default|const|let|function|class|async)\b|require\s*\(|console\.\w+\s*\()|=>|;\s*$`)
	})
	pySigns = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*(def\s+\w+\s*\(|from\s+[\w.]+\s+import\b|import\s+[\w.]+(\s+as\s+\w+)?\s*$|class\s+\w+\s*[(:]|print\s*\(|elif\s.*:|with\s.+:\s*$|@[\w.]+\s*$)`)
	})
)

// Sniff guesses a cell's language from a shebang or from syntax only one
// of the two languages has; ok is false when the code does not say.
func Sniff(code string) (lang Language, ok bool) {
	trimmed := strings.TrimLeft(code, " \t\r\n")
	if strings.HasPrefix(trimmed, "#!") {
		first, _, _ := strings.Cut(trimmed, "\n")
		first = strings.ToLower(first)
		switch {
		case shebangPython().MatchString(first):
			return Python, true
		case shebangJS().MatchString(first):
			return JS, true
		}
	}
	js, py := jsSigns().MatchString(code), pySigns().MatchString(code)
	switch {
	case js && !py:
		return JS, true
	case py && !js:
		return Python, true
	}
	return "", false
}

// sniffOr is Sniff with a fallback language.
func sniffOr(code string, fallback Language) Language {
	if l, ok := Sniff(code); ok {
		return l
	}
	return fallback
}
