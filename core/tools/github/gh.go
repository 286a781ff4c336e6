package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// DefaultTimeout bounds one gh call when the Runner sets none.
const DefaultTimeout = 60 * time.Second

// Messages of the failures every op shares.
const (
	msgNotInstalled = "GitHub CLI (gh) is not installed: install Debian's gh package (apt-get install gh) or see https://cli.github.com/, then retry."
	msgNotLoggedIn  = "GitHub CLI is not authenticated. Run `gh auth login`."
	msgNoRepo       = "GitHub repository context is unavailable. Pass `repo` explicitly or run the tool inside a GitHub checkout."
	msgEmptyOutput  = "GitHub CLI returned empty output."
	msgInvalidJSON  = "GitHub CLI returned invalid JSON output."
)

// Runner runs gh commands. The zero value finds gh on PATH, runs it in
// the current directory and gives each call DefaultTimeout.
type Runner struct {
	Bin     string        // gh's path; "" looks "gh" up on PATH at each call
	Dir     string        // working directory of the calls (the session's cwd)
	Timeout time.Duration // bound of one call; 0 is DefaultTimeout
}

// Available reports whether gh can be found.
func (r *Runner) Available() bool {
	_, err := r.bin()
	return err == nil
}

// bin returns the gh executable to run.
func (r *Runner) bin() (string, error) {
	if r.Bin != "" {
		return exec.LookPath(r.Bin)
	}
	return exec.LookPath("gh")
}

// callOpts adjust how a call's failure is explained.
type callOpts struct {
	repoGiven bool // the caller named the repository, so "no repository" is gh's own message
}

// run runs gh with args and returns its trimmed stdout; a non-zero exit
// becomes a one-line *tool.Error.
func (r *Runner) run(ctx context.Context, args []string, o callOpts) (string, error) {
	stdout, stderr, err := r.exec(ctx, args)
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", err
		}
		return "", &tool.Error{Msg: failureMessage(args, stdout, stderr, o), Err: err}
	}
	return strings.TrimSpace(stdout), nil
}

// runJSON runs gh and decodes its stdout into v.
func (r *Runner) runJSON(ctx context.Context, args []string, o callOpts, v any) error {
	out, err := r.run(ctx, args, o)
	if err != nil {
		return err
	}
	if out == "" {
		return tool.Errorf("%s", msgEmptyOutput)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		return &tool.Error{Msg: msgInvalidJSON, Err: err}
	}
	return nil
}

// exec starts gh in a process group of its own and waits for it, under
// the runner's timeout and ctx; either ending kills the whole group.
func (r *Runner) exec(ctx context.Context, args []string) (stdout, stderr string, err error) {
	bin, lerr := r.bin()
	if lerr != nil {
		return "", "", tool.Errorf("%s", msgNotInstalled)
	}
	timeout := r.timeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, bin, args...)
	cmd.Dir = r.Dir
	cmd.Env = append(cmd.Environ(), "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	childproc.PrepareCancelGroup(cmd)
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "", "", ctx.Err()
	case cctx.Err() == context.DeadlineExceeded:
		return "", "", tool.Errorf("gh %s did not answer within %s and was stopped; check the network and `gh auth status`, then retry.", commandName(args), timeout)
	}
	return out.String(), errb.String(), err
}

// timeout is the bound of one gh call.
func (r *Runner) timeout() time.Duration {
	if r.Timeout <= 0 {
		return DefaultTimeout
	}
	return r.Timeout
}

// commandName is the first words of a gh command line, for messages.
func commandName(args []string) string {
	n := min(len(args), 2)
	if n == 2 && strings.HasPrefix(args[1], "-") {
		n = 1
	}
	return strings.Join(args[:n], " ")
}

// failureMessage explains a gh exit: the common auth and repository
// context failures in our words, otherwise gh's own first lines.
func failureMessage(args []string, stdout, stderr string, o callOpts) string {
	msg := strings.TrimSpace(stderr)
	if msg == "" {
		msg = strings.TrimSpace(stdout)
	}
	switch {
	case strings.Contains(msg, "gh auth login") || strings.Contains(msg, "not logged into any GitHub hosts"):
		return msgNotLoggedIn
	case !o.repoGiven && (strings.Contains(msg, "not a git repository") || strings.Contains(msg, "no git remotes found") ||
		strings.Contains(msg, "unable to determine current repository")):
		return msgNoRepo
	case msg == "":
		return fmt.Sprintf("GitHub CLI command failed: gh %s", strings.Join(args, " "))
	}
	return "gh " + commandName(args) + " failed: " + summarize(msg)
}

// summarize makes gh's message one line: its first non-empty line,
// shortened, with a count of the lines left out.
func summarize(msg string) string {
	const maxBytes = 300
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	s := lines[0]
	if len(s) > maxBytes {
		s = strings.ToValidUTF8(s[:maxBytes], "") + "…"
	}
	if len(lines) > 1 {
		s += fmt.Sprintf(" (+%d more lines)", len(lines)-1)
	}
	return s
}
