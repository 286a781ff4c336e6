package vim

import (
	"slices"
	"strings"
	"unicode"
)

// target is where a motion lands and how an operator takes the span to it.
type target struct {
	line, col int
	linewise  bool // the operator takes whole lines (j, k, G, gg, dd)
	inclusive bool // the character at the target is part of the span (e, $, f, t)
}

// class sorts characters for word motions: blank, word (letter, digit,
// '_') or punctuation. With big (W, B, E) everything not blank is a word.
func class(r rune, big bool) int {
	switch {
	case unicode.IsSpace(r):
		return 0
	case big || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
		return 1
	}
	return 2
}

// pos is a place in the buffer; the column may be one past a line's end,
// which stands for the line break.
type pos struct{ line, col int }

// at is the character at p (a line break is '\n').
func (e *Engine) at(p pos) rune {
	rs := e.runes(p.line)
	if p.col >= len(rs) {
		return '\n'
	}
	return rs[p.col]
}

// next steps p forward one character, over line breaks; false at the end.
func (e *Engine) next(p pos) (pos, bool) {
	if p.col < e.lineLen(p.line) {
		return pos{p.line, p.col + 1}, true
	}
	if p.line+1 < len(e.Lines) {
		return pos{p.line + 1, 0}, true
	}
	return p, false
}

// prev steps p back one character, over line breaks; false at the start.
func (e *Engine) prev(p pos) (pos, bool) {
	if p.col > 0 {
		return pos{p.line, p.col - 1}, true
	}
	if p.line > 0 {
		return pos{p.line - 1, e.lineLen(p.line - 1)}, true
	}
	return p, false
}

// wordClass is the class of the character at p, a line break counting as
// blank except on an empty line, which is a word of its own.
func (e *Engine) wordClass(p pos, big bool) int {
	r := e.at(p)
	if r == '\n' {
		if e.lineLen(p.line) == 0 {
			return 3
		}
		return 0
	}
	return class(r, big)
}

// wordForward is w: the start of the next word.
func (e *Engine) wordForward(p pos, big bool) pos {
	return e.leaveWord(p, big, e.next, pos{len(e.Lines) - 1, e.lineLen(len(e.Lines) - 1)})
}

// wordEndBack is ge: the end of the previous word.
func (e *Engine) wordEndBack(p pos, big bool) pos { return e.leaveWord(p, big, e.prev, pos{0, 0}) }

// leaveWord steps from p (with step, forward or back) off the word it is
// on and over the blanks after it, to the first character of the next
// word that way; stuck is the answer when there is none.
func (e *Engine) leaveWord(p pos, big bool, step func(pos) (pos, bool), stuck pos) pos {
	c := e.wordClass(p, big)
	q, ok := p, true
	if c != 0 {
		for ok && e.wordClass(q, big) == c && (c != 3 || q == p) {
			q, ok = step(q)
		}
	}
	for ok && e.wordClass(q, big) == 0 {
		q, ok = step(q)
	}
	if !ok {
		return stuck
	}
	return q
}

// wordEnd is e: the end of this or the next word.
func (e *Engine) wordEnd(p pos, big bool) pos { return e.wordEdge(p, big, e.next, p) }

// wordBack is b: the start of this or the previous word.
func (e *Engine) wordBack(p pos, big bool) pos { return e.wordEdge(p, big, e.prev, pos{0, 0}) }

// wordEdge steps from p (with step, forward or back) over blanks to the
// next word, then to that word's far edge; stuck is the answer when there
// is no word that way.
func (e *Engine) wordEdge(p pos, big bool, step func(pos) (pos, bool), stuck pos) pos {
	q, ok := step(p)
	for ok && e.wordClass(q, big) == 0 {
		q, ok = step(q)
	}
	if !ok {
		return stuck
	}
	c := e.wordClass(q, big)
	for {
		r, ok := step(q)
		if !ok || e.wordClass(r, big) != c || c == 3 {
			return q
		}
		q = r
	}
}

// repeatWord applies a word motion n times, stopping once it no longer
// moves (at either end of the buffer).
func (e *Engine) repeatWord(p pos, n int, big bool, step func(pos, bool) pos) pos {
	for range n {
		q := step(p, big)
		if q == p {
			break
		}
		p = q
	}
	return p
}

