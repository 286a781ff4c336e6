package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// probeTimeout bounds the host probe of a call, within the call's own
// timeout.
const probeTimeout = 15 * time.Second

// errNoSSH is the error when no ssh client is installed.
var errNoSSH = errors.New("ssh binary not found on PATH")

// lookSSH finds the ssh client on the PATH of environ (the environment
// commands run with).
func lookSSH(environ []string) (string, error) {
	path := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, "ssh")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errNoSSH
}

// checkKey refuses an identity file that is missing, not a file, or
// readable or writable by others (ssh would refuse it too, less clearly).
func checkKey(path string) error {
	if path == "" {
		return nil
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("SSH key not found: %s", path)
	}
	if err != nil {
		return fmt.Errorf("SSH key cannot be read: %s: %v", path, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("SSH key is not a file: %s", path)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("SSH key permissions must be 600 or stricter: %s (run chmod 600 on it)", path)
	}
	return nil
}

// target is user@host, or host alone.
func target(h config.SSHHost) string {
	if h.Username != "" {
		return h.Username + "@" + h.Host
	}
	return h.Host
}

// sshArgs are the client's arguments for running remote on h: no
// terminal, never a password or passphrase question (BatchMode), a new
// host key accepted and remembered, an unknown changed one refused; "--"
// before the target, so that a host or user name cannot pass as an
// option.
func sshArgs(h config.SSHHost, remote string) []string {
	args := []string{"-T", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new"}
	if h.Port > 0 {
		args = append(args, "-p", strconv.Itoa(h.Port))
	}
	if h.KeyPath != "" {
		args = append(args, "-i", h.KeyPath)
	}
	return append(args, "--", target(h), remote)
}

// outcome is how one ssh run ended.
type outcome struct {
	exitCode int  // the remote command's status (255: ssh itself failed)
	timedOut bool // the timeout ended it
}

// runSSH runs the ssh client at bin for remote on h, its stdout and
// stderr going to out, for at most timeout. Its standard input is a pipe
// held open until it ends (the remote side watches it: tiedScript). When
// ctx ends or the timeout passes, the client's process group is killed;
// the dropped connection then ends the remote command. The error is set
// when the client could not start or ctx ended.
func runSSH(ctx context.Context, bin string, environ []string, h config.SSHHost, remote string, out io.Writer, timeout time.Duration) (outcome, error) {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, bin, sshArgs(h, remote)...)
	cmd.Env = environ
	cmd.Stdout, cmd.Stderr = out, out
	if _, err := cmd.StdinPipe(); err != nil { // closed by Wait
		return outcome{}, err
	}
	childproc.PrepareCancelGroup(cmd)
	cmd.WaitDelay = 5 * time.Second // a descendant holding the output pipe cannot hold the call
	if err := cmd.Start(); err != nil {
		return outcome{}, fmt.Errorf("cannot start ssh: %w", err)
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		return outcome{}, ctx.Err()
	}
	if tctx.Err() != nil {
		return outcome{timedOut: true}, nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return outcome{exitCode: exit.ExitCode()}, nil
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return outcome{}, err
	}
	return outcome{exitCode: cmd.ProcessState.ExitCode()}, nil
}
