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

// request is one run of the ssh client.
type request struct {
	bin     string         // the client
	environ []string       // its environment
	host    config.SSHHost // where to
	remote  string         // the command line sent
	// watch: the remote side watches the connection's input (tiedScript),
	// so it is a pipe held open until the client ends; otherwise the
	// input is /dev/null (-n).
	watch   bool
	out     io.Writer     // stdout and stderr, merged
	timeout time.Duration // the run's limit
}

// args are the client's arguments: no terminal, never a password or
// passphrase question (BatchMode), a new host key accepted and
// remembered (a changed one refused), warnings such as that one kept out
// of the output (LogLevel=ERROR); "--" before the target, so that a host
// or user name cannot pass as an option.
func (r request) args() []string {
	args := []string{"-T", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new", "-o", "LogLevel=ERROR"}
	if !r.watch {
		args = append(args, "-n")
	}
	if r.host.Port > 0 {
		args = append(args, "-p", strconv.Itoa(r.host.Port))
	}
	if r.host.KeyPath != "" {
		args = append(args, "-i", r.host.KeyPath)
	}
	return append(args, "--", target(r.host), r.remote)
}

// outcome is how one ssh run ended.
type outcome struct {
	exitCode int  // the remote command's status (255: ssh itself failed)
	timedOut bool // the timeout ended it
}

// run runs the client. When ctx ends or the timeout passes, the client's
// process group is killed; the dropped connection then ends the remote
// command (when it watches). The error is set when the client could not
// start or ctx ended.
func (r request) run(ctx context.Context) (outcome, error) {
	tctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, r.bin, r.args()...)
	cmd.Env = r.environ
	cmd.Stdout, cmd.Stderr = r.out, r.out
	if r.watch {
		if _, err := cmd.StdinPipe(); err != nil { // closed by Wait
			return outcome{}, err
		}
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
