package plugins

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// errTimedOut is runChild's error for a program stopped at its bound.
var errTimedOut = errors.New("stopped at its time bound")

// runChild runs the program at path with args in dir (may be ""), with
// env (nil: this process's environment) followed by extra, in its own
// process group, killed with it when timeout passes or ctx ends. It
// returns what the program wrote to standard output and error; the error
// is errTimedOut at the bound, ctx's error when ctx ended, else the
// program's.
func runChild(ctx context.Context, path, dir string, env, extra []string, timeout time.Duration, args ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), env...), extra...)
	if env == nil {
		cmd.Env = append(cmd.Environ(), extra...)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = 2 * time.Second
	childproc.PrepareCancelGroup(cmd) // the bound takes git's helpers too
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), errOut.String(), errTimedOut
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return out.String(), errOut.String(), ctxErr
		}
	}
	return out.String(), errOut.String(), err
}
