package plugins

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// DefaultGitTimeout bounds one git command (a clone of a marketplace or a
// plugin) unless Git.Timeout says otherwise.
const DefaultGitTimeout = 2 * time.Minute

// Git runs the system git.
type Git struct {
	Program string        // the git executable; "" looks "git" up in PATH
	Timeout time.Duration // per command; 0 is DefaultGitTimeout
	Environ []string      // the environment git runs with (nil: the process's)
}

// ErrNoGit is the error when git cannot be found.
var ErrNoGit = errors.New("git is not installed or not in PATH: install git (https://git-scm.com) to add Git marketplaces, or add a local directory instead")

// run runs git with args in dir (may be ""); it never prompts, and it is
// killed with its process group when the timeout passes or ctx ends.
func (g Git) run(ctx context.Context, dir string, args ...string) (string, error) {
	prog := g.Program
	if prog == "" {
		prog = "git"
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return "", ErrNoGit
	}
	timeout := g.Timeout
	if timeout <= 0 {
		timeout = DefaultGitTimeout
	}
	out, errOut, err := runChild(ctx, path, dir, g.Environ,
		[]string{"GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never", "GIT_ASKPASS=", "SSH_ASKPASS=", "GIT_SSH_COMMAND=ssh -o BatchMode=yes"}, timeout, args...)
	switch {
	case errors.Is(err, errTimedOut):
		return "", fmt.Errorf("git %s did not finish within %s and was stopped: check that the repository is reachable", args[0], timeout)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "", err
	case err != nil:
		msg := strings.TrimSpace(errOut)
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s failed: %s", args[0], lastLines(msg, 4))
	}
	return strings.TrimSpace(out), nil
}

// Clone clones url into dir (which must not exist): shallow at ref (or
// the default branch), or in full and checked out at sha when sha is set.
func (g Git) Clone(ctx context.Context, url, ref, sha, dir string) error {
	args := []string{"clone", "--quiet"}
	if sha == "" {
		args = append(args, "--depth", "1")
	}
	if ref != "" {
		args = append(args, "--branch", ref)
	}
	if _, err := g.run(ctx, "", append(args, "--", url, dir)...); err != nil {
		return fmt.Errorf("cloning %s: %w", url, err)
	}
	if sha != "" {
		if _, err := g.run(ctx, dir, "checkout", "--quiet", "--detach", sha); err != nil {
			return fmt.Errorf("checking out %s of %s: %w", sha, url, err)
		}
	}
	return nil
}

// Head returns the commit checked out in dir.
func (g Git) Head(ctx context.Context, dir string) (string, error) {
	return g.run(ctx, dir, "rev-parse", "HEAD")
}

// lastLines keeps the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
