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
// JavaScript's. A pattern that does not compile is taken literally. With
// fold, letters match either case.
func compile(pattern string, fold bool) *regexp.Regexp {
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
	prefix := ""
	if fold {
		prefix = "(?i)"
	}
	if re, err := regexp.Compile(prefix + b.String()); err == nil {
		return re
	}
	return regexp.MustCompile(prefix + regexp.QuoteMeta(pattern))
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
	re := compile(e.search, false)
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
// .+2) at the start of s, relative ones counted from line base; ok is
// false when there is none.
func (e *Engine) parseAddress(s string, base int) (line int, rest string, ok bool) {
	line = base
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
// address, or two around ',' (or ';', which counts the second from the
// first). hasRange is false when there is none (the command then works
// on the cursor's line). The range may lie outside the buffer: check
// reports it.
func (e *Engine) parseRange(s string) (r exRange, rest string, hasRange bool, err error) {
	if strings.HasPrefix(s, "%") {
		if strings.TrimSpace(s[1:]) == "" {
			return r, s, false, fmt.Errorf(":%% requires a following command")
		}
		return exRange{0, len(e.Lines) - 1}, s[1:], true, nil
	}
	first, rest, ok := e.parseAddress(s, e.Line)
	if !ok {
		return exRange{e.Line, e.Line}, s, false, nil
	}
	r = exRange{first, first}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, ";") {
		base := e.Line
		if rest[0] == ';' {
			base = first
		}
		last, after, ok := e.parseAddress(strings.TrimLeft(rest[1:], " "), base)
		if !ok {
			return r, rest, true, fmt.Errorf("Missing line address after %c", rest[0])
		}
		r.last, rest = last, after
	}
	if r.first > r.last {
		r.first, r.last = r.last, r.first
	}
	return r, rest, true, nil
}

// check reports a range that is not all in the buffer.
func (e *Engine) check(r exRange) error {
	if r.first < 0 || r.last >= len(e.Lines) {
		return &Error{Msg: fmt.Sprintf("Line range %d,%d is outside the buffer (%d lines)", r.first+1, r.last+1, len(e.Lines))}
	}
	return nil
}

// exNames are the ex commands by every name and abbreviation they take.
var exNames = map[string]string{
	"w": "write", "write": "write", "up": "update", "update": "update",
	"wq": "wq", "x": "xit", "xit": "xit", "exit": "xit",
	"q": "quit", "quit": "quit", "e": "edit", "edit": "edit",
	"d": "delete", "del": "delete", "delete": "delete",
	"y": "yank", "ya": "yank", "yank": "yank", "pu": "put", "put": "put",
	"s": "substitute", "substitute": "substitute",
	"g": "global", "global": "global", "v": "vglobal", "vglobal": "vglobal",
	"j": "join", "join": "join", "sort": "sort",
	"m": "move", "mo": "move", "move": "move", "t": "copy", "co": "copy", "copy": "copy",
	"a": "append", "append": "append", "i": "insert", "insert": "insert",
}

// fileCommands are the ex commands that act on the buffer's file as a
// whole; they take no argument and no range.
var fileCommands = map[string]bool{"write": true, "update": true, "wq": true, "xit": true, "quit": true}

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
	if cmd == "" && hasRange {
		return e.gotoLine(r, input)
	}
	if err := e.check(r); err != nil {
		return err
	}
	j := 0
	for j < len(cmd) && cmd[j] >= 'a' && cmd[j] <= 'z' {
		j++
	}
	name, ok := exNames[cmd[:j]]
	if !ok {
		return &Error{Msg: fmt.Sprintf("Unsupported ex command: %s.", input)}
	}
	bang := strings.HasPrefix(cmd[j:], "!")
	after := cmd[j:]
	if bang {
		after = after[1:]
	}
	arg := strings.TrimSpace(after)
	if fileCommands[name] && (arg != "" || hasRange) {
		// Only the buffer's own file is written or closed, whole: a file
		// name, ">>" or a range is refused, as in omp, rather than
		// written to the buffer's file.
		return &Error{Msg: fmt.Sprintf("Unsupported ex command: %s.", input)}
	}
	switch name {
	case "write":
		return e.write(bang)
	case "update":
		if !e.Modified {
			e.Status = e.Name + " unchanged"
			return nil
		}
		return e.write(bang)
	case "wq", "xit":
		if name == "wq" || e.Modified {
			if err := e.write(bang); err != nil {
				return err
			}
			e.Closed, e.Status = true, "Wrote and closed "+e.Name
			return nil
		}
		e.Closed, e.Status = true, "Closed "+e.Name
	case "quit":
		if e.Modified && !bang {
			return &Error{Msg: "Unsaved changes; use :q! to discard"}
		}
		e.Closed, e.Status = true, "Closed "+e.Name
	case "edit":
		return e.edit(arg, bang)
	case "delete":
		if err := e.lineOp('d', r.first, r.last); err != nil {
			return err
		}
		e.Status = fmt.Sprintf("Deleted %d line%s", r.last-r.first+1, plural(r.last-r.first+1))
	case "yank":
		e.register, e.regLinewise = slices.Clone(e.Lines[r.first:r.last+1]), true
		e.Status = fmt.Sprintf("Yanked %d line%s", r.last-r.first+1, plural(r.last-r.first+1))
	case "substitute":
		return e.substitute(r, cmd[j:])
	case "global", "vglobal":
		return e.global(r, hasRange, after, name == "vglobal" || bang)
	case "join":
		if !hasRange {
			r.last = min(r.first+1, len(e.Lines)-1)
		}
		e.Line = r.first
		e.join(r.last-r.first+1, !bang)
		if r.last > r.first {
			e.Status = fmt.Sprintf("Joined %d lines", r.last-r.first+1)
		}
	case "move", "copy":
		return e.moveOrCopy(r, arg, name == "move")
	case "put":
		if len(e.register) == 0 {
			e.Status = "Register empty"
			return nil
		}
		at := r.last + 1
		if bang {
			at = r.first
		}
		e.change()
		e.Lines = slices.Insert(e.Lines, at, e.register...)
		e.Line, e.Col = at+len(e.register)-1, 0
		e.Status = fmt.Sprintf("Put %d line%s", len(e.register), plural(len(e.register)))
	case "sort":
		if !hasRange {
			r = exRange{0, len(e.Lines) - 1}
		}
		e.sortLines(r, bang, strings.Contains(arg, "i"))
	case "append", "insert":
		return e.addLines(r, strings.TrimLeft(after, " "), name == "append", strings.HasPrefix(input, "%"))
	}
	return nil
}

