package share

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// Timeouts of the gh calls.
const (
	authTimeout   = 15 * time.Second // gh auth status (may check the token online)
	createTimeout = 2 * time.Minute  // gh gist create (uploads the page)
)

// Errors of Gist, for states the user must fix.
var (
	// ErrNoGH: the GitHub CLI is not installed.
	ErrNoGH = errors.New("GitHub CLI (gh) is not installed: install it from https://cli.github.com/ to use /share")
	// ErrNotLoggedIn: gh is installed but not logged in.
	ErrNotLoggedIn = errors.New("GitHub CLI is not logged in: run 'gh auth login' first")
)

// Result is a shared session.
type Result struct {
	GistURL    string // the gist, as gh printed it
	PreviewURL string // the page rendered, https://gistpreview.github.io/?<id>
}

// Options configure Gist.
type Options struct {
	// GH is the gh program: a path, or a name looked up in PATH ("" is
	// "gh").
	GH string
	// Env is the environment gh runs in, and whose PATH finds it (nil:
	// gopi's).
	Env []string
}

// Gist uploads file as a secret gist with gh and returns its URLs.
func Gist(ctx context.Context, file string, o Options) (Result, error) {
	gh := o.GH
	if gh == "" {
		gh = "gh"
	}
	path, err := lookPath(gh, o.Env)
	if err != nil {
		return Result{}, ErrNoGH
	}
	if _, _, err := run(ctx, authTimeout, path, o.Env, "auth", "status"); err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, ErrNotLoggedIn
	}
	out, stderr, err := run(ctx, createTimeout, path, o.Env, "gist", "create", "--public=false", file)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		msg := strings.TrimSpace(stderr)
		if msg == "" {
			msg = err.Error()
		}
		return Result{}, fmt.Errorf("Failed to create gist: %s", msg)
	}
	url := lastLine(out)
	id := url[strings.LastIndex(url, "/")+1:]
	if url == "" || id == "" {
		return Result{}, fmt.Errorf("Failed to create gist: gh printed no gist URL (%q)", strings.TrimSpace(out))
	}
	return Result{GistURL: url, PreviewURL: "https://gistpreview.github.io/?" + id}, nil
}

// run runs gh with args under timeout and returns its output.
func run(ctx context.Context, timeout time.Duration, gh string, env []string, args ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, gh, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	childproc.PrepareCancelGroup(cmd)
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("gh %s took longer than %s", args[0], timeout)
	}
	return out.String(), errb.String(), err
}

// lastLine returns the last non-empty line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// lookPath finds gh: a path as it is, a name in env's PATH (gopi's own
// PATH when env has none).
func lookPath(gh string, env []string) (string, error) {
	if strings.ContainsRune(gh, filepath.Separator) {
		return exec.LookPath(gh)
	}
	for i := len(env) - 1; i >= 0; i-- {
		if dirs, ok := strings.CutPrefix(env[i], "PATH="); ok {
			for _, d := range filepath.SplitList(dirs) {
				if d == "" {
					d = "."
				}
				if p, err := exec.LookPath(filepath.Join(d, gh)); err == nil {
					return p, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	return exec.LookPath(gh)
}
