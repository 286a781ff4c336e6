package shell

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// RunOnce runs req in a fresh shell (shell -l -c, or -c without Login)
// and waits for it. When the shell exits, whatever the command left
// running in its process group is killed. req.Dir "" is the process's
// working directory.
func RunOnce(ctx context.Context, cfg Config, req Request) (Result, error) {
	for k := range req.Env {
		if !envName().MatchString(k) {
			return Result{}, fmt.Errorf("invalid environment variable name %q", k)
		}
	}
	text := cfg.preamble() + cfg.withPrefix(req.Command)
	outR, outW, err := os.Pipe()
	if err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	defer outR.Close()
	growPipe(outR)
	cmd := exec.Command(cfg.Path, append(cfg.args("-c"), text)...)
	cmd.Dir = req.Dir
	cmd.Env = append(append([]string(nil), cfg.Env...), envAssignments(req.Env)...)
	cmd.Stdout, cmd.Stderr = outW, outW
	childproc.Prepare(cmd) // a group of its own, guarded
	err = cmd.Start()
	outW.Close()
	if err != nil {
		return Result{}, fmt.Errorf("start shell %s: %w", cfg.Path, err)
	}
	pgid := cmd.Process.Pid
	if err := cfg.owner.started(pgid); err != nil {
		_ = cmd.Wait()
		return Result{}, err
	}
	defer cfg.owner.ended(pgid)
	exited := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		copyOutput(discard(req.Output), outR, exited)
	}()
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()

	var timeout <-chan time.Time
	if req.Timeout > 0 {
		t := time.NewTimer(req.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	res := Result{OneShot: true, Dir: req.Dir}
	select {
	case <-exited:
	case <-ctx.Done():
		res.Cancelled = true
	case <-timeout:
		res.TimedOut = true
	}
	if res.Cancelled || res.TimedOut {
		endGroup(pgid, cfg.grace())
	}
	<-exited
	killGroup(pgid) // background processes the command left
	_ = outR.SetReadDeadline(time.Now().Add(drainWait))
	<-copied
	if !res.Cancelled && !res.TimedOut {
		res.ExitCode, res.Exited = exitStatus(waitErr, cmd)
	}
	return res, nil
}