// gotoLine runs a range without a command: the cursor goes to its last
// line, kept in the buffer. The status names the line asked for, as omp's.
func (e *Engine) gotoLine(r exRange, input string) error {
	e.Line = r.last
	e.clamp()
	e.Col = e.firstNonBlank(e.Line)
	shown := e.Line + 1
	if n, err := strconv.Atoi(input); err == nil {
		shown = n
	}
	e.Status = fmt.Sprintf("Line %d", shown)
	return nil
}

// edit runs :e (reload the file) and :e FILE (open another in its place);
// unsaved changes stop both unless forced (:e!).
func (e *Engine) edit(path string, force bool) error {
	if e.Modified && !force {
		return &Error{Msg: "Unsaved changes; use :e! to reload or force open"}
	}
	verb := "Reloaded"
	if path == "" {
		if e.hooks.Reload == nil {
			return &Error{Msg: "Reloading is not available"}
		}
		if err := e.hooks.Reload(e); err != nil {
			return err
		}
	} else {
		if e.hooks.Open == nil {
			return &Error{Msg: "Opening another file is not available"}
		}
		if err := e.hooks.Open(e, path); err != nil {
			return err
		}
		verb = "Opened"
	}
	e.Line, e.Col, e.lastVisual = 0, 0, nil
	e.Status = verb + " " + e.Name
	return nil
}

// moveOrCopy runs :m and :t on the range, to below the line dest names.
func (e *Engine) moveOrCopy(r exRange, dest string, move bool) error {
	to, _, ok := e.parseAddress(dest, e.Line)
	if !ok {
		if dest != "0" {
			return &Error{Msg: "Missing destination"}
		}
		to = -1
	}
	if to < -1 || to >= len(e.Lines) || move && to >= r.first && to < r.last {
		return &Error{Msg: "Invalid destination"}
	}
	e.change()
	block := slices.Clone(e.Lines[r.first : r.last+1])
	count := len(block)
	if move {
		e.Lines = slices.Delete(e.Lines, r.first, r.last+1)
		if to >= r.last {
			to -= count
		}
		e.Status = fmt.Sprintf("Moved %d line%s", count, plural(count))
	} else {
		e.Status = fmt.Sprintf("Copied %d line%s", count, plural(count))
	}
	e.Lines = slices.Insert(e.Lines, to+1, block...)
	e.Line, e.Col = to+count, 0
	e.clamp()
	return nil
}

