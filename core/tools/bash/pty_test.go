package bash

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// fakeUI is a UI without dialogs.
type fakeUI struct{}

func (fakeUI) Select(context.Context, string, []string, time.Duration) (string, error) {
	return "", tool.ErrDialogCancelled
}
func (fakeUI) Confirm(context.Context, string, string, time.Duration) (bool, error) {
	return false, tool.ErrDialogCancelled
}
func (fakeUI) Input(context.Context, string, string, time.Duration) (string, error) {
	return "", tool.ErrDialogCancelled
}
func (fakeUI) Editor(context.Context, string, string, time.Duration) (string, error) {
	return "", tool.ErrDialogCancelled
}
func (fakeUI) Notify(string, string)      {}
func (fakeUI) SetStatus(string, string)   {}
func (fakeUI) SetWidget(string, []string) {}
func (fakeUI) SetTitle(string)            {}
func (fakeUI) SetEditorText(string)       {}

// typingUI is a UI with a terminal that answers prompts: when the screen
// shows a key of answers, it types the value.
type typingUI struct {
	fakeUI
	answers map[string]string
	dismiss string // close the terminal when the screen shows this

	mu     sync.Mutex
	screen strings.Builder
	title  string
	closed bool
}

func (u *typingUI) OpenTerminal(ctx context.Context, title string) (tool.Terminal, error) {
	u.title = title
	return &typingTerm{ui: u, in: make(chan []byte, 16)}, nil
}

type typingTerm struct {
	ui   *typingUI
	in   chan []byte
	done bool
}

func (t *typingTerm) Write(p []byte) (int, error) {
	u := t.ui
	u.mu.Lock()
	defer u.mu.Unlock()
	u.screen.Write(p)
	for prompt, answer := range u.answers {
		if strings.Contains(u.screen.String(), prompt) {
			delete(u.answers, prompt)
			t.in <- []byte(answer)
		}
	}
	if u.dismiss != "" && strings.Contains(u.screen.String(), u.dismiss) && !t.done {
		t.done = true
		close(t.in)
	}
	return len(p), nil
}

func (t *typingTerm) Input() <-chan []byte { return t.in }
func (t *typingTerm) Size() (int, int)     { return 100, 30 }
func (t *typingTerm) Close() error {
	t.ui.mu.Lock()
	t.ui.closed = true
	t.ui.mu.Unlock()
	return nil
}

func TestBashPTYTyping(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	ui := &typingUI{answers: map[string]string{"name? ": "gopi\r", "again? ": "yes\r"}}
	env.UI = ui
	o := callTool(t, env, `{"command": "read -p 'name? ' n; read -p 'again? ' a; echo \"hi $n $a\"; stty size", "pty": true}`)
	if o.isError || !strings.Contains(o.text, "hi gopi yes\n") || !strings.Contains(o.text, "30 100\n") || strings.Contains(o.text, "\r") {
		t.Fatalf("%q", o.text)
	}
	if ui.title != "Console" || !ui.closed {
		t.Fatal(ui.title, ui.closed)
	}
	if d := env.tool().Definition(); !strings.Contains(d.Description, "pty: true") {
		t.Fatal("pty not described with a UI")
	}
}

func TestBashPTYDismiss(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.UI = &typingUI{dismiss: "waiting"}
	start := time.Now()
	o := callTool(t, env, `{"command": "echo waiting; sleep 30", "pty": true}`)
	if !o.isError || !strings.HasPrefix(o.text, "waiting\n") || !strings.HasSuffix(o.text, cancelledText) || time.Since(start) > 5*time.Second {
		t.Fatalf("%q", o.text)
	}
}

func TestBashPTYModes(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	tty := `{"command": "if [ -t 1 ]; then echo tty; else echo pipe; fi; exit 4", "pty": true}`
	// No UI: pty is ignored.
	if o := callTool(t, env, tty); o.text != "pipe\n\n"+shellEndedNotice+"\n\nCommand exited with code 4" {
		t.Fatalf("%q", o.text)
	}
	// A UI without a terminal still gets a terminal, without input.
	env.UI = fakeUI{}
	if o := callTool(t, env, tty); o.text != "tty\n\nCommand exited with code 4" {
		t.Fatalf("%q", o.text)
	}
	if o := callTool(t, env, `{"command": "sleep 10", "pty": true, "timeout": 1}`); !strings.HasSuffix(o.text, "Command timed out after 1 seconds") {
		t.Fatalf("%q", o.text)
	}
	// PI_NO_PTY=1 turns it off.
	env.Settings.Shell.NoPTY = true
	if o := callTool(t, env, tty); !strings.HasPrefix(o.text, "pipe\n") {
		t.Fatalf("%q", o.text)
	}
}

func TestBashShellCannotStart(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	notExec := filepath.Join(t.TempDir(), "bash")
	os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644)
	env.Settings.Shell.Path = notExec
	if o := callTool(t, env, `{"command": "true"}`); !o.isError || !strings.HasPrefix(o.text, "Cannot run the command: start shell "+notExec) {
		t.Fatalf("%q", o.text)
	}
	env.UI = fakeUI{}
	if o := callTool(t, env, `{"command": "true", "pty": true}`); !o.isError || !strings.HasPrefix(o.text, "PTY error: start a terminal for "+notExec) || !strings.HasSuffix(o.text, "\n\nCommand failed: missing exit status") {
		t.Fatalf("%q", o.text)
	}
	env2 := newEnv(t)
	env2.Settings.Shell.Path = filepath.Join(t.TempDir(), "missing")
	if o := callTool(t, env2, `{"command": "true"}`); !o.isError || !strings.Contains(o.text, "shellPath") {
		t.Fatalf("%q", o.text)
	}
}
