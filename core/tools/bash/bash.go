// Package bash is the bash tool: the model runs shell commands in the
// session's persistent shell (core/shell), with stdout and stderr merged,
// a live tail while it runs, long output spilled to an artifact, a
// timeout, optional background execution (job ids, results delivered
// later) and a pseudo-terminal when the user can type into it.
//
// A call goes through these steps: the env names are checked; a leading
// `cd X &&` becomes the cwd when none was given; async needs
// async.enabled; the interceptor (bashInterceptor.enabled) refuses
// commands that have a better tool while that tool is offered; artifact://
// URLs in the command, env values and cwd become file paths; the working
// directory must exist (when the shell's own was deleted, a command that
// starts with `cd DIR;` to an existing absolute DIR is let through); the
// timeout is clamped to 1..3600 seconds. Then
// the command runs in the background (async), with auto-backgrounding
// (bash.autoBackground.enabled), in a PTY (pty, a UI, PI_NO_PTY unset) or
// in the foreground.
package bash

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
)

const description = `Run a shell command (bash) in the session's shell. The shell persists between calls: cd and exported variables carry over. stdout and stderr come back merged; a non-zero exit is an error that includes the output.
- Set cwd instead of writing cd dir && …; it applies to that call only.
- Pass values that are long, multi-line or full of quotes through env and use "$NAME".
- Output over 50 KB keeps its end; the whole of it is at the artifact:// URL the result names. head/tail keep only the first/last N lines.
- timeout is in seconds (default 300, max 3600). Commands get no input: never wait for a prompt or an editor.
- Prefer the dedicated tools for reading, searching and editing files.`

const (
	asyncDescription = "\n- async: true runs the command in the background and returns a job id; the result is delivered to you when it finishes."
	ptyDescription   = "\n- pty: true runs it in a terminal the user can type into (sudo, ssh prompts); only when needed."
)

// Errors the tool reports.
const (
	errAsyncDisabled = "Async bash execution is disabled. Enable async.enabled to use async mode."
)

// Tool is the bash tool of a session.
type Tool struct {
	env   *tool.Env
	jobs  *job.Manager
	shell *Shell
	// autoTimer ends the wait of an auto-backgrounded call after its
	// threshold (nil: time.After); tests end it themselves.
	autoTimer func(time.Duration) <-chan time.Time
}

// New returns the bash tool for env running commands in sh, the session's
// shell, and background jobs under jobs (both owned by the session's
// services).
func New(env *tool.Env, jobs *job.Manager, sh *Shell) tool.Tool {
	return &Tool{env: env, jobs: jobs, shell: sh}
}

// Definition describes the tool; async is offered only with async.enabled.
func (t *Tool) Definition() tool.Definition {
	props := map[string]*tool.Schema{
		"command": tool.String("the command"),
		"env":     {Type: "object", Description: "extra environment variables", Values: &tool.Schema{Type: "string"}},
		"timeout": {Type: "number", Description: "seconds", Default: DefaultTimeout},
		"cwd":     tool.String("working directory for this call"),
		"head":    {Type: "integer", Description: "keep only the first N lines", Minimum: tool.Ptr(1.0)},
		"tail":    {Type: "integer", Description: "keep only the last N lines", Minimum: tool.Ptr(1.0)},
		"pty":     tool.Boolean("run in a terminal the user can type into"),
	}
	desc := description
	if t.env.Settings.Bash.AsyncEnabled {
		props["async"] = tool.Boolean("run in the background")
		desc += asyncDescription
	}
	if t.env.UI != nil && !t.env.Settings.Shell.NoPTY {
		desc += ptyDescription
	}
	return tool.Definition{
		Name:        "bash",
		Label:       "Bash",
		Description: desc,
		Parameters:  tool.Object(props, "command"),
		Concurrency: tool.Exclusive,
	}
}

// call is one prepared call: the input, the expanded command and env, and
// the directory to run in ("" for the session shell's own).
type call struct {
	input
	command string
	env     map[string]string
	dir     string
}

// Execute runs one call.
func (t *Tool) Execute(ctx context.Context, args tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	in, err := parseInput(args)
	if err != nil {
		return nil, err
	}
	c, err := t.prepare(in)
	if err != nil {
		return nil, err
	}
	bs := t.env.Settings.Bash
	switch {
	case in.Async:
		return t.startJob(c)
	case in.PTY && t.env.UI != nil && !t.env.Settings.Shell.NoPTY:
		return t.runPTY(ctx, c)
	case bs.AutoBackground:
		return t.runAutoBackground(ctx, c, onUpdate)
	}
	o, err := Run(ctx, t.env, t.shell, c.command, RunOptions{Dir: c.dir, Env: c.env, Timeout: c.timeout(), OnTail: tailUpdates(onUpdate)})
	if err != nil {
		return nil, err
	}
	if o.Result.Cancelled && ctx.Err() != nil {
		return nil, fmt.Errorf("bash: %w", tool.ErrAborted)
	}
	return finish(in, o)
}

// prepare runs the checks before execution: async allowed, interceptor,
// URL expansion, working directory.
func (t *Tool) prepare(in input) (call, error) {
	bs := t.env.Settings.Bash
	if in.Async && !bs.AsyncEnabled {
		return call{}, tool.Errorf(errAsyncDisabled)
	}
	if bs.InterceptorEnabled {
		var offered []string
		if t.env.ToolNames != nil {
			offered = t.env.ToolNames()
		}
		for _, cmd := range uniq(in.Original, in.Command) {
			if msg := intercept(cmd, in.Original, bs.InterceptorRules, offered); msg != "" {
				return call{}, &tool.Error{Msg: msg}
			}
		}
	}
	c := call{input: in}
	var err error
	if c.command, err = expandURLs(t.env, in.Command, true, true); err != nil {
		return call{}, err
	}
	if len(in.Env) > 0 {
		c.env = make(map[string]string, len(in.Env))
		for k, v := range in.Env {
			if c.env[k], err = expandURLs(t.env, v, false, true); err != nil {
				return call{}, err
			}
		}
	}
	dir := in.Cwd
	if strings.Contains(dir, "://") {
		if dir, err = expandURLs(t.env, dir, false, false); err != nil {
			return call{}, err
		}
	}
	check := ""
	if dir != "" {
		c.dir = t.env.Resolve(dir)
		check = c.dir
	} else if pool, err := t.shell.Pool(); err == nil {
		check = pool.Dir()
		// The shell's directory may have been deleted; a command that
		// starts by leaving it for one that exists still runs.
		if to := t.env.ExpandHome(leadingCdDir(c.command)); filepath.IsAbs(to) && !isDir(check) && isDir(to) {
			check = to
		}
	} else {
		check = t.env.Cwd
	}
	fi, err := os.Stat(check)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return call{}, tool.Errorf("Working directory does not exist: %s", check)
	case err != nil:
		return call{}, tool.Errorf("Working directory %s cannot be used: %v", check, err)
	case !fi.IsDir():
		return call{}, tool.Errorf("Working directory is not a directory: %s", check)
	}
	return c, nil
}

// isDir reports whether path is an existing directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// timeout is the call's timeout as a duration.
func (c call) timeout() time.Duration { return time.Duration(c.Timeout * float64(time.Second)) }

// tailUpdates turns a tool's update function into a tail callback.
func tailUpdates(onUpdate tool.UpdateFunc) func(string) {
	if onUpdate == nil {
		return nil
	}
	return func(tail string) {
		onUpdate(&tool.Result{Content: []tool.Content{tool.Text(strings.ToValidUTF8(tail, "\uFFFD"))}})
	}
}

func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}
