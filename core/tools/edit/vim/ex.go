package vim

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// compile turns a search pattern into a regular expression. As in vim's
// default (magic) patterns, a bare ( ) { } | + is a literal character and
// \( \) \{ \} \| \+ the operator; the rest is RE2 syntax, close to
// JavaScript's. A pattern that does not compile is taken literally.
func compile(pattern string) *regexp.Regexp {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern) && strings.IndexByte("(){}|+", pattern[i+1]) >= 0:
			b.WriteByte(pattern[i+1])
			i++
		case c == '\\' && i+1 < len(pattern):
			b.WriteByte(c)
			b.WriteByte(pattern[i+1])
			i++
		case strings.IndexByte("(){}|+", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	if re, err := regexp.Compile(b.String()); err == nil {
		return re
	}
	return regexp.MustCompile(regexp.QuoteMeta(pattern))
}

// maxSearchCount bounds the count of a search (each step may scan the
// whole buffer).
const maxSearchCount = 1000

// vimQuote escapes s for a (magic) search pattern: the characters that
// are operators there without a backslash.
func vimQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.*?[]^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// findN moves to the n-th match of the last search, forward or back,
// wrapping around the buffer.
func (e *Engine) findN(n int, back bool, k Key) error {
	re := compile(e.search)
	line, col := e.Line, e.Col
	for range min(n, maxSearchCount) {
		l, c, ok := e.find(re, line, col, back)
		if !ok {
			return errAt(k, "Pattern not found: %s", e.search)
		}
		line, col = l, c
	}
	e.Line, e.Col = line, col
	e.clamp()
	dir := "/"
	if back {
		dir = "?"
	}
	e.Status = dir + e.search
	return nil
}

// find is the first match after (or before) line:col, in runes, going
// round the buffer and back to the start line's other matches.
func (e *Engine) find(re *regexp.Regexp, line, col int, back bool) (int, int, bool) {
	total := len(e.Lines)
	for step := 0; step <= total; step++ {
		l := (line + step) % total
		if back {
			l = ((line-step)%total + total) % total
		}
		text := e.Lines[l]
		locs := re.FindAllStringIndex(text, -1)
		if back {
			slices.Reverse(locs)
		}
		for _, loc := range locs {
			c := len([]rune(text[:loc[0]]))
			if step == 0 && (!back && c <= col || back && c >= col) {
				continue
			}
			return l, c, true
		}
	}
	return 0, 0, false
}

// exRange is a resolved line range, 0-based and inclusive.
type exRange struct{ first, last int }

// parseAddress reads one line address (N, ., $, +N, -N, and sums such as
// .+2) at the start of s; ok is false when there is none.
func (e *Engine) parseAddress(s string) (line int, rest string, ok bool) {
	line = e.Line
	switch {
	case s == "":
		return 0, s, false
	case s[0] == '.':
		s, ok = s[1:], true
	case s[0] == '$':
		line, s, ok = len(e.Lines)-1, s[1:], true
	case s[0] >= '0' && s[0] <= '9':
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(s[:j])
		line, s, ok = n-1, s[j:], true
	}
	for len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		sign := 1
		if s[0] == '-' {
			sign = -1
		}
		j := 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n := 1
		if j > 1 {
			n, _ = strconv.Atoi(s[1:j])
		}
		line, s, ok = line+sign*n, s[j:], true
	}
	return line, s, ok
}

// parseRange reads the range at the start of an ex command: "%", one
// address, or two around ','. hasRange is false when there is none (the
// command then works on the cursor's line).
func (e *Engine) parseRange(s string) (r exRange, rest string, hasRange bool, err error) {
	if strings.HasPrefix(s, "%") {
		if strings.TrimSpace(s[1:]) == "" {
			return r, s, false, fmt.Errorf(":%% requires a following command")
		}
		return exRange{0, len(e.Lines) - 1}, s[1:], true, nil
	}
	first, rest, ok := e.parseAddress(s)
	if !ok {
		return exRange{e.Line, e.Line}, s, false, nil
	}
	r = exRange{first, first}
	if strings.HasPrefix(rest, ",") {
		last, after, ok := e.parseAddress(rest[1:])
		if !ok {
			return r, rest, true, fmt.Errorf("Missing line address after ,")
		}
		r.last, rest = last, after
	}
	if r.first > r.last {
		r.first, r.last = r.last, r.first
	}
	if r.first < 0 || r.last >= len(e.Lines) {
		return r, rest, true, fmt.Errorf("Line range %d,%d is outside the buffer (%d lines)", r.first+1, r.last+1, len(e.Lines))
	}
	return r, rest, true, nil
}

