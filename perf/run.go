package perf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Command is one thing to time: a program and its arguments, run without a
// shell (give "sh", "-c", "…" for pipes and redirections).
type Command struct {
	Name string   // label in reports and records
	Argv []string // program and arguments
}

// Options controls Run.
type Options struct {
	Runs          int           // measured runs per command (at least 1)
	Warmup        int           // unmeasured runs per command before the first measured round
	Dir           string        // working directory ("" the current one)
	Env           []string      // environment (nil: inherited)
	Timeout       time.Duration // bound on one run (0: none); a run past it fails
	IgnoreFailure bool          // a non-zero exit status is measured rather than an error
	// Progress, when set, is called after each measured round.
	Progress func(done, total int)
}

// Result holds one command's measured samples, in round order: Wall[i]
// and CPU[i] of every command were taken in the same round i.
type Result struct {
	Command Command
	Wall    []float64 // wall-clock milliseconds from start to exit
	CPU     []float64 // user + system milliseconds of the process and the children it waited for
}

// Run times cmds in alternated rounds: after the warm-up, round i runs
// every command once, forwards in even rounds and backwards in odd ones
// (A B, B A, A B, …), so a slow spell of a shared machine falls on all of
// them alike and ComparePaired can take ratios round by round. Output is
// read through a pipe and discarded. It stops at the first failing run
// (unless IgnoreFailure) or when ctx ends, returning the error.
func Run(ctx context.Context, cmds []Command, opt Options) ([]Result, error) {
	if len(cmds) == 0 {
		return nil, errors.New("nothing to time: give at least one command")
	}
	if opt.Runs < 1 {
		return nil, fmt.Errorf("runs must be at least 1, not %d", opt.Runs)
	}
	for _, c := range cmds {
		if len(c.Argv) == 0 || c.Argv[0] == "" {
			return nil, fmt.Errorf("command %q is empty", c.Name)
		}
	}
	res := make([]Result, len(cmds))
	for i, c := range cmds {
		res[i].Command = c
	}
	for w := 0; w < opt.Warmup; w++ {
		for _, c := range cmds {
			if _, _, err := runOnce(ctx, c, opt); err != nil {
				return res, fmt.Errorf("warm-up run of %s: %w", c.Name, err)
			}
		}
	}
	order := make([]int, len(cmds))
	for round := 0; round < opt.Runs; round++ {
		for i := range order {
			order[i] = i
			if round%2 == 1 {
				order[i] = len(cmds) - 1 - i
			}
		}
		for _, i := range order {
			wall, cpu, err := runOnce(ctx, cmds[i], opt)
			if err != nil {
				return res, fmt.Errorf("run %d of %s: %w", round+1, cmds[i].Name, err)
			}
			res[i].Wall = append(res[i].Wall, wall)
			res[i].CPU = append(res[i].CPU, cpu)
		}
		if opt.Progress != nil {
			opt.Progress(round+1, opt.Runs)
		}
	}
	return res, nil
}

// runOnce runs c once and returns its wall and CPU milliseconds.
func runOnce(ctx context.Context, c Command, opt Options) (wall, cpu float64, err error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	runCtx := ctx
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(runCtx, c.Argv[0], c.Argv[1:]...)
	cmd.Dir = opt.Dir
	cmd.Env = opt.Env
	cmd.Stdout = io.Discard
	cmd.Stderr = io.Discard
	cmd.WaitDelay = 2 * time.Second
	ownGroup(cmd)
	start := time.Now()
	err = cmd.Run()
	elapsed := time.Since(start)
	if runCtx.Err() != nil && ctx.Err() == nil {
		return 0, 0, fmt.Errorf("took longer than %s (raise the timeout)", opt.Timeout)
	}
	if ctx.Err() != nil {
		return 0, 0, ctx.Err()
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && opt.IgnoreFailure:
	case errors.As(err, &exit):
		return 0, 0, fmt.Errorf("%s exited with status %d (pass --ignore-failure to time it anyway)", strings.Join(c.Argv, " "), exit.ExitCode())
	default:
		return 0, 0, err
	}
	ps := cmd.ProcessState
	return ms(elapsed), ms(ps.UserTime() + ps.SystemTime()), nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