// motion reads the motion at keys[i-1] (k, already taken) with count and
// returns its target and the index after it; ok is false when k is not a
// motion. forOperator allows the column past a line's last character.
func (e *Engine) motion(k Key, keys []Key, i, count int, forOperator bool) (target, int, bool, error) {
	n := max(count, 1)
	cur := pos{e.Line, e.Col}
	t := target{line: e.Line, col: e.Col}
	if k.Special == "BS" {
		k = Key{Char: 'h', Seq: k.Seq, Offset: k.Offset}
	}
	if k.Special != "" {
		return t, i, false, nil
	}
	switch k.Char {
	case 'h':
		t.col = max(0, e.Col-n)
	case 'l', ' ':
		t.col = min(e.Col+n, e.lineLen(e.Line))
		if !forOperator {
			t.col = min(t.col, max(0, e.lineLen(e.Line)-1))
		}
	case 'j', 'k', '+', '-', '_':
		d := n
		switch k.Char {
		case 'k', '-':
			d = -n
		case '_':
			d = n - 1
		}
		t.line = max(0, min(e.Line+d, len(e.Lines)-1))
		t.linewise = true
		if k.Char != 'j' && k.Char != 'k' {
			t.col = e.firstNonBlank(t.line)
		}
	case '0':
		t.col = 0
	case '^':
		t.col = e.firstNonBlank(e.Line)
	case '$':
		t.line = min(e.Line+n-1, len(e.Lines)-1)
		t.col = max(0, e.lineLen(t.line)-1)
		t.inclusive = true
	case 'w', 'W':
		p := e.repeatWord(cur, n, k.Char == 'W', e.wordForward)
		if forOperator && p.line > e.Line {
			// An operator stops at the end of the line the word is on.
			p = pos{p.line - 1, e.lineLen(p.line - 1)}
			if p.line > e.Line && strings.TrimSpace(e.Lines[p.line]) == "" {
				p = pos{e.Line, e.lineLen(e.Line)}
			}
		}
		t.line, t.col = p.line, p.col
	case 'e', 'E':
		p := e.repeatWord(cur, n, k.Char == 'E', e.wordEnd)
		t.line, t.col, t.inclusive = p.line, p.col, true
	case 'b', 'B':
		p := e.repeatWord(cur, n, k.Char == 'B', e.wordBack)
		t.line, t.col = p.line, p.col
	case 'G':
		t.line = len(e.Lines) - 1
		if count > 0 {
			t.line = min(count, len(e.Lines)) - 1
		}
		t.col, t.linewise = 0, true // column 0, as the reference puts it
	case 'g':
		if i >= len(keys) {
			return t, i, true, errAt(k, "g requires a second key")
		}
		g := keys[i]
		i++
		switch {
		case g.Is('g'):
			t.line = 0
			if count > 0 {
				t.line = min(count, len(e.Lines)) - 1
			}
			t.col, t.linewise = 0, true
		case g.Is('e') || g.Is('E'):
			p := e.repeatWord(cur, n, g.Char == 'E', e.wordEndBack)
			t.line, t.col, t.inclusive = p.line, p.col, true
		case g.Is('_'):
			t.line = min(e.Line+n-1, len(e.Lines)-1)
			t.col, t.inclusive = e.lastNonBlank(t.line), true
		default:
			return t, i, true, errAt(g, "Unsupported g command: g%s", g.Display())
		}
	case '|':
		t.col = min(n-1, max(0, e.lineLen(e.Line)-1))
	case 'H', 'M', 'L':
		// Lines counted from the top of the view: omp's engine takes the
		// middle as 20 lines down and the bottom as 39, whatever the view
		// shows, and ignores a count.
		down := map[rune]int{'H': 0, 'M': 20, 'L': 39}[k.Char]
		t.line = max(0, min(e.ViewStart-1+down, len(e.Lines)-1))
		t.col, t.linewise = 0, true
	case ';', ',':
		if e.findChar == 0 {
			return t, i, true, errAt(k, "No previous character search. If you meant an ex-command range like `:4,5d`, add the `:` prefix and `<CR>` suffix.")
		}
		kind := e.findKind
		if k.Char == ',' {
			kind = map[rune]rune{'f': 'F', 'F': 'f', 't': 'T', 'T': 't'}[kind]
		}
		f := Key{Char: kind, Seq: k.Seq, Offset: k.Offset}
		c := Key{Char: e.findChar, Seq: k.Seq, Offset: k.Offset}
		last := e.findKind
		ft, _, _, err := e.motion(f, []Key{c}, 0, max(count, 1)+e.repeatSkip(kind), forOperator)
		e.findKind = last // , searches the other way but does not turn the search round
		return ft, i, true, err
	case 'f', 'F', 't', 'T':
		if i >= len(keys) || keys[i].Special != "" {
			return t, i, true, errAt(k, "%c requires a literal character", k.Char)
		}
		c := keys[i].Char
		i++
		e.findKind, e.findChar = k.Char, c
		rs := e.runes(e.Line)
		col := e.Col
		for range n {
			found := -1
			if k.Char == 'f' || k.Char == 't' {
				start := col + 1
				if k.Char == 't' && col+1 < len(rs) && rs[col+1] == c && col != e.Col {
					start = col + 2
				}
				for j := start; j < len(rs); j++ {
					if rs[j] == c {
						found = j
						break
					}
				}
			} else {
				for j := col - 1; j >= 0; j-- {
					if rs[j] == c {
						found = j
						break
					}
				}
			}
			if found < 0 {
				return t, i, true, errAt(keys[i-1], "Character not found: %c", c)
			}
			col = found
		}
		switch k.Char {
		case 't':
			col--
		case 'T':
			col++
		}
		t.col = col
		t.inclusive = k.Char == 'f' || k.Char == 't'
	case '%':
		p, ok := e.matchBracket(cur)
		if !ok {
			return t, i, true, errAt(k, "Matching bracket not found")
		}
		t.line, t.col, t.inclusive = p.line, p.col, true
	case '{', '}':
		l := e.Line
		for range n {
			step := 1
			if k.Char == '{' {
				step = -1
			}
			l += step
			for l > 0 && l < len(e.Lines)-1 && strings.TrimSpace(e.Lines[l]) != "" {
				l += step
			}
			l = max(0, min(l, len(e.Lines)-1))
		}
		t.line, t.col = l, 0
	default:
		return t, i, false, nil
	}
	return t, i, true, nil
}

