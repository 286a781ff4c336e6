package prompt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// Git is the state of the repository holding the working directory.
type Git struct {
	Root    string // the directory holding .git
	Branch  string // checked-out branch; "" when HEAD is detached
	Commit  string // abbreviated commit when HEAD is detached
	Changed int    // paths `git status` lists (changed, staged, untracked); -1 when not checked
}

// shortCommit is how many hex digits of a detached HEAD the prompt shows.
const shortCommit = 8

// FindRepoRoot returns the nearest directory at or above dir holding a
// .git entry, and the git directory it names: .git itself, or for a
// worktree or submodule the directory its "gitdir:" line points to.
func FindRepoRoot(dir string) (root, gitDir string, ok bool) {
	for dir = filepath.Clean(dir); ; {
		dotGit := filepath.Join(dir, ".git")
		if info, err := os.Lstat(dotGit); err == nil {
			if info.IsDir() {
				return dir, dotGit, true
			}
			if g, ok := readGitFile(dotGit); ok {
				return dir, g, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", false
		}
		dir = parent
	}
}

// readGitFile reads a .git file's "gitdir: PATH" line; a relative PATH
// starts at the file's directory.
func readGitFile(path string) (string, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	g, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", false
	}
	g = strings.TrimSpace(g)
	if !filepath.IsAbs(g) {
		g = filepath.Join(filepath.Dir(path), g)
	}
	return filepath.Clean(g), true
}

// readHead returns the branch HEAD names, or the abbreviated commit of a
// detached HEAD; both are "" when HEAD cannot be read.
func readHead(gitDir string) (branch, commit string) {
	data, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", ""
	}
	head := strings.TrimSpace(string(data))
	if ref, ok := strings.CutPrefix(head, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		return strings.TrimPrefix(ref, "refs/heads/"), ""
	}
	return "", head[:min(len(head), shortCommit)]
}

// gitStatus counts the paths `git status --porcelain` lists in root,
// giving up after timeout.
func gitStatus(ctx context.Context, root string, timeout time.Duration) (int, error) {
	out, err := GitPorcelain(ctx, root, timeout)
	if err != nil {
		return -1, err
	}
	return bytes.Count(out, []byte{'\n'}), nil
}

// GitPorcelain runs `git status --porcelain` (v1) in root and returns its
// output, giving up after timeout. It takes no optional locks, so it never
// competes with the user's own git commands for the index.
func GitPorcelain(ctx context.Context, root string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "--no-optional-locks", "-C", root, "status", "--porcelain", "--ignore-submodules=dirty")
	cmd.WaitDelay = 10 * time.Millisecond
	childproc.Prepare(cmd)
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("git status in %s: gave up after %v", root, timeout)
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return nil, fmt.Errorf("git status in %s: %s", root, bytes.TrimSpace(ee.Stderr))
		}
		return nil, fmt.Errorf("git status in %s: %w", root, err)
	}
	return out, nil
}

// StatusProbe is a `git status` running in the background, so that a
// caller can start it early in start-up and let it overlap other work;
// Build takes it through Options.GitStatus. Its goroutine ends by the
// probe's deadline whether or not anyone waits.
type StatusProbe struct {
	root string
	done chan struct{}
	n    int
	err  error
}

// StartGitStatus starts counting the changed paths of the repository
// holding cwd, giving up after timeout. It returns nil when cwd is in no
// repository or timeout is not positive.
func StartGitStatus(ctx context.Context, cwd string, timeout time.Duration) *StatusProbe {
	root, _, ok := FindRepoRoot(cwd)
	if !ok || timeout <= 0 {
		return nil
	}
	return startStatus(ctx, root, timeout)
}

func startStatus(ctx context.Context, root string, timeout time.Duration) *StatusProbe {
	p := &StatusProbe{root: root, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.n, p.err = gitStatus(ctx, root, timeout)
	}()
	return p
}

// Wait returns the number of changed paths, or -1 and why there is none.
func (p *StatusProbe) Wait() (int, error) {
	<-p.done
	return p.n, p.err
}

// setStatus records a gitStatus result; a failure leaves Changed at -1.
func (g *Git) setStatus(n int, err error) {
	if err == nil {
		g.Changed = n
	}
}
