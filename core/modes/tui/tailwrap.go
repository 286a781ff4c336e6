package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tailWrap wraps the unfinished tail of a streamed answer for the live
// view, and keeps what it wrapped from one frame to the next: the text
// only grows at its end, and with greedy wrapping every row but the last
// is final once a later row began (a row ends where the next word did
// not fit, and that word can only grow). So a frame wraps only the last
// row again and the text added since, and its cost does not grow with the
// length of the tail (a long paragraph, a code block still open).
//
// Rows break at spaces; a word wider than the row is cut. The result is
// the same as wrapping the whole text at once (wrapRows), which the tests
// check on every prefix.
type tailWrap struct {
	key   [2]int // which text: the stream's block and offset (another starts over)
	width int
	rows  []string // final rows, the newest last (at most tailKeepRows)
	done  int      // bytes of the text the final rows cover
}

// tailKeepRows bounds the final rows kept: the live view shows only the
// last few.
const tailKeepRows = 256

// update wraps text at width and returns its last n rows. The text of the
// same key only grows at its end.
func (t *tailWrap) update(key [2]int, text string, width, n int) []string {
	if key != t.key || width != t.width || len(text) < t.done {
		*t = tailWrap{key: key, width: width}
	}
	rest, starts := wrapRows(text[t.done:], width)
	// All rows but the last are final; the last starts where the next
	// frame wraps again.
	if k := len(rest) - 1; k > 0 {
		t.rows = append(t.rows, rest[:k]...)
		t.done += starts[k]
		if over := len(t.rows) - tailKeepRows; over > 0 {
			t.rows = append(t.rows[:0], t.rows[over:]...)
		}
		rest = rest[k:]
	}
	out := make([]string, 0, n)
	if need := n - len(rest); need > 0 {
		out = append(out, t.rows[max(0, len(t.rows)-need):]...)
	}
	out = append(out, rest[max(0, len(rest)-n):]...)
	return out
}

// wrapRows wraps plain text to width: each line on rows that break at
// spaces (the spaces at a break dropped), a word wider than the row cut.
// starts[i] is the byte offset in text where row i begins: a row that
// starts a line begins right after its newline.
func wrapRows(text string, width int) (rows []string, starts []int) {
	width = max(1, width)
	pos := 0
	for {
		nl := strings.IndexByte(text[pos:], '\n')
		end := len(text)
		if nl >= 0 {
			end = pos + nl
		}
		rows, starts = wrapLine(text[pos:end], pos, width, rows, starts)
		if nl < 0 {
			return rows, starts
		}
		pos = end + 1
	}
}

// wrapLine appends the rows of one line (no newline in it) that begins at
// byte base of the text. Leading spaces of the line stay (indented code);
// the spaces where a row breaks go.
func wrapLine(line string, base, width int, rows []string, starts []int) ([]string, []int) {
	var row strings.Builder
	first := len(rows)
	rowStart, rowWidth := base, 0
	emit := func(next int) {
		rows, starts = append(rows, row.String()), append(starts, rowStart)
		row.Reset()
		rowStart, rowWidth = next, 0
	}
	for i := 0; i < len(line); {
		j := i
		for j < len(line) && line[j] == ' ' {
			j++
		}
		k := j
		for k < len(line) && line[k] != ' ' {
			k++
		}
		spaces, word := line[i:j], line[j:k]
		if w := rowWidth + len(spaces) + ansi.StringWidth(word); w <= width {
			row.WriteString(spaces)
			row.WriteString(word)
			rowWidth = w
			i = k
			continue
		}
		// The word does not fit: it starts a row (the line's first
		// keeps its indentation when there is room), cut when it is wider
		// than one.
		if rowWidth > 0 {
			emit(base + j)
		} else if len(spaces) < width {
			row.WriteString(spaces)
			rowWidth = len(spaces)
		}
		for at := j; at < k; {
			part := ansi.Truncate(line[at:k], width-rowWidth, "")
			if part == "" {
				if rowWidth > 0 {
					emit(base + at)
					continue
				}
				_, size := utf8.DecodeRuneInString(line[at:k])
				part = line[at : at+size] // one character wider than a row
			}
			row.WriteString(part)
			rowWidth += ansi.StringWidth(part)
			if at += len(part); at < k {
				emit(base + at)
			}
		}
		i = k
	}
	if row.Len() > 0 || len(rows) == first {
		rows, starts = append(rows, row.String()), append(starts, rowStart)
	}
	return rows, starts
}
