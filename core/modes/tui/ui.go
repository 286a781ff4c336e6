package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/tool"
)

// dialogUI is the tool.UI of the interactive mode: the ask tool's
// questions (and, later, extensions' dialogs) open over the editor. A
// dialog waits in the tool's goroutine for the user's answer, its
// timeout or the tool's ctx; the model only draws it and sends the answer
// back.
type dialogUI struct {
	send     func(tea.Msg)
	nextID   atomic.Int64
	detached chan struct{} // closed by detach: nobody answers dialogs any more (nil: never)
	once     sync.Once
	theme    atomic.Value // string: the theme in use; unset or "" when colours are off (no themes offered)
}

// detach makes every dialog, open or to come, fail as dismissed: the UI is
// gone (/background).
func (u *dialogUI) detach() {
	u.once.Do(func() {
		if u.detached != nil {
			close(u.detached)
		}
	})
}

var (
	_ tool.UI      = (*dialogUI)(nil)
	_ tool.ThemeUI = (*dialogUI)(nil)
)

// Theme is the name of the theme in use ("" when colours are off).
func (u *dialogUI) Theme() string {
	name, _ := u.theme.Load().(string)
	return name
}

// Themes lists the themes an extension may switch to: dark and light,
// none when colours are off.
func (u *dialogUI) Themes() []string {
	if u.Theme() == "" {
		return nil
	}
	return []string{"dark", "light"}
}

// SetTheme switches to the dark or light theme (until the terminal
// reports another background colour).
func (u *dialogUI) SetTheme(name string) error {
	if u.Theme() == "" {
		return errors.New("colours are off: there is no theme to switch")
	}
	if name != "dark" && name != "light" {
		return fmt.Errorf("no theme named %q: the themes are dark and light", name)
	}
	u.theme.Store(name)
	u.send(uiMsg{theme: &name})
	return nil
}

// Dialog kinds.
const (
	dialogSelect  = "select"
	dialogConfirm = "confirm"
	dialogInput   = "input"
	dialogEditor  = "editor"
	dialogSecret  = "secret" // an input line shown masked
)

// dialogMsg opens a dialog.
type dialogMsg struct {
	id      int64
	kind    string
	title   string
	message string   // confirm's question
	options []string // select's choices
	prefill string   // editor's text, input's placeholder
	reply   chan<- dialogAnswer
}

// dialogCloseMsg closes a dialog that ended without the user (timeout,
// ctx).
type dialogCloseMsg struct{ id int64 }

// dialogAnswer is what the user did with a dialog.
type dialogAnswer struct {
	text string
	yes  bool
	err  error // tool.ErrDialogCancelled when dismissed
}

// ask opens a dialog and waits for its answer.
func (u *dialogUI) ask(ctx context.Context, d dialogMsg, timeout time.Duration) (dialogAnswer, error) {
	reply := make(chan dialogAnswer, 1)
	d.id, d.reply = u.nextID.Add(1), reply
	u.send(d)
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case a := <-reply:
		return a, a.err
	case <-u.detached:
		return dialogAnswer{}, tool.ErrDialogCancelled
	case <-expired:
		u.send(dialogCloseMsg{d.id})
		return dialogAnswer{}, tool.ErrDialogTimedOut
	case <-ctx.Done():
		u.send(dialogCloseMsg{d.id})
		return dialogAnswer{}, ctx.Err()
	}
}

// Select asks to pick one of options.
func (u *dialogUI) Select(ctx context.Context, title string, options []string, timeout time.Duration) (string, error) {
	a, err := u.ask(ctx, dialogMsg{kind: dialogSelect, title: title, options: options}, timeout)
	return a.text, err
}

// Confirm asks a yes/no question.
func (u *dialogUI) Confirm(ctx context.Context, title, message string, timeout time.Duration) (bool, error) {
	a, err := u.ask(ctx, dialogMsg{kind: dialogConfirm, title: title, message: message}, timeout)
	return a.yes, err
}

// Input asks for one line of text.
func (u *dialogUI) Input(ctx context.Context, title, placeholder string, timeout time.Duration) (string, error) {
	a, err := u.ask(ctx, dialogMsg{kind: dialogInput, title: title, prefill: placeholder}, timeout)
	return a.text, err
}

// Secret asks for one line that is not shown as it is typed (an API key).
func (u *dialogUI) Secret(ctx context.Context, title string) (string, error) {
	a, err := u.ask(ctx, dialogMsg{kind: dialogSecret, title: title}, 0)
	return a.text, err
}

// Editor asks for text, starting from prefill.
func (u *dialogUI) Editor(ctx context.Context, title, prefill string, timeout time.Duration) (string, error) {
	a, err := u.ask(ctx, dialogMsg{kind: dialogEditor, title: title, prefill: prefill}, timeout)
	return a.text, err
}

// uiMsg carries the UI's fire-and-forget calls.
type uiMsg struct {
	notify, level     string
	statusKey, status string
	widgetKey         string
	widget            []string
	title             *string
	editorText        *string
	theme             *string // SetTheme's
}

// Notify shows a message for a few seconds.
func (u *dialogUI) Notify(message, level string) { u.send(uiMsg{notify: message, level: level}) }

// SetStatus sets (or with "" clears) a named entry of the footer.
func (u *dialogUI) SetStatus(key, text string) { u.send(uiMsg{statusKey: key, status: text}) }

// SetWidget shows (or with no lines removes) lines above the editor.
func (u *dialogUI) SetWidget(key string, lines []string) {
	u.send(uiMsg{widgetKey: key, widget: append([]string(nil), lines...)})
}

