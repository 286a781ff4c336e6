package tui

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/fscache"
)

// Options configure Run.
type Options struct {
	Input   io.Reader // the terminal's input
	Output  io.Writer // the terminal
	Environ []string  // the environment the terminal is described by (TERM, COLORTERM, …)
	Cwd     string    // the working directory, for the footer, @file completion and attachments
	Home    string    // the user's home directory, for @~/… attachments
	// ScanCache is the scan cache @file completion goes through: the
	// session's own (its tools' walks and completion share one scan, and
	// writes invalidate it); nil walks afresh on every completion.
	ScanCache fscache.Scanner
	// History keeps the messages sent across runs and projects (Up/Down,
	// Ctrl+R); nil keeps them for this run only.
	History  PromptHistory
	Messages []string // messages to send first, in order (from the command line)
	NoColor  bool     // NO_COLOR: no colours at all
	// Record, when set, collects every printed block without colours
	// (tests read the transcript from it).
	Record *[]string
	// WindowSize, when set, is used instead of asking the terminal.
	Width, Height int
	// Commands are extensions' slash commands; one named like a built-in
	// command is left out with a warning.
	Commands []ExtCommand
	// Shortcuts are extensions' key bindings; the interactive mode's own
	// keys win over them.
	Shortcuts []ExtShortcut
	// Renderers draw extensions' custom messages by customType: the text
	// shown under the message's label (an error falls back to the
	// message's own text).
	Renderers map[string]func(ctx context.Context, m *message.Custom, expanded bool, width int) (string, error)
	// ToolRenderers draw extension and custom tools' cards by tool name
	// (an error falls back to the usual card).
	ToolRenderers map[string]ToolRenderer
	// Logins are what /login and /logout use (nil: they say logins are
	// unavailable).
	Logins Logins
	// Editor is the user's editor command ($VISUAL, else $EDITOR) for
	// /todo edit and for ctrl+g on the plan under review; "" when none is
	// set (no editor is offered).
	Editor string
	// Extensions are the paths of the extensions loaded (/extensions).
	Extensions []string
	// Welcome prints the welcome block first (the model, tips, recent
	// sessions); the caller turns it off with the startup.quiet setting.
	Welcome bool
	// Version is the build's version, the welcome block's title.
	Version string
	// Warnings are problems found while the session started that the
	// user should see (an extension tool whose parameters are not a
	// schema, an MCP tool whose schema had to be changed); they are
	// printed first.
	Warnings []string
}

// ToolRenderer draws one tool's card: Call the line naming the call (from
// its JSON arguments), Result the body (from {content, details, isError}
// as JSON). Either may be nil.
type ToolRenderer struct {
	Call   func(ctx context.Context, args json.RawMessage, width int) (string, error)
	Result func(ctx context.Context, result, args json.RawMessage, expanded, partial bool, width int) (string, error)
}

// ExtShortcut is a key binding an extension provides.
type ExtShortcut struct {
	Key         string // as bubbletea names keys: "ctrl+shift+y", "alt+x", "f5"
	Description string
	Run         func(ctx context.Context) error
}

// ExtCommand is a slash command an extension provides.
type ExtCommand struct {
	Name        string
	Description string
	Run         func(ctx context.Context, args string) error
}

// startModes are the terminal modes Bubble Tea sets on its first frame,
// which may come after the screen's: set before the first frame, so that
// a paste at once is a paste. Setting them twice does no harm; Bubble Tea
// resets them on exit.
const startModes = "\x1b[?2004h" + // bracketed paste
	"\x1b[?25l" + // the terminal's cursor hidden (the editor draws its own)
	"\x1b[>4;2m" // modifyOtherKeys

// teaFPS is the frame rate of Bubble Tea's renderer, which draws nothing
// here: the screen draws the frame and the window title. Bubble Tea runs a
// ticker at this rate for as long as the program runs (whatever it draws;
// below 1 it means 60), so the lowest rate keeps an idle gopi to one
// wake-up a second from it.
const teaFPS = 1

// Run runs the interactive mode on the session until the user quits or
// ctx ends; the session's running work is aborted on the way out (the
// caller closes the session).
func Run(ctx context.Context, s Session, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := newModel(ctx, s, opts)
	if w, h := terminalSize(opts.Output); opts.Width == 0 && w > 0 && h > 0 {
		m.width, m.height, m.r.width = w, h, w
		m.ed.setWidth(w)
	}
	out := opts.Output
	if out == nil {
		out = os.Stdout
	}
	teaOut, tty := terminalOutput(out)
	scr := newScreen(tty.draw)
	scr.first = startModes
	prog := newProgram(m, scr)
	// Bubble Tea's renderer draws an empty view (the screen draws the
	// program): its frame rate only paces window title changes.
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(opts.Input), tea.WithOutput(teaOut),
		tea.WithFilter(prog.filter), tea.WithFPS(teaFPS)}
	if opts.Environ != nil {
		popts = append(popts, tea.WithEnvironment(opts.Environ))
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	p := tea.NewProgram(prog, popts...)
	unsub := s.Subscribe(func(e agent.Event) { prog.updates.forward(p.Send, e) })
	// The ask tool's questions open as dialogs.
	m.ui = &dialogUI{send: p.Send, detached: make(chan struct{})}
	if !m.opts.NoColor {
		m.ui.theme.Store(m.th.name) // extensions may switch themes
	}
	uiErr := s.Tools().SetUI(m.ui)
	if uiErr != nil {
		m.notice, m.noticeAt = "Dialogs are unavailable: "+uiErr.Error(), time.Now()
	}
	_, err := p.Run()
	unsub()
	prog.finish()
	if m.backgrounded && err == nil {
		// Questions to the user fail from now on: nobody is there to answer.
		m.ui.detach()
		waitInBackground(ctx, s, opts.Output)
	}
	s.Abort()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}
