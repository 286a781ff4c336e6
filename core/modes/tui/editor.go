package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
)

// pasteCollapse is when a paste is shown as a marker instead of its text:
// more lines or bytes than this.
const (
	pasteCollapseLines = 10
	pasteCollapseBytes = 2000
	editorMaxHeight    = 10
	historyLimit       = 500
)

// editor is the input: a multi-line text area with the prompt history
// and large pastes kept out of sight behind markers.
type editor struct {
	ta      textarea.Model
	history []string // oldest first
	histPos int      // index in history while browsing; len(history) otherwise
	draft   string   // the text typed before browsing began
	pastes  map[string]string
	pasteN  int
	save    func(text string) // keeps a sent message across runs; nil for none
}

func newEditor(th theme) editor {
	ta := textarea.New()
	ta.Prompt = "› "
	ta.Placeholder = "Message gopi · / commands · ! shell · Shift+Enter new line"
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = editorMaxHeight
	ta.SetHeight(1)
	// Enter sends (the model handles it); these insert a new line.
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("shift+enter", "ctrl+j"))
	// Ctrl+P and Ctrl+N belong to the UI (model cycling), not to the
	// editor's line movement.
	ta.KeyMap.LinePrevious = key.NewBinding(key.WithKeys("up"))
	ta.KeyMap.LineNext = key.NewBinding(key.WithKeys("down"))
	st := textarea.DefaultStyles(th.name != "light")
	st.Focused.CursorLine = st.Focused.CursorLine.UnsetBackground()
	st.Cursor.Blink = false // see steadyCursor
	ta.SetStyles(st)
	ta.Focus()
	return editor{ta: ta, pastes: map[string]string{}}
}

// text returns what the user typed, pasted blocks put back in.
func (e *editor) text() string {
	v := e.ta.Value()
	for marker, pasted := range e.pastes {
		v = strings.ReplaceAll(v, marker, pasted)
	}
	return v
}

// empty reports whether nothing is typed.
func (e *editor) empty() bool { return strings.TrimSpace(e.ta.Value()) == "" }

// clear empties the editor and forgets its pastes.
func (e *editor) clear() {
	e.ta.Reset()
	clear(e.pastes)
	e.histPos = len(e.history)
}

// set replaces the text (a message given back for editing).
func (e *editor) set(text string) {
	e.clear()
	e.ta.SetValue(text)
	e.ta.MoveToEnd()
}

// remember adds a sent message to the history (and to the prompt
// history across runs, when there is one).
func (e *editor) remember(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if n := len(e.history); n == 0 || e.history[n-1] != text {
		e.history = append(e.history, text)
		if len(e.history) > historyLimit {
			e.history = e.history[len(e.history)-historyLimit:]
		}
		if e.save != nil {
			e.save(text)
		}
	}
	e.histPos = len(e.history)
}

// older shows the previous history entry; false when there is none or
// the cursor is not on the first line.
func (e *editor) older() bool {
	if e.ta.Line() > 0 || e.histPos == 0 {
		return false
	}
	if e.histPos == len(e.history) {
		e.draft = e.ta.Value()
	}
	e.histPos--
	e.ta.SetValue(e.history[e.histPos])
	e.ta.MoveToBegin()
	return true
}

// newer shows the next history entry, then the draft; false when not
// browsing or the cursor is not on the last line.
func (e *editor) newer() bool {
	if e.histPos >= len(e.history) || e.ta.Line() < e.ta.LineCount()-1 {
		return false
	}
	e.histPos++
	if e.histPos == len(e.history) {
		e.ta.SetValue(e.draft)
	} else {
		e.ta.SetValue(e.history[e.histPos])
	}
	e.ta.MoveToEnd()
	return true
}

// paste inserts pasted text; a large paste becomes a marker
// ("[paste #1: 120 lines]") and its text is put back when sending.
func (e *editor) paste(text string) {
	// Terminals paste line ends as CR.
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Count(text, "\n") + 1
	if lines <= pasteCollapseLines && len(text) <= pasteCollapseBytes {
		e.ta.InsertString(text)
		return
	}
	e.pasteN++
	marker := fmt.Sprintf("[paste #%d: %d lines, %d bytes]", e.pasteN, lines, len(text))
	e.pastes[marker] = text
	e.ta.InsertString(marker)
}

// setWidth fits the editor to the terminal.
func (e *editor) setWidth(w int) { e.ta.SetWidth(max(10, w)) }

// restyle applies a new theme's colours.
func (e *editor) restyle(th theme) {
	st := textarea.DefaultStyles(th.name != "light")
	st.Focused.CursorLine = st.Focused.CursorLine.UnsetBackground()
	st.Cursor.Blink = false // see steadyCursor
	e.ta.SetStyles(st)
}
