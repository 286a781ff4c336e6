package tui

import (
	"errors"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// editedMsg carries the text an external editor left in its file.
type editedMsg struct {
	text string
	err  error
	done func(text string) tea.Cmd // what to do with the text
}

// errNoEditor: neither $VISUAL nor $EDITOR names an editor.
var errNoEditor = errors.New("No editor configured: set $VISUAL or $EDITOR")

// editExternally hands the terminal to the user's editor on a temporary
// file holding text (named *suffix), and then gives done what the file
// holds. The editor runs through the shell, so $EDITOR may carry
// arguments ("code --wait").
func (m *model) editExternally(text, suffix string, done func(text string) tea.Cmd) tea.Cmd {
	ed := strings.TrimSpace(m.opts.Editor)
	if ed == "" {
		return m.printSection(m.r.warning(errNoEditor.Error()))
	}
	f, err := os.CreateTemp("", "gopi-*"+suffix)
	if err != nil {
		return m.printSection(m.r.errorLine("Could not make the file to edit: " + err.Error()))
	}
	path := f.Name()
	_, werr := f.WriteString(text)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(path)
		return m.printSection(m.r.errorLine("Could not make the file to edit: " + werr.Error()))
	}
	cmd := exec.Command("/bin/sh", "-c", ed+` "$1"`, "sh", path)
	if m.opts.Environ != nil {
		cmd.Env = m.opts.Environ
	}
	childproc.PrepareForeground(cmd)
	return tea.ExecProcess(cmd, func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return editedMsg{err: err, done: done}
		}
		data, rerr := os.ReadFile(path)
		return editedMsg{text: string(data), err: rerr, done: done}
	})
}

// onEdited passes an edited text on, or says why there is none.
func (m *model) onEdited(msg editedMsg) tea.Cmd {
	if msg.err != nil {
		return m.printSection(m.r.errorLine("The editor failed: " + msg.err.Error()))
	}
	return msg.done(msg.text)
}
