// Package shell runs shell commands for the bash tool and the user's
// "!cmd" path: a persistent shell per session whose state (the working
// directory, variables, functions) survives between commands, a one-shot
// shell as the fallback, and the process hygiene both need.
//
// # The persistent shell
//
// A Session is one long-lived shell process (bash -l -s, or -s with
// PI_BASH_NO_LOGIN) in its own process group. Each command is written to a
// private script file and the shell is told, on its standard input, to
// source it with standard input from /dev/null and standard output and
// error both sent to one pipe, then to print a trailer: a NUL byte, a
// per-shell random marker, the exit status and the working directory. The
// reader strips the trailer and hands everything before it to the
// command's writer, so output is streamed as it comes and the two streams
// arrive merged in the order they were written. Commands run one at a
// time.
//
// A command with an explicit directory runs there and the shell returns to
// its own directory afterwards; without one it runs where the shell is, so
// `cd` in one command carries over to the next. Extra environment
// variables are set for the command only and restored afterwards.
//
// Commands share the shell with gopi's own text around them, so that text
// calls every command it needs (cd, printf, test, export, unset, set, the
// dot) through `\builtin` (bash, zsh) or `\command` (other shells): an
// alias or a function the user defined with one of those names is not run
// in its place. Only a function named builtin (or command) itself would
// still get in the way; the command then times out and the shell is
// started afresh. After each command errexit and nounset are switched off
// again: left on, a failing command or an unset variable in some later,
// unrelated command would end the shell and lose its state. A command that
// turns them on still gets them for itself.
//
// # Ending commands
//
// A timeout or a cancelled context ends the whole process group: SIGTERM,
// up to Grace (5 s) for the processes to leave, then SIGKILL. The shell is
// part of the group, so its state is lost and the next command starts a
// new one (Result.ShellExited says so). A command that ends the shell
// itself (exit) is reported the same way. Background processes a command
// leaves running stay alive while the shell does and are killed with it by
// Close.
//
// # The processes of a session
//
// A Pool owns every process its shells start: the persistent shell, the
// one-shot and terminal shells run through it (Pool.RunOnce, Pool.RunPTY)
// and all their descendants. It records each shell's process group while
// the shell runs, and adds a variable of its own (GOPI_SHELL_<random>=1)
// to their environment, which descendants inherit even when they leave
// the group (setsid, setsid -f, a double fork). Pool.Close ends all of it
// before returning, whoever else is still ending a command: the groups,
// and the processes outside them that carry the variable (found in
// /proc/<pid>/environ) get SIGTERM, then the grace, then SIGKILL, and
// whatever carries the variable after that is killed at once. /proc is
// only read at Close and while ending groups. A process that clears its
// environment (env -i) or runs as another user escapes the search; off
// Linux only the process groups are ended.
//
// gopi does not make itself a child subreaper (PR_SET_CHILD_SUBREAPER):
// the variable finds escaped daemons without it. As a subreaper gopi, or a
// program embedding this package, would become the parent of the orphans
// of every child it has (language servers, MCP servers, git), and would
// have to reap them with a process-wide wait loop. Such a loop cannot tell
// those zombies from children os/exec is about to wait for (a zombie's
// environment is empty, its parent is the same), so it would steal their
// exit statuses.
//
// Every shell is started through internal/childproc, which also ends all
// of this when gopi dies without closing the pool (kill -9): see its
// package doc. The persistent shell's private directory is made there
// too, named after its owner, so that one left by a killed gopi is
// removed later.
//
// # One-shot commands
//
// RunOnce starts a fresh shell for one command (shell -l -c) and, when it
// exits, kills whatever the command left in its process group. Pool uses
// it when the session's shell is busy (a backgrounded command still
// running) or cannot be started.
package shell
