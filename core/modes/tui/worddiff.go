package tui

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/tools/edit/diff"
)

// span is a piece of a changed line: changed pieces are drawn inverted.
type span struct {
	text    string
	changed bool
}

// wordDiff compares a removed line with the line that replaced it word
// by word, as omp's edit cards do: the lines are cut into words,
// whitespace runs and single other characters, the token sequences are
// diffed, and each side gets the pieces it kept and the pieces it
// changed. Whitespace between two changed pieces counts as changed (so a
// changed phrase is one inverted run), and the whitespace a side's first
// change starts with is not (indentation stays plain).
func wordDiff(old, new string) (o, n []span) {
	edits := diff.Lines(wordTokens(old), wordTokens(new))
	for _, e := range edits {
		switch e.Kind {
		case diff.Equal:
			o = appendSpan(o, e.Text, false)
			n = appendSpan(n, e.Text, false)
		case diff.Delete:
			o = appendSpan(o, e.Text, true)
		case diff.Insert:
			n = appendSpan(n, e.Text, true)
		}
	}
	return joinChanges(o), joinChanges(n)
}

// wordTokens cuts a line into words (letters, digits, underscores),
// whitespace runs and single other characters.
func wordTokens(s string) []string {
	var toks []string
	start, kind := 0, 0
	for i, r := range s {
		k := tokenKind(r)
		if i > start && (k != kind || k == 0) {
			toks = append(toks, s[start:i])
			start = i
		}
		kind = k
	}
	if start < len(s) {
		toks = append(toks, s[start:])
	}
	return toks
}

// tokenKind is 1 for word characters, 2 for whitespace and 0 for
// anything else (a token of its own).
func tokenKind(r rune) int {
	switch {
	case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
		return 1
	case unicode.IsSpace(r):
		return 2
	}
	return 0
}

// appendSpan adds text to spans, joining it to the last span when both
// are changed or both kept.
func appendSpan(spans []span, text string, changed bool) []span {
	if n := len(spans); n > 0 && spans[n-1].changed == changed {
		spans[n-1].text += text
		return spans
	}
	return append(spans, span{text: text, changed: changed})
}

// joinChanges marks kept whitespace between two changes as changed and
// takes the leading whitespace off the first change.
func joinChanges(spans []span) []span {
	var out []span
	for i, s := range spans {
		if !s.changed && i > 0 && i < len(spans)-1 && strings.TrimSpace(s.text) == "" {
			s.changed = true
		}
		out = appendSpan(out, s.text, s.changed)
	}
	for i, s := range out {
		if !s.changed {
			continue
		}
		trimmed := strings.TrimLeftFunc(s.text, unicode.IsSpace)
		if lead := s.text[:len(s.text)-len(trimmed)]; lead != "" {
			rest := []span{{text: lead}}
			if trimmed != "" {
				rest = append(rest, span{text: trimmed, changed: true})
			}
			out = append(out[:i:i], append(rest, out[i+1:]...)...)
		}
		break
	}
	return out
}

// wordDiffLine draws line i of a unified diff with its changed words
// inverted when it is one half of a lone pair — one removed line right
// before one added line, the only case omp highlights within lines; ok
// is false for every other line.
func (r *renderer) wordDiffLine(lines []string, i int) (string, bool) {
	removed := func(j int) bool {
		return j >= 0 && j < len(lines) && strings.HasPrefix(lines[j], "-") && !strings.HasPrefix(lines[j], "---")
	}
	added := func(j int) bool {
		return j >= 0 && j < len(lines) && strings.HasPrefix(lines[j], "+") && !strings.HasPrefix(lines[j], "+++")
	}
	pairAt := func(j int) bool { return removed(j) && added(j+1) && !removed(j-1) && !added(j+2) }
	var first int
	switch {
	case pairAt(i):
		first = i
	case pairAt(i - 1):
		first = i - 1
	default:
		return "", false
	}
	tab := func(s string) string { return strings.ReplaceAll(s, "\t", "    ") }
	o, n := wordDiff(tab(lines[first][1:]), tab(lines[first+1][1:]))
	spans, st, prefix := o, r.th.del, "-"
	if i != first {
		spans, st, prefix = n, r.th.add, "+"
	}
	var b strings.Builder
	b.WriteString(st.Render(prefix))
	for _, s := range spans {
		if s.changed {
			b.WriteString(st.Reverse(true).Render(s.text))
		} else {
			b.WriteString(st.Render(s.text))
		}
	}
	return ansi.Truncate(b.String(), max(10, r.width-3), "…"), true
}