// ex runs one ex command line (without the ':').
func (e *Engine) ex(line string) error {
	input := strings.TrimSpace(line)
	if input == "" {
		return &Error{Msg: "Empty ex command"}
	}
	r, rest, hasRange, err := e.parseRange(input)
	if err != nil {
		return &Error{Msg: err.Error()}
	}
	cmd := strings.TrimSpace(rest)
	name := cmd
	for j, c := range cmd {
		if !(c >= 'a' && c <= 'z' || c == '!') {
			name = cmd[:j]
			break
		}
	}
	arg := strings.TrimSpace(cmd[len(name):])
	switch {
	case name == "" && arg == "" && hasRange:
		e.Line = r.last
		e.clamp()
		e.Col = e.firstNonBlank(e.Line)
		e.Status = fmt.Sprintf("Line %d", r.last+1)
	case name == "w" || name == "w!" || name == "up" || name == "update":
		if (name == "up" || name == "update") && !e.Modified {
			e.Status = "buffer unchanged"
			return nil
		}
		return e.write(name == "w!")
	case name == "wq" || name == "x" || name == "wq!" || name == "x!":
		if err := e.write(strings.HasSuffix(name, "!")); err != nil {
			return err
		}
		e.Closed = true
	case name == "q" || name == "q!":
		if e.Modified && name == "q" {
			return &Error{Msg: "Unsaved changes; use :q! to discard"}
		}
		e.Closed = true
	case (name == "e" || name == "e!") && arg == "":
		if e.Modified && name == "e" {
			return &Error{Msg: "Unsaved changes; use :e! to reload or force open"}
		}
		if e.hooks.Reload == nil {
			return &Error{Msg: "Reloading is not available"}
		}
		return e.hooks.Reload(e)
	case name == "d":
		if err := e.lineOp('d', r.first, r.last); err != nil {
			return err
		}
		e.Status = fmt.Sprintf("Deleted %d line%s", r.last-r.first+1, plural(r.last-r.first+1))
	case name == "y":
		e.register, e.regLinewise = slices.Clone(e.Lines[r.first:r.last+1]), true
		e.Status = fmt.Sprintf("Yanked %d line%s", r.last-r.first+1, plural(r.last-r.first+1))
	case name == "s":
		return e.substitute(r, cmd[1:])
	case name == "g" || name == "g!" || name == "v":
		return e.global(r, hasRange, cmd[len(name):], name != "g")
	case name == "j" || name == "j!":
		if !hasRange {
			r.last = r.first + 1
		}
		e.Line = r.first
		e.join(r.last-r.first+1, name == "j")
		if r.last > r.first {
			e.Status = fmt.Sprintf("Joined %d lines", r.last-r.first+1)
		}
	case name == "m" || name == "t" || name == "co":
		dest, _, ok := e.parseAddress(arg)
		if !ok {
			if arg == "0" {
				dest = -1
			} else {
				return &Error{Msg: "Missing destination"}
			}
		}
		if dest < -1 || dest >= len(e.Lines) || name == "m" && dest >= r.first && dest < r.last {
			return &Error{Msg: "Invalid destination"}
		}
		e.change()
		block := slices.Clone(e.Lines[r.first : r.last+1])
		count := len(block)
		if name == "m" {
			e.Lines = slices.Delete(e.Lines, r.first, r.last+1)
			if dest >= r.last {
				dest -= count
			}
			e.Status = fmt.Sprintf("Moved %d line%s", count, plural(count))
		} else {
			e.Status = fmt.Sprintf("Copied %d line%s", count, plural(count))
		}
		e.Lines = slices.Insert(e.Lines, dest+1, block...)
		e.Line, e.Col = dest+count, 0
		e.clamp()
	case name == "pu" || name == "put" || name == "pu!" || name == "put!":
		if len(e.register) == 0 {
			e.Status = "Register empty"
			return nil
		}
		at := r.last + 1
		if strings.HasSuffix(name, "!") {
			at = r.first
		}
		e.change()
		e.Lines = slices.Insert(e.Lines, at, e.register...)
		e.Line, e.Col = at+len(e.register)-1, 0
		e.Status = fmt.Sprintf("Put %d line%s", len(e.register), plural(len(e.register)))
	case name == "sort" || name == "sort!":
		if !hasRange {
			r = exRange{0, len(e.Lines) - 1}
		}
		e.change()
		part := e.Lines[r.first : r.last+1]
		slices.Sort(part)
		if name == "sort!" {
			slices.Reverse(part)
		}
		e.Status = fmt.Sprintf("Sorted %d line%s", len(part), plural(len(part)))
	default:
		return &Error{Msg: fmt.Sprintf("Unsupported ex command: %s.", input)}
	}
	return nil
}

