package vim

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// selection is the visual selection as a span: from (inclusive) to to
// (exclusive), whole lines first..last when linewise.
func (e *Engine) selection() (from, to pos, linewise bool) {
	a, c := e.anchor, pos{e.Line, e.Col}
	if c.line < a.line || c.line == a.line && c.col < a.col {
		a, c = c, a
	}
	if e.mode == VisualLine {
		return pos{a.line, 0}, pos{c.line, 0}, true
	}
	return a, pos{c.line, min(c.col+1, e.lineLen(c.line))}, false
}

// spanText is the text from from to to (to exclusive), lines joined by
// "\n".
func (e *Engine) spanText(from, to pos) string {
	if from.line == to.line {
		rs := e.runes(from.line)
		return string(rs[min(from.col, len(rs)):min(to.col, len(rs))])
	}
	first, last := e.runes(from.line), e.runes(to.line)
	parts := []string{string(first[min(from.col, len(first)):])}
	parts = append(parts, e.Lines[from.line+1:to.line]...)
	parts = append(parts, string(last[:min(to.col, len(last))]))
	return strings.Join(parts, "\n")
}

// replaceSpan puts text (which may hold "\n") in place of the span and
// the cursor at its start.
func (e *Engine) replaceSpan(from, to pos, text string) {
	first, last := e.runes(from.line), e.runes(to.line)
	whole := string(first[:min(from.col, len(first))]) + text + string(last[min(to.col, len(last)):])
	e.Lines = slices.Replace(e.Lines, from.line, to.line+1, strings.Split(whole, "\n")...)
	e.Line, e.Col = from.line, from.col
	e.clamp()
}

// lineSpan is a linewise selection of lines first..last as a span.
func (e *Engine) lineSpan(first, last int) (pos, pos) {
	return pos{first, 0}, pos{last, e.lineLen(last)}
}

// endVisual leaves visual mode, keeping the selection for gv.
func (e *Engine) endVisual() {
	if e.mode == Visual || e.mode == VisualLine {
		e.lastVisual = &visualMark{anchor: e.anchor, cursor: pos{e.Line, e.Col}, mode: e.mode}
	}
	e.mode = Normal
}

// indentUnit is the file's indentation step: a tab when a line starts
// with one, two spaces when a line starts with them, else a tab.
func (e *Engine) indentUnit() string {
	for _, l := range e.Lines {
		if strings.HasPrefix(l, "\t") {
			return "\t"
		}
		if strings.HasPrefix(l, "  ") {
			return "  "
		}
	}
	return "\t"
}

// shift indents (op '>') or outdents ('<') lines first..last by one
// indentation step; outdenting a line that does not start with a whole
// step takes the spaces it starts with, up to a step's width. The cursor
// keeps its place.
func (e *Engine) shift(op rune, first, last int) {
	e.change()
	unit := e.indentUnit()
	for l := first; l <= last; l++ {
		switch line := e.Lines[l]; {
		case op == '>':
			e.Lines[l] = unit + line
		case strings.HasPrefix(line, unit):
			e.Lines[l] = line[len(unit):]
		default:
			spaces := len(line) - len(strings.TrimLeft(line, " "))
			e.Lines[l] = line[min(spaces, len(unit)):]
		}
	}
	e.clamp()
}