// SetTitle sets the terminal window's title ("" restores gopi's).
func (u *dialogUI) SetTitle(title string) { u.send(uiMsg{title: &title}) }

// SetEditorText puts text into the editor.
func (u *dialogUI) SetEditorText(text string) { u.send(uiMsg{editorText: &text}) }

// dialog is the open dialog's state in the model.
type dialog struct {
	msg dialogMsg
	ta  textarea.Model // input and editor
}

// openDialog shows a dialog: a picker for select and confirm, a text
// area for input and editor. Another dialog waits until it closes.
func (m *model) openDialog(d dialogMsg) tea.Cmd {
	if m.dialog != nil {
		m.dialogs = append(m.dialogs, d)
		return nil
	}
	if m.picker != nil && m.picker.onCancel != nil {
		m.picker.onCancel()
	}
	m.picker = nil
	answer := func(a dialogAnswer) {
		d.reply <- a
		m.closeDialog(d.id)
	}
	switch d.kind {
	case dialogSelect, dialogConfirm:
		var items []pickItem
		if d.kind == dialogConfirm {
			items = []pickItem{{label: "Yes", value: true}, {label: "No", value: false}}
		} else {
			for _, o := range d.options {
				items = append(items, pickItem{label: clean(o), value: o})
			}
		}
		title := clean(d.title)
		if d.message != "" {
			title += "\n" + clean(d.message)
		}
		m.picker = &picker{title: title, items: items, dialog: d.id,
			onPick: func(it pickItem) tea.Cmd {
				if yes, ok := it.value.(bool); ok {
					answer(dialogAnswer{yes: yes})
				} else {
					answer(dialogAnswer{text: it.value.(string)})
				}
				return nil
			},
			onCancel: func() { answer(dialogAnswer{err: tool.ErrDialogCancelled}) },
		}
		if m.isPlanReviewMsg(d) {
			m.picker.hint = m.planReviewHint()
		}
		m.dialog = &dialog{msg: d}
	default:
		ta := textarea.New()
		steadyCursor(&ta)
		ta.ShowLineNumbers = false
		ta.Prompt = "│ "
		ta.SetWidth(max(20, m.width-2))
		ta.CharLimit = 0
		if d.kind == dialogInput || d.kind == dialogSecret {
			ta.Placeholder = d.prefill
			ta.SetHeight(1)
		} else {
			ta.SetValue(d.prefill)
			ta.SetHeight(min(12, max(3, m.height/3)))
		}
		ta.Focus()
		m.dialog = &dialog{msg: d, ta: ta}
	}
	m.setNotice("")
	return nil
}

// closeDialog removes dialog id (answered, timed out or ended) and opens
// the next one waiting.
func (m *model) closeDialog(id int64) tea.Cmd {
	for i, d := range m.dialogs {
		if d.id == id {
			m.dialogs = append(m.dialogs[:i:i], m.dialogs[i+1:]...)
			return nil
		}
	}
	if m.dialog == nil || m.dialog.msg.id != id {
		return nil
	}
	m.dialog = nil
	if m.picker != nil && m.picker.dialog == id {
		m.picker = nil
	}
	if len(m.dialogs) > 0 {
		next := m.dialogs[0]
		m.dialogs = m.dialogs[1:]
		return m.openDialog(next)
	}
	return nil
}

// dialogKey handles a key in an input or editor dialog: Enter sends the
// line (input), Ctrl+S or Alt+Enter sends the text (editor), Esc
// dismisses.
func (m *model) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dialog
	send := func(a dialogAnswer) tea.Cmd {
		d.msg.reply <- a
		return m.closeDialog(d.msg.id)
	}
	switch k.String() {
	case "esc", "ctrl+c":
		return send(dialogAnswer{err: tool.ErrDialogCancelled})
	case "enter":
		if d.msg.kind == dialogInput || d.msg.kind == dialogSecret {
			return send(dialogAnswer{text: d.ta.Value()})
		}
	case "ctrl+s", "alt+enter":
		return send(dialogAnswer{text: d.ta.Value()})
	}
	var cmd tea.Cmd
	d.ta, cmd = d.ta.Update(k)
	return cmd
}

// dialogView draws an input or editor dialog.
func (m *model) dialogView() string {
	d := m.dialog
	hint := "enter sends · esc dismisses"
	if d.msg.kind == dialogEditor {
		hint = "ctrl+s or alt+enter sends · enter new line · esc dismisses"
	}
	field := d.ta.View()
	if d.msg.kind == dialogSecret {
		field = "│ " + strings.Repeat("•", len([]rune(d.ta.Value())))
	}
	return m.th.dim.Render(strings.Repeat("─", max(10, min(m.width-1, 200)))) + "\n" +
		m.th.title.Render(clean(d.msg.title)) + "\n" + field + "\n" + m.th.dim.Render(hint)
}

// onUI applies the UI's fire-and-forget calls.
func (m *model) onUI(msg uiMsg) tea.Cmd {
	switch {
	case msg.notify != "":
		m.setNotice(msg.notify)
	case msg.statusKey != "":
		if msg.status == "" {
			delete(m.extStatus, msg.statusKey)
		} else {
			m.extStatus[msg.statusKey] = msg.status
		}
	case msg.widgetKey != "":
		if len(msg.widget) == 0 {
			delete(m.widgets, msg.widgetKey)
		} else {
			m.widgets[msg.widgetKey] = msg.widget
		}
	case msg.title != nil:
		m.extTitle = *msg.title
	case msg.editorText != nil:
		m.ed.set(*msg.editorText)
	case msg.theme != nil:
		m.setTheme(*msg.theme == "dark")
	}
	return nil
}
