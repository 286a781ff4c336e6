package grep

import "strings"

// NeedsMultiline reports whether a pattern asks for matches across lines:
// it holds a real newline or the two characters `\n`. Every other pattern is
// searched line by line and can never match a line terminator.
func NeedsMultiline(pattern string) bool {
	return strings.Contains(pattern, "\n") || strings.Contains(pattern, `\n`)
}

// EscapeLiteralBraces escapes every `{` that cannot start a counted
// repetition, together with its closing `}`, so that template text such as
// `${platform}` or `interface{}` searches literally while `a{2,4}` keeps its
// meaning. A brace is a quantifier only when it follows something that can be
// repeated and has the form {N}, {N,} or {N,M} with decimal digits. Braces
// already escaped or inside a character class are left alone.
func EscapeLiteralBraces(pattern string) string {
	if !strings.ContainsAny(pattern, "{}") {
		return pattern
	}
	var b strings.Builder
	b.Grow(len(pattern) + 8)
	repeatable := false // does the previous token accept a quantifier?
	inClass := false
	classStart := 0
	var groups []int // offsets of the open parentheses
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		bareDollar := i > 0 && pattern[i-1] == '$' && !inClass && !escapedAt(pattern, i-1)
		switch {
		case c == '\\':
			end := escapeEnd(pattern, i)
			b.WriteString(pattern[i : end+1])
			i = end
			repeatable = !inClass
			continue
		case inClass:
			b.WriteByte(c)
			// A ']' right after '[' or '[^' is a literal member, not the end.
			if c == ']' && i > classStart {
				inClass = false
				repeatable = true
			} else if c == '[' && i+1 < len(pattern) && pattern[i+1] == ':' {
				// POSIX class like [:alpha:] inside a bracket expression.
				if end := strings.Index(pattern[i+2:], ":]"); end >= 0 {
					b.WriteString(pattern[i+1 : i+2+end+2])
					i += 2 + end + 1
				}
			}
			continue
		case c == '[':
			inClass = true
			b.WriteByte(c)
			classStart = i + 1
			if classStart < len(pattern) && pattern[classStart] == '^' {
				classStart++
				b.WriteByte('^')
				i++
			}
			continue
		case c == '{':
			if end, ok := quantifierEnd(pattern, i); ok && repeatable {
				b.WriteString(pattern[i : end+1])
				i = end
				// A lazy or possessive marker may follow; a second
				// quantifier may not, so the next brace is literal.
				repeatable = false
				continue
			}
			if bareDollar {
				// `${name}` is template text: an end-of-line anchor
				// followed by a literal brace could never match.
				str := b.String()
				b.Reset()
				b.WriteString(str[:len(str)-1])
				b.WriteString(`\$`)
			}
			b.WriteString(`\{`)
			repeatable = true
			continue
		case c == '}':
			b.WriteString(`\}`)
			repeatable = true
			continue
		case c == '(':
			groups = append(groups, i)
			repeatable = false
		case c == ')':
			// A flag group such as (?i) sets flags; it matches nothing
			// and cannot be repeated.
			repeatable = true
			if n := len(groups); n > 0 {
				repeatable = !isFlagGroup(pattern[groups[n-1]:i])
				groups = groups[:n-1]
			}
		case c == '|':
			repeatable = false
		case c == '*' || c == '+' || c == '?':
			repeatable = false
		case c == '^' || c == '$':
			repeatable = false
		default:
			repeatable = true
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isFlagGroup reports whether group (from its '(' up to, not including, its
// ')') only sets flags, like `(?i` or `(?-u`.
func isFlagGroup(group string) bool {
	if !strings.HasPrefix(group, "(?") || len(group) == 2 {
		return false
	}
	for _, r := range group[2:] {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// escapeEnd returns the index of the last byte of the escape sequence that
// starts with the backslash at pattern[i]. Escapes that take a braced
// argument — `\p{Greek}`, `\P{L}`, `\x{1F600}`, `\u{7F}`, `\U{7F}` — end at
// their closing brace, so those braces are never mistaken for literal text.
func escapeEnd(pattern string, i int) int {
	if i+1 >= len(pattern) {
		return i
	}
	switch pattern[i+1] {
	case 'p', 'P', 'x', 'u', 'U':
		if i+2 < len(pattern) && pattern[i+2] == '{' {
			if close := strings.IndexByte(pattern[i+3:], '}'); close >= 0 {
				return i + 3 + close
			}
		}
	}
	return i + 1
}

// escapedAt reports whether pattern[i] is preceded by an odd number of
// backslashes.
func escapedAt(pattern string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && pattern[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// quantifierEnd reports whether pattern[start:] opens a counted repetition
// {N}, {N,} or {N,M} and returns the index of its closing brace.
func quantifierEnd(pattern string, start int) (int, bool) {
	i := start + 1
	digits := 0
	for i < len(pattern) && pattern[i] >= '0' && pattern[i] <= '9' {
		i++
		digits++
	}
	if digits == 0 || i >= len(pattern) {
		return 0, false
	}
	if pattern[i] == '}' {
		return i, true
	}
	if pattern[i] != ',' {
		return 0, false
	}
	i++
	for i < len(pattern) && pattern[i] >= '0' && pattern[i] <= '9' {
		i++
	}
	if i < len(pattern) && pattern[i] == '}' {
		return i, true
	}
	return 0, false
}

// EscapeParens escapes every parenthesis that is not already escaped and not
// inside a character class. It is the one fallback tried after a compile
// error about an unopened or unclosed group: a pattern such as `foo(` is
// then searched literally.
func EscapeParens(pattern string) string {
	var b strings.Builder
	b.Grow(len(pattern) + 4)
	inClass := false
	classStart := 0
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\':
			end := escapeEnd(pattern, i)
			b.WriteString(pattern[i : end+1])
			i = end
			continue
		case inClass:
			if c == ']' && i > classStart {
				inClass = false
			}
		case c == '[':
			inClass = true
			classStart = i + 1
			if classStart < len(pattern) && pattern[classStart] == '^' {
				classStart++
				b.WriteString("[^")
				i++
				continue
			}
		case c == '(' || c == ')':
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isGroupError reports whether a compile error is about unbalanced groups,
// the only kind that earns the parenthesis-escaping retry. Both engines'
// wordings are recognised.
func isGroupError(msg string) bool {
	for _, words := range []string{"unclosed group", "unopened group", "missing closing )", "unexpected )"} {
		if strings.Contains(msg, words) {
			return true
		}
	}
	return false
}