// sortLines sorts the range's lines (reverse: in descending order;
// fold: ignoring case).
func (e *Engine) sortLines(r exRange, reverse, fold bool) {
	e.change()
	part := e.Lines[r.first : r.last+1]
	key := func(s string) string { return s }
	if fold {
		key = strings.ToLower
	}
	slices.SortStableFunc(part, func(a, b string) int { return strings.Compare(key(a), key(b)) })
	if reverse {
		slices.Reverse(part)
	}
	e.Status = fmt.Sprintf("Sorted %d line%s", len(part), plural(len(part)))
}

// addLines runs :a TEXT (after the range's last line) and :i TEXT (before
// its first): the text, "\n" breaking lines, is the lines added; the
// cursor goes to the first. With % the cursor's line is the anchor, as
// in omp.
func (e *Engine) addLines(r exRange, text string, after, all bool) error {
	if all {
		r = exRange{e.Line, e.Line}
	}
	lines := strings.Split(text, "\n")
	at, verb := r.first, "Inserted"
	if after {
		at, verb = r.last+1, "Appended"
	}
	e.change()
	e.Lines = slices.Insert(e.Lines, at, lines...)
	e.Line, e.Col = at, 0
	e.Status = fmt.Sprintf("%s %d line%s", verb, len(lines), plural(len(lines)))
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

// subFlags are the flags of a :s command.
type subFlags struct {
	all   bool // g: every match on a line, not only the first
	fold  bool // i: ignore case (I: do not)
	count bool // n: count the matches, change nothing
	quiet bool // e: no error when nothing matches
}

// parseSubFlags reads :s's flags and count ("gi", "&n", "g 3"): & first
// takes those of the last :s; c (confirm) has no one to ask and is
// ignored, as are letters vim has and gopi does not. count is 0 when
// none is given.
func (e *Engine) parseSubFlags(s string) (f subFlags, count int) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "&") {
		f, s = e.lastSub, s[1:]
	}
	j := 0
	for ; j < len(s) && (s[j] < '0' || s[j] > '9'); j++ {
		switch s[j] {
		case 'g':
			f.all = true
		case 'i':
			f.fold = true
		case 'I':
			f.fold = false
		case 'n':
			f.count = true
		case 'e':
			f.quiet = true
		}
	}
	count, _ = strconv.Atoi(strings.TrimSpace(s[j:]))
	return f, min(count, maxCount)
}

// substitute runs :s on the range: with a count, on that many lines from
// the range's last.
func (e *Engine) substitute(r exRange, spec string) error {
	pattern, repl, flagText, err := splitSubstitute(spec)
	if err != nil {
		return &Error{Msg: err.Error()}
	}
	if pattern == "" {
		pattern = e.search
	}
	flags, n := e.parseSubFlags(flagText)
	e.lastSub = flags
	if n > 0 {
		r = exRange{r.last, min(r.last+n-1, len(e.Lines)-1)}
	}
	re := compile(pattern, flags.fold)
	tmpl := replacement(repl)
	count, lines := 0, 0
	var out []string
	limit := 1
	if flags.all {
		limit = -1
	}
	for l := r.first; l <= r.last; l++ {
		text := e.Lines[l]
		var b []byte
		prev := 0
		locs := re.FindAllStringSubmatchIndex(text, limit)
		for _, loc := range locs {
			b = append(b, text[prev:loc[0]]...)
			b = re.ExpandString(b, tmpl, text, loc)
			prev = loc[1]
		}
		if len(locs) > 0 {
			count, lines = count+len(locs), lines+1
		}
		b = append(b, text[prev:]...)
		out = append(out, strings.Split(string(b), "\n")...)
	}
	e.search = pattern
	switch {
	case count == 0 && flags.quiet:
		return nil
	case count == 0:
		return &Error{Msg: "Pattern not found: " + pattern}
	case flags.count:
		noun := "matches"
		if count == 1 {
			noun = "match"
		}
		e.Status = fmt.Sprintf("%d %s on %d line%s", count, noun, lines, plural(lines))
		return nil
	}
	e.change()
	e.Lines = slices.Replace(e.Lines, r.first, r.last+1, out...)
	e.clamp() // the cursor stays where it was, as in the reference
	e.Status = fmt.Sprintf("%d substitution%s", count, plural(count))
	return nil
}

// global runs :g/pattern/d (or :v, :g!: the lines not matching); the
// delimiter may be any character, the command d, delete or none (d).
func (e *Engine) global(r exRange, hasRange bool, spec string, invert bool) error {
	if !hasRange {
		r = exRange{0, len(e.Lines) - 1}
	}
	spec = strings.TrimLeft(spec, " ")
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
	if command == "" || command == "delete" {
		command = "d"
	}
	if command != "d" {
		return &Error{Msg: fmt.Sprintf("Unsupported :global sub-command: %s", command)}
	}
	re := compile(pattern, false)
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
