// Package tui is gopi's interactive mode: `gopi` on a terminal. It is a
// Bubble Tea program (charm.land/bubbletea/v2) around one session (the
// Session interface of session.go, which agentsession.Session
// implements), kept in the model/update/view shape: the session
// runs outside the UI, its events arrive as messages, and everything that
// may block (prompting, aborting, compacting, switching sessions) runs as
// a command, never inside Update.
//
// The finished part of the conversation is printed above the program into
// the terminal's own scrollback, so scrolling, searching and copying use
// the terminal, and the cost of a streamed delta does not grow with the
// history. The program draws itself (screen.go, frame.go): Bubble Tea
// reads the keys and sets the terminal's modes, the screen writes printed
// text and the frame's changed rows, never a row twice into the
// scrollback, and nothing at all while nothing changes. A streamed answer is committed paragraph by paragraph:
// a paragraph (or a closed code block) is rendered as Markdown with
// glamour once, when it is complete, and printed; only the unfinished tail
// is drawn live, as plain wrapped text. The live area holds that tail,
// running tool cards with their output tails, an open picker or dialog,
// the editor and the footer.
//
// Files: run.go starts the program and bridges session events; frame.go
// paces the frames and shares the terminal with Bubble Tea; screen.go
// draws them; model.go
// holds the state and Update/View; keys.go the key bindings; editor.go
// the input (history, pasted blocks); stream.go the paragraph commits of
// a streamed answer; render.go how messages, tool cards and markers look;
// commands.go the slash commands; picker.go the list overlay shared by
// /model, /thinking, /resume, /tree and /branch; dashboard.go the frame
// of the control centres drawn in the editor's place, extdash.go (with
// the inventory of extdash_items.go) /extensions and agentdash.go
// /agents; footer.go the status
// line; theme.go colours (dark, light, none for NO_COLOR).
package tui
