package tui

import "strings"

// beforeCursor is the text of the cursor's line up to the cursor.
func (e *editor) beforeCursor() string {
	lines := strings.Split(e.ta.Value(), "\n")
	row := min(e.ta.Line(), len(lines)-1)
	line := []rune(lines[row])
	return string(line[:min(e.ta.Column(), len(line))])
}

// replaceBeforeCursor replaces word, which ends the text before the
// cursor, with text, and leaves the cursor after it.
func (e *editor) replaceBeforeCursor(word, text string) {
	lines := strings.Split(e.ta.Value(), "\n")
	row := min(e.ta.Line(), len(lines)-1)
	line := []rune(lines[row])
	col := min(e.ta.Column(), len(line))
	before, after := string(line[:col]), string(line[col:])
	if !strings.HasSuffix(before, word) {
		return
	}
	before = strings.TrimSuffix(before, word) + text
	lines[row] = before + after
	e.ta.SetValue(strings.Join(lines, "\n")) // the cursor is on the last line now
	if row == len(lines)-1 {
		e.ta.SetCursorColumn(len([]rune(before)))
		return
	}
	e.ta.MoveToBegin()
	for range row {
		e.ta.CursorDown()
	}
	e.ta.SetCursorColumn(len([]rune(before)))
}
