package vim

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Viewport sizes, in lines: a plain open shows a long stretch, an editing
// call a short one around the cursor.
const (
	OpenViewLines    = 80
	DefaultViewLines = 10
)

// Display widths: lines wider than this are cut around the cursor.
const (
	viewWidth  = 140
	focusWidth = 100
	tabShown   = "→"
	cursorMark = "▏"
)

// EnsureCursorVisible scrolls the default viewport so the cursor is in it.
func (e *Engine) EnsureCursorVisible() {
	line := e.Line + 1
	switch {
	case e.ViewStart < 1 || line < e.ViewStart:
		e.ViewStart = line
	case line > e.ViewStart+DefaultViewLines-1:
		e.ViewStart = max(1, line-DefaultViewLines+1)
	}
}

// CenterOnCursor puts the cursor in the middle of the default viewport.
func (e *Engine) CenterOnCursor() {
	total := max(len(e.Lines), 1)
	size := max(1, min(DefaultViewLines, total))
	maxStart := max(1, total-size+1)
	e.ViewStart = max(1, min(e.Line+1-size/2, maxStart))
}

// View is what a render shows besides the engine's own state.
type View struct {
	File    string // the path as shown
	Lines   int    // viewport size
	Status  string // overrides the engine's status (an error)
	ErrorAt *Key   // the key an error is tied to
	Diff    string // the change of the call, as unified hunks
	Closed  bool
}

// Render is the text the model gets back: a header, the cursor, the last
// command and status, then the cursor's line and a viewport of numbered
// lines ("▏" marks the cursor, "→" a tab), and the call's diff.
func (e *Engine) Render(v View) string {
	modified := "[ ]"
	if e.Modified {
		modified = "[+]"
	}
	total := len(e.Lines)
	line, col := e.Line+1, e.Col+1
	var out []string
	out = append(out, fmt.Sprintf("%s %s %s L%d:%d (%d lines)", v.File, modified, e.mode, line, col, total))
	out = append(out, fmt.Sprintf("[CURSOR] Line %d, Column %d (of %d lines)", line, col, total))
	if e.LastCommand != "" {
		out = append(out, "Command: "+truncate(e.LastCommand, 80))
	}
	status := e.Status
	if v.Status != "" {
		status = v.Status
	}
	if status != "" {
		out = append(out, "Status: "+status)
	}
	if v.ErrorAt != nil {
		out = append(out, fmt.Sprintf("Error location: sequence %d, token %d", v.ErrorAt.Seq+1, v.ErrorAt.Offset+1))
	}
	if p := e.pendingLine(); p != "" {
		out = append(out, p)
	}
	if !v.Closed {
		start, end := viewport(line, total, v.Lines, e.ViewStart)
		pad := len(fmt.Sprint(end))
		text, caret := cropAround(e.Lines[e.Line], e.Col, focusWidth)
		prefix := frameLine(">", line, "", pad)
		out = append(out, "Focus:", prefix+text, strings.Repeat(" ", utf8.RuneCountInString(prefix)+1+caret)+"^")
		out = append(out, "Viewport:")
		for l := start; l <= end; l++ {
			raw := e.Lines[l-1]
			if l == line {
				shown, at := cropAround(raw, e.Col, viewWidth)
				rs := []rune(shown)
				at = min(at, len(rs))
				out = append(out, frameLine(">", l, string(rs[:at])+cursorMark+string(rs[at:]), pad))
				continue
			}
			marker := " "
			if e.selected(l - 1) {
				marker = "*"
			}
			out = append(out, frameLine(marker, l, truncate(strings.ReplaceAll(raw, "\t", tabShown), viewWidth), pad))
		}
	}
	text := strings.Join(out, "\n")
	if v.Diff != "" {
		text += "\n\nDiff:\n" + v.Diff
	}
	return text
}

// viewport is the first and last line (1-based) shown for size lines
// around the cursor line, starting at preferred when it fits.
func viewport(cursor, total, size, preferred int) (int, int) {
	total = max(total, 1)
	size = max(1, min(size, total))
	maxStart := max(1, total-size+1)
	start := max(1, min(cursor-size/2, maxStart))
	if preferred > 0 {
		start = max(1, min(preferred, maxStart))
	}
	if cursor < start {
		start = cursor
	}
	if cursor > start+size-1 {
		start = max(1, cursor-size+1)
	}
	return start, min(total, start+size-1)
}

// frameLine is a numbered line: the marker and number right-aligned in a
// gutter, "│", the text.
func frameLine(marker string, n int, text string, pad int) string {
	gutter := strings.TrimSpace(marker) + fmt.Sprint(n)
	return fmt.Sprintf("%*s│%s", pad+1, gutter, text)
}

// cropAround shows line (tabs as "→") cut to width around column col,
// "…" marking cut ends, and returns where col lands in the result.
func cropAround(line string, col, width int) (string, int) {
	rs := []rune(strings.ReplaceAll(line, "\t", tabShown))
	col = min(col, len(rs))
	if len(rs) <= width {
		return string(rs), col
	}
	start := max(0, min(col-width/2, len(rs)-width))
	window := slices.Clone(rs[start : start+width])
	if start > 0 {
		window[0] = '…'
	}
	if start+width < len(rs) {
		window[len(window)-1] = '…'
	}
	return string(window), col - start
}

// truncate cuts s to width characters, ending in "…" when cut.
func truncate(s string, width int) string {
	rs := []rune(s)
	if len(rs) <= width {
		return s
	}
	return string(rs[:width-1]) + "…"
}

// selected reports whether line l (0-based) is in the visual selection.
func (e *Engine) selected(l int) bool {
	if e.mode != Visual && e.mode != VisualLine {
		return false
	}
	lo, hi := min(e.anchor.line, e.Line), max(e.anchor.line, e.Line)
	return l >= lo && l <= hi
}
