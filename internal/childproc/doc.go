// Package childproc is gopi's one policy for the processes it starts:
// the bash tool's shells (persistent, one-shot and terminal ones, which
// async jobs use too), MCP stdio servers and the commands of MCP values,
// extension commands (pi.exec), git, pdftotext and the commands of
// `gopi find -x` all go through Prepare (or PrepareForeground) before
// they are started.
//
// # Signals
//
// A child starts with the default signal dispositions and an empty signal
// mask. Go resets every signal it catches to the default in a child, but
// not a signal it ignores, and a child inherits the signal mask of the
// thread that started it, which Go takes from the mask gopi itself
// started with. So gopi never ignores a signal (a closed output pipe is
// caught with signal.Notify, which also makes the write fail with EPIPE),
// and ResetInheritedSignals, called first thing in main, sets back the
// two signals Go never handles (32 and 33, the C library's) when they
// were ignored, and re-executes gopi with an empty mask when its parent
// left signals blocked. Without
// this, `yes | head -1` in a command prints "Broken pipe" errors and
// `(while :; do echo x; done) | head -1` never ends.
//
// # Nothing outlives gopi
//
// Prepare puts a child in a process group of its own and adds this
// process's mark (Mark, GOPI_PROCESS_<random>=1) to its environment,
// which everything it starts inherits, daemons that leave the group
// included. Before the first child it starts the guard (EnableGuard): a
// copy of gopi in a hidden mode whose standard input is a pipe from gopi.
// However gopi ends, kill -9 included, the kernel closes the pipe; the
// guard then ends every process carrying the mark and their process
// groups (a member that cleared its environment goes with its group),
// and removes gopi's temporary directories (MkdirTemp, SweepTemp).
//
// The parent-death signal (Pdeathsig) is not used: it fires when the
// thread that started the child exits, not the process (a Go thread can
// exit while the process lives on, and a child would be killed for it),
// and it reaches the direct child only, not what it started.
//
// Out of reach: a process that clears its environment (env -i) and also
// leaves its process group (setsid); one running as another user; off
// Linux, everything (the guard reads /proc), where only gopi's own
// clean-up on a normal exit ends its children.
//
// # Temporary directories
//
// MkdirTemp names a directory after its owner: pid and start time, which
// together name one process for good (a pid alone may be reused). The
// guard removes, when it starts and when it ends, the directories of this
// user so named whose owner is surely gone, never a live gopi's.
package childproc