// repeatSkip is how many more matches ; and , look for after t or T:
// one when the character is right next to the cursor, where the last t
// left it, so the repeat moves on (as vim does) rather than stay put.
func (e *Engine) repeatSkip(kind rune) int {
	rs := e.runes(e.Line)
	switch {
	case kind == 't' && e.Col+1 < len(rs) && rs[e.Col+1] == e.findChar:
		return 1
	case kind == 'T' && e.Col > 0 && e.Col-1 < len(rs) && rs[e.Col-1] == e.findChar:
		return 1
	}
	return 0
}

// lastNonBlank is the column of line l's last non-blank character (0 on
// a blank line).
func (e *Engine) lastNonBlank(l int) int {
	rs := e.runes(l)
	for j := len(rs) - 1; j >= 0; j-- {
		if !unicode.IsSpace(rs[j]) {
			return j
		}
	}
	return 0
}

// matchBracket finds the bracket matching the one under the cursor or
// right after it (as the reference, it does not look further along the
// line).
func (e *Engine) matchBracket(p pos) (pos, bool) {
	const open, close = "([{", ")]}"
	rs := e.runes(p.line)
	col := p.col
	if col < len(rs) && !strings.ContainsRune(open+close, rs[col]) {
		col++ // the reference also takes the character after the cursor
	}
	if col >= len(rs) || !strings.ContainsRune(open+close, rs[col]) {
		return p, false
	}
	c := rs[col]
	var want rune
	step := 1
	if i := strings.IndexRune(open, c); i >= 0 {
		want = rune(close[i])
	} else {
		want, step = rune(open[strings.IndexRune(close, c)]), -1
	}
	depth := 0
	q, ok := pos{p.line, col}, true
	for ok {
		switch e.at(q) {
		case c:
			depth++
		case want:
			depth--
			if depth == 0 {
				return q, true
			}
		}
		if step > 0 {
			q, ok = e.next(q)
		} else {
			q, ok = e.prev(q)
		}
	}
	return p, false
}