// visual runs one key of VISUAL or VISUAL-LINE mode at keys[i].
func (e *Engine) visual(keys []Key, i int) (int, error) {
	k := keys[i]
	from, to, linewise := e.selection()
	if linewise {
		from, to = e.lineSpan(from.line, to.line)
	}
	transform := func(f func(string) string) {
		e.change()
		e.replaceSpan(from, to, f(e.spanText(from, to)))
		e.endVisual()
	}
	switch {
	case k.Special == "Esc":
		e.endVisual()
		return i + 1, nil
	case k.Is('v'):
		if e.mode == Visual {
			e.endVisual()
		} else {
			e.mode = Visual
		}
		return i + 1, nil
	case k.Is('V'):
		if e.mode == VisualLine {
			e.mode = Visual
		} else {
			e.mode = VisualLine
		}
		return i + 1, nil
	case k.Is('o'):
		e.anchor, e.Line, e.Col = pos{e.Line, e.Col}, e.anchor.line, e.anchor.col
		return i + 1, nil
	case k.Is('J'):
		e.endVisual()
		e.Line = from.line
		e.join(max(to.line-from.line+1, 2), true)
		return i + 1, nil
	case k.Is('u'):
		transform(strings.ToLower)
		return i + 1, nil
	case k.Is('U'):
		transform(strings.ToUpper)
		return i + 1, nil
	case k.Is('~'):
		transform(toggleCase)
		return i + 1, nil
	case k.Is('r'):
		if i+1 >= len(keys) || keys[i+1].Special != "" {
			return i + 1, errAt(k, "Visual replace requires a literal character")
		}
		c := string(keys[i+1].Char)
		transform(func(s string) string {
			return strings.Map(func(r rune) rune {
				if r == '\n' {
					return r
				}
				return []rune(c)[0]
			}, s)
		})
		return i + 2, nil
	case k.Is('p') || k.Is('P'):
		text := strings.Join(e.register, "\n")
		removed := e.spanText(from, to)
		e.change()
		e.replaceSpan(from, to, text)
		e.register, e.regLinewise = strings.Split(removed, "\n"), linewise
		e.endVisual()
		return i + 1, nil
	}
	if k.Is('g') && i+1 < len(keys) && keys[i+1].Special == "" {
		switch g := keys[i+1]; g.Char {
		case 'J':
			e.endVisual()
			e.Line = from.line
			e.join(max(to.line-from.line+1, 2), false)
			return i + 2, nil
		case 'u', 'U', '~':
			transform(caseOps[g.Char])
			return i + 2, nil
		}
	}
	if (k.Is('i') || k.Is('a')) && i+1 < len(keys) {
		// A text object selects it: iw, a", i( …; ip and ap whole lines.
		f, t, lines, ok := e.textObject(keys[i+1], k.Is('a'))
		if !ok {
			return i + 2, errAt(keys[i+1], "Text object %c%s not found", k.Char, keys[i+1].Display())
		}
		if lines {
			e.mode, e.anchor = VisualLine, f
			e.Line, e.Col = t.line, 0
			return i + 2, nil
		}
		e.anchor = f
		e.Line, e.Col = t.line, max(t.col-1, 0)
		if t.col == 0 && t.line > f.line {
			e.Line, e.Col = t.line-1, e.lineLen(t.line-1)
		}
		return i + 2, nil
	}
	count, j := readCount(keys, i)
	if j >= len(keys) {
		return j, nil
	}
	op := keys[j]
	if op.Special == "" {
		switch op.Char {
		case 'd', 'x', 'X', 'D', 'y', 'c', 's', 'S', 'C':
			e.endVisual()
			kind := 'd'
			switch op.Char {
			case 'y':
				kind = 'y'
			case 'c', 's', 'S', 'C':
				kind = 'c'
			}
			var err error
			if linewise {
				err = e.lineOp(kind, from.line, to.line)
			} else {
				err = e.charOp(kind, from, to)
			}
			if kind == 'y' {
				e.Status = "Yanked " + plural1(max(count, 1), "selection")
				e.Line, e.Col = from.line, from.col
				e.clamp()
			}
			return j + 1, err
		case '>', '<':
			next := j + 1
			if next < len(keys) && keys[next].Is(op.Char) {
				next++ // >> in visual mode indents once, as >
			}
			e.shift(op.Char, from.line, to.line)
			e.endVisual()
			e.Col = 0 // the cursor keeps its line, as in the reference
			return next, nil
		}
	}
	t, next, ok, err := e.motion(op, keys, j+1, count, false)
	if err != nil {
		return next, err
	}
	if !ok {
		return j + 1, errAt(op, "Unsupported command: %s", op.Display())
	}
	e.Line, e.Col = t.line, t.col
	e.clamp()
	return next, nil
}

// toggleCase swaps the case of every letter of s.
func toggleCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// plural1 is "1 selection" or "N selections".
func plural1(n int, noun string) string {
	return strconv.Itoa(n) + " " + noun + plural(n)
}
