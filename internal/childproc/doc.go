// Package childproc is gopi's one policy for the processes it starts:
// the bash tool's shells, async jobs, MCP stdio servers, extension
// commands (pi.exec), MCP value commands, git, pdftotext and the commands
// of `gopi find -x` all go through it.
//
// # Signals
//
// A child starts with the default signal dispositions and an empty signal
// mask. Go resets every signal it catches to the default in a child, but
// not a signal it ignores, and a child inherits the signal mask of the
// thread that started it, which Go takes from the mask gopi itself
// started with. So gopi never ignores a signal (a closed output pipe is
// caught with signal.Notify, which also makes the write fail with EPIPE),
// and UnblockInheritedSignals, called first thing in main, re-executes
// gopi with an empty mask when its parent left signals blocked. Without
// this, `yes | head -1` in a command prints "Broken pipe" errors and
// `(while :; do echo x; done) | head -1` never ends.
package childproc