// operator runs d, c or y (op) on the span the keys at keys[i:] name: a
// repeat of the operator (dd: count lines), a motion or a text object.
func (e *Engine) operator(op Key, keys []Key, i, count int) (int, error) {
	n2, j := readCount(keys, i)
	if j >= len(keys) {
		return j, errAt(op, "Operator %c requires a motion", op.Char)
	}
	n := min(max(count, 1)*max(n2, 1), maxCount)
	motionCount := 0 // a count only when one was given (G and gg read it as a line)
	if count > 0 || n2 > 0 {
		motionCount = n
	}
	k := keys[j]
	j++
	var from, to pos // to is exclusive for charwise spans
	linewise := false
	switch {
	case k.Is(op.Char):
		linewise = true
		from, to = pos{e.Line, 0}, pos{min(e.Line+n-1, len(e.Lines)-1), 0}
	case k.Is('i') || k.Is('a'):
		if j >= len(keys) {
			return j, errAt(k, "Missing text object after %c%c", op.Char, k.Char)
		}
		obj := keys[j]
		j++
		var ok bool
		from, to, linewise, ok = e.textObject(obj, k.Char == 'a')
		if !ok {
			return j, errAt(obj, "Text object %c%s not found", k.Char, obj.Display())
		}
	default:
		if op.Char == 'c' && (k.Is('w') || k.Is('W')) && class(e.at(pos{e.Line, e.Col}), k.Char == 'W') != 0 {
			k = Key{Char: k.Char - 'w' + 'e', Seq: k.Seq, Offset: k.Offset} // cw changes to the end of the word
		}
		t, next, ok, err := e.motion(k, keys, j, motionCount, true)
		j = next
		if err != nil {
			return j, err
		}
		if !ok {
			return j, errAt(k, "Unsupported motion: %s", k.Display())
		}
		cur := pos{e.Line, e.Col}
		tp := pos{t.line, t.col}
		if t.linewise {
			linewise = true
			from, to = pos{min(e.Line, t.line), 0}, pos{max(e.Line, t.line), 0}
			break
		}
		if tp.line < cur.line || tp.line == cur.line && tp.col < cur.col {
			from, to = tp, cur
			if t.inclusive {
				to.col++
			}
		} else {
			from, to = cur, tp
			if t.inclusive {
				to.col = min(to.col+1, e.lineLen(to.line))
			}
		}
	}
	if op.Char == '>' || op.Char == '<' {
		last := to.line
		if !linewise && to.col == 0 && to.line > from.line {
			last-- // a span ending at a line's start leaves that line alone
		}
		e.shift(op.Char, from.line, last)
		return j, nil
	}
	if op.Char == 'y' {
		// omp's statuses: the count for yy, else the kind of span.
		switch {
		case k.Is('y'):
			e.Status = "Yanked " + plural1(to.line-from.line+1, "line")
		case linewise:
			e.Status = "Yanked line"
		default:
			e.Status = "Yanked selection"
		}
	}
	if linewise {
		return j, e.lineOp(op.Char, from.line, to.line)
	}
	return j, e.charOp(op.Char, from, to)
}

// caseOps are the case operators (gu, gU, g~) by their second key.
var caseOps = map[rune]func(string) string{'u': strings.ToLower, 'U': strings.ToUpper, '~': toggleCase}

// lineOp applies d, c, y or a case operator to lines first..last.
func (e *Engine) lineOp(op rune, first, last int) error {
	if f, ok := caseOps[op]; ok {
		e.change()
		for l := first; l <= last; l++ {
			e.Lines[l] = f(e.Lines[l])
		}
		e.Line = first
		e.clamp()
		return nil
	}
	e.register, e.regLinewise = slices.Clone(e.Lines[first:last+1]), true
	switch op {
	case 'y':
		return nil
	case 'd':
		e.change()
		e.Lines = slices.Delete(e.Lines, first, last+1)
		if len(e.Lines) == 0 {
			e.Lines = []string{""}
		}
		e.Line = min(first, len(e.Lines)-1)
		e.Col = e.firstNonBlank(e.Line)
	case 'c':
		e.enterInsert()
		e.Lines = slices.Replace(e.Lines, first, last+1, "")
		e.Line, e.Col = first, 0
	}
	return nil
}

// charOp applies d, c, y or a case operator to the characters from from
// up to to.
func (e *Engine) charOp(op rune, from, to pos) error {
	if f, ok := caseOps[op]; ok {
		e.change()
		e.replaceSpan(from, to, f(e.spanText(from, to)))
		return nil
	}
	first, last := e.runes(from.line), e.runes(to.line)
	fc, tc := min(from.col, len(first)), min(to.col, len(last))
	var text []string
	if from.line == to.line {
		text = []string{string(first[fc:tc])}
	} else {
		text = append(text, string(first[fc:]))
		text = append(text, e.Lines[from.line+1:to.line]...)
		text = append(text, string(last[:tc]))
	}
	e.register, e.regLinewise = text, false
	if op == 'y' {
		e.Line, e.Col = from.line, fc
		e.clamp()
		return nil
	}
	if op == 'c' {
		e.enterInsert()
	} else {
		e.change()
	}
	e.Lines = slices.Replace(e.Lines, from.line, to.line+1, string(first[:fc])+string(last[tc:]))
	// The cursor stays where the text was, even past the line's end (as
	// the reference leaves it after d$ or d%).
	e.Line, e.Col = from.line, fc
	return nil
}

