package tool

import (
	"context"
	"time"
)

// UI is what a front end with a user offers tools (and, later,
// extensions): dialogs that wait for an answer, and status updates. RPC
// mode implements it over extension_ui_request frames; the TUI will draw
// it. Dialogs return ok=false when the user cancelled, the timeout passed
// (0: none) or ctx ended.
type UI interface {
	Select(ctx context.Context, title string, options []string, timeout time.Duration) (choice string, ok bool)
	Confirm(ctx context.Context, title, message string, timeout time.Duration) bool
	Input(ctx context.Context, title, placeholder string, timeout time.Duration) (text string, ok bool)
	Editor(ctx context.Context, title, prefill string, timeout time.Duration) (text string, ok bool)
	Notify(message, level string)
	SetStatus(key, text string)
	SetWidget(key string, lines []string)
	SetTitle(title string)
	SetEditorText(text string)
}
