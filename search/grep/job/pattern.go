package job

import (
	"strings"
	"unicode"
)

// pattern is the one regex a run searches for: o's patterns joined as
// -e, -F, -w and -x ask.
func pattern(o *Options) string {
	patterns := o.Patterns
	if len(patterns) == 0 { // --files: nothing is matched
		patterns = []string{""}
	}
	p := combinePatterns(patterns, o.Fixed, o.Word)
	if o.Line {
		p = `^(?:` + p + `)$`
	}
	return p
}

// ignoreCase is whether o's patterns match ignoring case.
func ignoreCase(o *Options) bool {
	switch o.Case {
	case CaseIgnore:
		return true
	case CaseSmart:
		return !hasUpperLiteral(o.Patterns, o.Fixed)
	}
	return false
}

// combinePatterns joins the -e patterns into one regex: each quoted when
// fixed (-F), alternatives grouped, and the whole wrapped in word
// boundaries for -w.
func combinePatterns(patterns []string, fixed, word bool) string {
	parts := make([]string, len(patterns))
	for i, p := range patterns {
		if fixed {
			p = quoteRegex(p)
		}
		parts[i] = p
	}
	pattern := parts[0]
	if len(parts) > 1 {
		pattern = "(?:" + strings.Join(parts, ")|(?:") + ")"
	}
	if word {
		pattern = `\b(?:` + pattern + `)\b`
	}
	return pattern
}

// quoteRegex escapes every character that has a meaning in Rust regex
// syntax, so the result matches s literally.
func quoteRegex(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$#&-~`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hasUpperLiteral reports whether a pattern has an upper-case letter that
// is text to match (ripgrep's smart case): letters of escapes such as \W
// or \p{Lu} do not count.
func hasUpperLiteral(patterns []string, fixed bool) bool {
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			if !fixed && p[i] == '\\' {
				i++ // the escaped character
				if i < len(p) && (p[i] == 'p' || p[i] == 'P') && i+1 < len(p) && p[i+1] == '{' {
					if end := strings.IndexByte(p[i:], '}'); end >= 0 {
						i += end
					}
				}
				continue
			}
			if r := rune(p[i]); r < utf8RuneSelf && unicode.IsUpper(r) {
				return true
			}
		}
		if strings.IndexFunc(p, func(r rune) bool { return r >= utf8RuneSelf && unicode.IsUpper(r) }) >= 0 {
			return true
		}
	}
	return false
}

// utf8RuneSelf: runes below it are single bytes.
const utf8RuneSelf = 0x80
