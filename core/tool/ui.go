package tool

import (
	"context"
	"errors"
	"time"
)

// Why a dialog ended without an answer. The dialogs of a UI return one of
// these, or ctx's error when ctx ended first; callers tell them apart with
// errors.Is (a timeout usually means "take the default", a dismissal "the
// user said no").
var (
	// ErrDialogCancelled: the user dismissed the dialog (or the front end
	// went away).
	ErrDialogCancelled = errors.New("the user dismissed the dialog")
	// ErrDialogTimedOut: the dialog's timeout passed with no answer.
	ErrDialogTimedOut = errors.New("the dialog timed out without an answer")
)

// UI is what a front end with a user offers tools (and, later,
// extensions): dialogs that wait for an answer, and status updates. RPC
// mode implements it over extension_ui_request frames; the TUI will draw
// it. A dialog's timeout of 0 means none. Without an answer a dialog
// returns ErrDialogCancelled, ErrDialogTimedOut or ctx's error.
type UI interface {
	Select(ctx context.Context, title string, options []string, timeout time.Duration) (choice string, err error)
	// Confirm returns false, nil when the user declined.
	Confirm(ctx context.Context, title, message string, timeout time.Duration) (yes bool, err error)
	Input(ctx context.Context, title, placeholder string, timeout time.Duration) (text string, err error)
	Editor(ctx context.Context, title, prefill string, timeout time.Duration) (text string, err error)
	Notify(message, level string)
	SetStatus(key, text string)
	SetWidget(key string, lines []string)
	SetTitle(title string)
	SetEditorText(text string)
}

// TerminalUI is implemented by front ends that can show a terminal and
// pass the user's keystrokes to it (the bash tool's PTY mode). A UI
// without it still gets PTY runs, without input.
type TerminalUI interface {
	// OpenTerminal shows a terminal titled title for one command; ctx ends
	// with the command.
	OpenTerminal(ctx context.Context, title string) (Terminal, error)
}

// ThemeUI is implemented by front ends whose colour theme can be listed
// and switched by name (extensions' ctx.ui.setTheme). A UI without it has
// no themes to offer: switching fails with a message.
type ThemeUI interface {
	// Theme is the name of the theme in use.
	Theme() string
	// Themes lists the names SetTheme accepts.
	Themes() []string
	// SetTheme switches to the named theme.
	SetTheme(name string) error
}

// Terminal is one open terminal of a TerminalUI.
type Terminal interface {
	// Write receives the command's output as the terminal shows it.
	Write(p []byte) (int, error)
	// Input delivers what the user types; it is closed when the user
	// dismisses the terminal, which ends the command.
	Input() <-chan []byte
	// Size is the terminal's size in columns and rows (0, 0: 80x24).
	Size() (cols, rows int)
	// Close hides the terminal once the command has ended.
	Close() error
}