// write saves through the tool.
func (e *Engine) write(force bool) error {
	if e.hooks.Write == nil {
		return &Error{Msg: "Writing is not available"}
	}
	status, err := e.hooks.Write(e, force)
	if err != nil {
		return err
	}
	e.Status = status
	e.undo, e.redo = nil, nil
	return nil
}

// splitSubstitute reads "/pattern/replacement/flags" with any delimiter;
// "\" escapes the delimiter.
func splitSubstitute(s string) (pattern, repl, flags string, err error) {
	if s == "" {
		return "", "", "", fmt.Errorf("Missing substitute delimiter")
	}
	delim := rune(s[0])
	var parts []string
	var cur strings.Builder
	rs := []rune(s[1:])
	for j := 0; j < len(rs); j++ {
		switch {
		case rs[j] == '\\' && j+1 < len(rs) && rs[j+1] == delim:
			cur.WriteRune(delim)
			j++
		case rs[j] == delim:
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(rs[j])
		}
	}
	parts = append(parts, cur.String())
	if len(parts) < 2 || len(parts) > 3 {
		return "", "", "", fmt.Errorf("Substitute command must look like :s/pattern/replacement/flags")
	}
	if len(parts) == 3 {
		flags = parts[2]
	}
	return parts[0], parts[1], flags, nil
}

// replacement turns vim's replacement syntax (& the match, \1-\9 groups,
// \n a line break, \& a literal &) into Go's Expand template.
func replacement(s string) string {
	var b strings.Builder
	for j := 0; j < len(s); j++ {
		c := s[j]
		switch {
		case c == '$':
			b.WriteString("$$")
		case c == '&':
			b.WriteString("${0}")
		case c == '\\' && j+1 < len(s):
			j++
			switch d := s[j]; {
			case d >= '0' && d <= '9':
				b.WriteString("${" + string(d) + "}")
			case d == 'n' || d == 'r':
				b.WriteByte('\n')
			case d == 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// substitute runs :s on the range.
func (e *Engine) substitute(r exRange, spec string) error {
	pattern, repl, flags, err := splitSubstitute(spec)
	if err != nil {
		return &Error{Msg: err.Error()}
	}
	if pattern == "" {
		pattern = e.search
	}
	if strings.Contains(flags, "i") {
		pattern = "(?i)" + pattern
	}
	re := compile(pattern)
	tmpl := replacement(repl)
	all := strings.Contains(flags, "g")
	count := 0
	var out []string
	limit := 1
	if all {
		limit = -1
	}
	for l := r.first; l <= r.last; l++ {
		text := e.Lines[l]
		var b []byte
		prev := 0
		for _, loc := range re.FindAllStringSubmatchIndex(text, limit) {
			b = append(b, text[prev:loc[0]]...)
			b = re.ExpandString(b, tmpl, text, loc)
			prev = loc[1]
			count++
		}
		b = append(b, text[prev:]...)
		out = append(out, strings.Split(string(b), "\n")...)
	}
	if count == 0 {
		return &Error{Msg: "Pattern not found: " + pattern}
	}
	e.change()
	e.Lines = slices.Replace(e.Lines, r.first, r.last+1, out...)
	e.clamp() // the cursor stays where it was, as in the reference
	e.search = pattern
	e.Status = fmt.Sprintf("%d substitution%s", count, plural(count))
	return nil
}

// global runs :g/pattern/d (or :v, :g!: the lines not matching).
func (e *Engine) global(r exRange, hasRange bool, spec string, invert bool) error {
	if !hasRange {
		r = exRange{0, len(e.Lines) - 1}
	}
	if spec == "" {
		return &Error{Msg: "Missing substitute delimiter"}
	}
	delim := spec[0]
	body := spec[1:]
	end := strings.IndexByte(body, delim)
	if end < 0 {
		return &Error{Msg: ":g needs /pattern/command"}
	}
	pattern, command := body[:end], strings.TrimSpace(body[end+1:])
	if command != "d" {
		return &Error{Msg: fmt.Sprintf("Unsupported :global sub-command: %s", command)}
	}
	re := compile(pattern)
	var keep []string
	deleted := 0
	for l, text := range e.Lines {
		if l >= r.first && l <= r.last && re.MatchString(text) != invert {
			deleted++
			continue
		}
		keep = append(keep, text)
	}
	if deleted == 0 {
		return &Error{Msg: "Pattern not found: " + pattern}
	}
	e.change()
	if len(keep) == 0 {
		keep = []string{""}
	}
	e.Lines = keep
	e.Line = min(r.first, len(e.Lines)-1)
	e.Col = e.firstNonBlank(e.Line)
	e.Status = "Global: processed " + pattern
	return nil
}
