package github

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// gitTimeout bounds one git command (a fetch or a push included).
const gitTimeout = 2 * time.Minute

// gitIn runs git in dir and returns its trimmed stdout; a failure names
// the command and git's first line.
func gitIn(ctx context.Context, dir string, args ...string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	childproc.PrepareCancelGroup(cmd)
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "", ctx.Err()
	case cctx.Err() == context.DeadlineExceeded:
		return "", tool.Errorf("git %s did not finish within %s and was stopped; check the remote and retry.", commandName(args), gitTimeout)
	case err != nil:
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", &tool.Error{Msg: "git " + commandName(args) + " failed: " + summarize(msg), Err: err}
	}
	return strings.TrimSpace(out.String()), nil
}

// git runs git in the session's directory.
func (t *Tool) git(ctx context.Context, args ...string) (string, error) {
	return gitIn(ctx, t.env.Cwd, args...)
}
