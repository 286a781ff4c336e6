package glob

import (
	"strings"
	"unicode/utf8"
)

// This file is the oracle for the fast matcher: a direct, memoised
// backtracking interpreter over the pattern text. It shares no code with
// the compiler: braces are expanded on strings, classes are re-parsed at
// every use, and "**" is recognised from the raw characters around it.
// It assumes the pattern compiled successfully.

// refMatch reports whether path matches pattern by the documented rules.
func refMatch(pattern, path string) bool {
	if pattern == "" {
		return true
	}
	for _, alt := range refExpand(pattern) {
		alt = refUnescapeSlash(alt)
		memo := map[[2]int]bool{}
		if refMatchAt(alt, 0, path, 0, memo) {
			return true
		}
	}
	return false
}

// refExpand expands the first top-level brace group and recurses.
func refExpand(p string) []string {
	open := -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = refClassEnd(p, i) - 1
		case '{':
			open = i
		}
		if open >= 0 {
			break
		}
	}
	if open < 0 {
		return []string{p}
	}
	// find the matching '}' and the top-level commas
	depth := 0
	cuts := []int{open}
	closeAt := -1
	for i := open + 1; i < len(p) && closeAt < 0; i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = refClassEnd(p, i) - 1
		case '{':
			depth++
		case '}':
			if depth == 0 {
				closeAt = i
			} else {
				depth--
			}
		case ',':
			if depth == 0 {
				cuts = append(cuts, i)
			}
		}
	}
	cuts = append(cuts, closeAt)
	var out []string
	for k := 0; k+1 < len(cuts); k++ {
		branch := p[cuts[k]+1 : cuts[k+1]]
		for _, b := range refExpand(branch) {
			for _, rest := range refExpand(p[closeAt+1:]) {
				out = append(out, p[:open]+b+rest)
			}
		}
	}
	// the prefix p[:open] has no braces, so no re-expansion is needed
	return out
}

// refClassEnd returns the index just past the ']' closing the class at i.
func refClassEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) && p[j] != ']' {
		if p[j] == '\\' {
			j++
		}
		j++
	}
	return j + 1
}

// refUnescapeSlash turns "\/" into "/" so both spellings separate segments.
func refUnescapeSlash(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			if p[i+1] == '/' {
				b.WriteByte('/')
			} else {
				b.WriteString(p[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

func refMatchAt(p string, pi int, s string, si int, memo map[[2]int]bool) bool {
	key := [2]int{pi, si}
	if v, ok := memo[key]; ok {
		return v
	}
	v := refStep(p, pi, s, si, memo)
	memo[key] = v
	return v
}

func refStep(p string, pi int, s string, si int, memo map[[2]int]bool) bool {
	segStart := pi == 0 || p[pi-1] == '/'
	if segStart && strings.HasPrefix(p[pi:], "**") && (pi+2 == len(p) || p[pi+2] == '/') {
		if pi+2 == len(p) {
			return true // a segment (maybe empty) always remains at a segment start
		}
		for j := si; ; {
			if refMatchAt(p, pi+3, s, j, memo) {
				return true
			}
			k := strings.IndexByte(s[j:], '/')
			if k < 0 {
				return false
			}
			j += k + 1
		}
	}
	if pi == len(p) {
		return si == len(s)
	}
	c, w := utf8.DecodeRuneInString(p[pi:])
	switch c {
	case '*':
		for j := si; ; {
			if refMatchAt(p, pi+1, s, j, memo) {
				return true
			}
			if j == len(s) || s[j] == '/' {
				return false
			}
			_, rw := utf8.DecodeRuneInString(s[j:])
			j += rw
		}
	case '?':
		if si < len(s) && s[si] != '/' {
			_, rw := utf8.DecodeRuneInString(s[si:])
			return refMatchAt(p, pi+1, s, si+rw, memo)
		}
		return false
	case '[':
		end := refClassEnd(p, pi)
		if si >= len(s) || s[si] == '/' {
			return false
		}
		r, rw := utf8.DecodeRuneInString(s[si:])
		if !refClassHas(p[pi+1:end-1], r) {
			return false
		}
		return refMatchAt(p, end, s, si+rw, memo)
	case '\\':
		_, lw := utf8.DecodeRuneInString(p[pi+1:])
		lit := p[pi+1 : pi+1+lw]
		return strings.HasPrefix(s[si:], lit) && refMatchAt(p, pi+1+lw, s, si+lw, memo)
	default:
		lit := p[pi : pi+w]
		return strings.HasPrefix(s[si:], lit) && refMatchAt(p, pi+w, s, si+w, memo)
	}
}

// refClassHas interprets a class body (between the brackets).
func refClassHas(body string, r rune) bool {
	neg := false
	if body != "" && (body[0] == '!' || body[0] == '^') {
		neg, body = true, body[1:]
	}
	var members []rune
	var escaped []bool
	for i := 0; i < len(body); {
		esc := false
		if body[i] == '\\' {
			esc = true
			i++
		}
		c, w := utf8.DecodeRuneInString(body[i:])
		members = append(members, c)
		escaped = append(escaped, esc)
		i += w
	}
	in := false
	for i := 0; i < len(members); i++ {
		lo, hi := members[i], members[i]
		if i+2 < len(members) && members[i+1] == '-' && !escaped[i+1] {
			hi = members[i+2]
			i += 2
		}
		if lo <= r && r <= hi {
			in = true
		}
	}
	return in != neg
}
