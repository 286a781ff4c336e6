package prompt

import (
	"context"
	"runtime"
	"time"
)

// Env is what the prompt states about the machine and the repository.
type Env struct {
	Date  string // local date, YYYY-MM-DD
	Cwd   string // working directory
	OS    string // GOOS/GOARCH, e.g. linux/amd64
	Shell string // the user's shell; "" when unknown
	Git   *Git   // nil outside a git repository
}

// EnvOptions are the inputs of Environment.
type EnvOptions struct {
	Cwd              string        // absolute working directory
	Shell            string        // the user's shell (the caller reads $SHELL)
	Now              time.Time     // zero: time.Now()
	GitStatusTimeout time.Duration // how long `git status` may take; 0 skips it
}

// Environment gathers the facts for opts.Cwd. The repository and branch
// come from the .git entry and HEAD file; whether the work tree has
// uncommitted changes needs `git status`, run only when
// opts.GitStatusTimeout is positive and abandoned when it runs longer.
func Environment(ctx context.Context, opts EnvOptions) Env {
	env := baseEnv(opts)
	if env.Git != nil && opts.GitStatusTimeout > 0 {
		env.Git.setStatus(gitStatus(ctx, env.Git.Root, opts.GitStatusTimeout))
	}
	return env
}

// baseEnv is Environment without the git status.
func baseEnv(opts EnvOptions) Env {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	env := Env{
		Date:  now.Format(time.DateOnly),
		Cwd:   opts.Cwd,
		OS:    runtime.GOOS + "/" + runtime.GOARCH,
		Shell: opts.Shell,
	}
	if root, gitDir, ok := FindRepoRoot(opts.Cwd); ok {
		env.Git = &Git{Root: root, Changed: -1}
		env.Git.Branch, env.Git.Commit = readHead(gitDir)
	}
	return env
}