// textObject is the span of the object obj (w, ", ', `, ( ) b, { } B,
// [ ], < >, p) around the cursor: inner, or with around its delimiters or
// trailing blanks. A paragraph (p) is whole lines: linewise, from and to
// its first and last line.
func (e *Engine) textObject(obj Key, around bool) (from, to pos, linewise, ok bool) {
	if obj.Is('p') {
		first, last := e.paragraph(around)
		return pos{first, 0}, pos{last, 0}, true, true
	}
	from, to, ok = e.charObject(obj, around)
	return from, to, false, ok
}

// paragraph is the lines of ip (the run of non-blank lines around the
// cursor, or of blank ones when it is on one) or ap (with the blank lines
// after it, or from blank lines the paragraph after them).
func (e *Engine) paragraph(around bool) (int, int) {
	blank := func(l int) bool { return strings.TrimSpace(e.Lines[l]) == "" }
	on := blank(e.Line)
	first, last := e.Line, e.Line
	for first > 0 && blank(first-1) == on {
		first--
	}
	for last < len(e.Lines)-1 && blank(last+1) == on {
		last++
	}
	if around {
		for last < len(e.Lines)-1 && blank(last+1) != on {
			last++
		}
	}
	return first, last
}

// charObject is the span of a text object within the text: words,
// quotes and brackets.
func (e *Engine) charObject(obj Key, around bool) (pos, pos, bool) {
	rs := e.runes(e.Line)
	if obj.Special != "" {
		return pos{}, pos{}, false
	}
	switch c := obj.Char; c {
	case 'w', 'W':
		if len(rs) == 0 {
			return pos{}, pos{}, false
		}
		col := min(e.Col, len(rs)-1)
		cl := class(rs[col], c == 'W')
		s, t := col, col+1
		for s > 0 && class(rs[s-1], c == 'W') == cl {
			s--
		}
		for t < len(rs) && class(rs[t], c == 'W') == cl {
			t++
		}
		if around {
			if t < len(rs) && class(rs[t], false) == 0 {
				for t < len(rs) && class(rs[t], false) == 0 {
					t++
				}
			} else {
				for s > 0 && class(rs[s-1], false) == 0 {
					s--
				}
			}
		}
		return pos{e.Line, s}, pos{e.Line, t}, true
	case '"', '\'', '`':
		var quotes []int
		for j, r := range rs {
			if r == c {
				quotes = append(quotes, j)
			}
		}
		for j := 0; j+1 < len(quotes); j += 2 {
			if e.Col <= quotes[j+1] && (e.Col >= quotes[j] || j == 0) {
				if around {
					return pos{e.Line, quotes[j]}, pos{e.Line, quotes[j+1] + 1}, true
				}
				return pos{e.Line, quotes[j] + 1}, pos{e.Line, quotes[j+1]}, true
			}
		}
		return pos{}, pos{}, false
	default:
		pairs := map[rune][2]rune{'(': {'(', ')'}, ')': {'(', ')'}, 'b': {'(', ')'}, '{': {'{', '}'}, '}': {'{', '}'}, 'B': {'{', '}'},
			'[': {'[', ']'}, ']': {'[', ']'}, '<': {'<', '>'}, '>': {'<', '>'}}
		pair, ok := pairs[c]
		if !ok {
			return pos{}, pos{}, false
		}
		// Walk back to the unmatched opening bracket, then to its match.
		open, ok := e.unmatchedOpen(pos{e.Line, e.Col}, pair[0], pair[1])
		if !ok {
			return pos{}, pos{}, false
		}
		q, ok := e.matchForward(open, pair[0], pair[1])
		if !ok {
			return pos{}, pos{}, false
		}
		if around {
			return open, pos{q.line, q.col + 1}, true
		}
		start, _ := e.next(open)
		return start, q, true
	}
}

// unmatchedOpen is the opening bracket that encloses p (p itself when it
// is one).
func (e *Engine) unmatchedOpen(p pos, open, close rune) (pos, bool) {
	depth := 0
	if e.at(p) == close {
		p, _ = e.prev(p)
		depth = 0
	}
	for q, ok := p, true; ok; q, ok = e.prev(q) {
		switch e.at(q) {
		case close:
			depth++
		case open:
			if depth == 0 {
				return q, true
			}
			depth--
		}
	}
	return p, false
}

// matchForward is the closing bracket matching the opening one at p.
func (e *Engine) matchForward(p pos, open, close rune) (pos, bool) {
	depth := 0
	for q, ok := p, true; ok; q, ok = e.next(q) {
		switch e.at(q) {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return q, true
			}
		}
	}
	return p, false
}
