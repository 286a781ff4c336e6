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
// # One-shot commands
//
// RunOnce starts a fresh shell for one command (shell -l -c) and, when it
// exits, kills whatever the command left in its process group. Pool uses
// it when the session's shell is busy (a backgrounded command still
// running) or cannot be started.
package shell
