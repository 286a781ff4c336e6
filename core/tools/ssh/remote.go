package ssh

import "strings"

// posixQuote quotes s as one word for a POSIX shell (and fish): in single
// quotes, each single quote inside closed, escaped and reopened.
func posixQuote(s string) string {
	if s == "" {
		return "''"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// withCwd puts the change to dir in front of command, in the syntax of
// the host's shell; dir "" leaves command as it is.
func withCwd(command, dir string, info HostInfo) string {
	if dir == "" {
		return command
	}
	if info.OS == OSWindows && !info.Compat {
		if info.Shell == ShellPowerShell {
			return "Set-Location -Path '" + strings.ReplaceAll(dir, "'", "''") + "'; " + command
		}
		return `cd /d "` + strings.ReplaceAll(dir, `"`, `""`) + `" && ` + command
	}
	return "cd -- " + posixQuote(dir) + " && " + command
}

// tiedScript runs its first argument as a command whose process group
// ends when the connection does. sshd starts a command without a
// terminal in a session and process group of its own and, when the
// connection drops, only closes the command's pipes: a command that does
// not read or write (sleep) would run on. So the command runs in the
// background with its input from /dev/null, while a watcher reads the
// connection's input (gopi keeps it open and never writes to it) until
// end of file: the connection is gone, and the watcher ends the whole
// group (TERM, then KILL after two seconds; it ignores TERM itself to get
// there). When the command ends first, the watcher is killed and the
// command's status is the script's. One line: csh-family login shells
// refuse a newline inside quotes.
const tiedScript = `exec 3<&0; sh -c "$1" </dev/null & c=$!; ` +
	`{ trap '' TERM; while read -r _; do :; done; kill -TERM 0; sleep 2; kill -KILL 0; } <&3 & w=$!; ` +
	`wait "$c"; s=$?; kill -KILL "$w" 2>/dev/null; exit "$s"`

// remoteCommand is the string ssh sends for command on a host: the cwd
// change first, then, on a POSIX shell, the command tied to the
// connection (tiedScript; watch is then true: the connection's input must
// stay open); on a Windows host in compat mode wrapped in the POSIX shell
// the probe found; otherwise as it is.
func remoteCommand(command, dir string, info HostInfo) (remote string, watch bool) {
	command = withCwd(command, dir, info)
	switch {
	case info.OS == OSWindows && info.Compat:
		return info.CompatShell + " -c " + posixQuote(command), false
	case info.OS == OSWindows:
		return command, false
	}
	return "sh -c " + posixQuote(tiedScript) + " gopi-ssh " + posixQuote(command), true
}
