package commitgen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// Time limits of the git commands run.
const (
	gitTimeout    = 60 * time.Second  // status, diff, log, add, apply
	commitTimeout = 10 * time.Minute  // commit: the repository's hooks run (linters, tests)
	pushTimeout   = 120 * time.Second // push: a network round trip
)

// Repo runs git in one working tree.
type Repo struct {
	Dir string   // the working tree
	Env []string // git's environment (nil: gopi's)
}

// git runs one git command and returns its standard output; the error
// carries git's own message.
func (r *Repo) git(ctx context.Context, timeout time.Duration, stdin string, args ...string) (string, error) {
	return r.gitWith(ctx, timeout, nil, stdin, args...)
}

// gitWith is git with variables added to its environment.
func (r *Repo) gitWith(ctx context.Context, timeout time.Duration, extraEnv []string, stdin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Paths unquoted (non-ASCII names as they are), so that lists, diff
	// headers and the tools' arguments name files the same way.
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.quotePath=false"}, args...)...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	if len(extraEnv) > 0 {
		base := r.Env
		if base == nil {
			base = os.Environ()
		}
		cmd.Env = append(slices.Clone(base), extraEnv...)
	}
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	childproc.PrepareCancelGroup(cmd)
	if err := cmd.Run(); err != nil {
		// git's first line says it; usage text may follow.
		msg, _, _ := strings.Cut(strings.TrimSpace(errb.String()), "\n")
		switch ctx.Err() {
		case context.DeadlineExceeded:
			msg = fmt.Sprintf("no answer in %s", timeout)
		case context.Canceled:
			msg = "interrupted"
		}
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}

// Check fails, saying so, when Dir is not inside a git working tree.
func (r *Repo) Check(ctx context.Context) error {
	if _, err := r.git(ctx, gitTimeout, "", "rev-parse", "--is-inside-work-tree"); err != nil {
		return fmt.Errorf("%s is not in a git working tree; run gopi commit inside a repository (%w)", r.Dir, err)
	}
	return nil
}

// StagedFiles lists the paths with staged changes.
func (r *Repo) StagedFiles(ctx context.Context) ([]string, error) {
	out, err := r.git(ctx, gitTimeout, "", "diff", "--cached", "--name-only", "-z")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// StageAll stages every change of the working tree (git add -A),
// untracked files included, and returns the index as it was before, for
// the caller to put back (IndexSnapshot.Restore) when it commits nothing:
// after a dry run or a failure.
func (r *Repo) StageAll(ctx context.Context) (*IndexSnapshot, error) {
	snap, err := r.SaveIndex(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := r.git(ctx, gitTimeout, "", "add", "-A"); err != nil {
		_, _ = snap.Restore(ctx)
		return nil, err
	}
	return snap, nil
}

// StagedDiff returns the staged diff without the lock files of
// package managers (ExcludedFromDiff), and its --stat summary.
func (r *Repo) StagedDiff(ctx context.Context, files []string) (diff, stat string, err error) {
	args := []string{"diff", "--cached", "--no-color", "--no-ext-diff", "--"}
	kept := 0
	for _, f := range files {
		if !ExcludedFromDiff(f) {
			args = append(args, f)
			kept++
		}
	}
	if kept > 0 {
		if diff, err = r.git(ctx, gitTimeout, "", args...); err != nil {
			return "", "", err
		}
	}
	stat, err = r.git(ctx, gitTimeout, "", "diff", "--cached", "--stat", "--no-color")
	return diff, stat, err
}

// RecentSubjects returns the subjects of the last n commits, newest first
// (none in a repository without commits).
func (r *Repo) RecentSubjects(ctx context.Context, n int) []string {
	out, err := r.git(ctx, gitTimeout, "", "log", "-n", fmt.Sprint(n), "--format=%s")
	if err != nil {
		return nil
	}
	var subjects []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line != "" {
			subjects = append(subjects, line)
		}
	}
	return subjects
}

// Commit records the staged changes with message.
func (r *Repo) Commit(ctx context.Context, message string) error {
	_, err := r.git(ctx, commitTimeout, message, "commit", "-q", "-F", "-")
	return err
}

// Push pushes the current branch to its upstream.
func (r *Repo) Push(ctx context.Context) error {
	_, err := r.git(ctx, pushTimeout, "", "push", "-q")
	return err
}

// lockFiles are the package managers' lock files left out of the diff
// the model reads: long, generated, and saying nothing a message needs.
var lockFiles = []string{
	"cargo.lock", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "shrinkwrap.yaml",
	"bun.lock", "bun.lockb", "deno.lock", "composer.lock", "gemfile.lock", "poetry.lock", "pipfile.lock", "pdm.lock",
	"uv.lock", "go.sum", "flake.lock", "pubspec.lock", "podfile.lock", "packages.resolved", "mix.lock",
	"packages.lock.json",
}

// ExcludedFromDiff reports whether path is a lock file whose diff the
// model is not shown (its name still appears in the --stat summary).
func ExcludedFromDiff(path string) bool {
	lower := strings.ToLower(path)
	for _, name := range lockFiles {
		if strings.HasSuffix(lower, name) {
			return true
		}
	}
	for _, suffix := range []string{".lock.yml", ".lock.yaml", "-lock.yml", "-lock.yaml"} {
		if strings.HasSuffix(lower, suffix) {
			return true
		}
	}
	return false
}

// StagedDiffOf returns the staged diff of some files and its --stat
// summary.
func (r *Repo) StagedDiffOf(ctx context.Context, files []string) (diff, stat string, err error) {
	args := append([]string{"diff", "--cached", "--no-color", "--no-ext-diff", "--"}, files...)
	if diff, err = r.git(ctx, gitTimeout, "", args...); err != nil {
		return "", "", err
	}
	stat, err = r.git(ctx, gitTimeout, "", append([]string{"diff", "--cached", "--stat", "--no-color", "--"}, files...)...)
	return diff, stat, err
}

// Stage stages files (paths relative to Dir or absolute).
func (r *Repo) Stage(ctx context.Context, files ...string) error {
	_, err := r.git(ctx, gitTimeout, "", append([]string{"add", "--"}, files...)...)
	return err
}

// Root returns the top of the working tree.
func (r *Repo) Root(ctx context.Context) (string, error) {
	out, err := r.git(ctx, gitTimeout, "", "rev-parse", "--show-toplevel")
	return strings.TrimSpace(out), err
}

// Diff returns `git diff` of the staged changes (staged) or of the work
// tree against the index, limited to files when given; extra are more
// options (--stat, --numstat, --name-only, --binary).
func (r *Repo) Diff(ctx context.Context, staged bool, files []string, extra ...string) (string, error) {
	// The a/ and b/ prefixes whatever diff.noprefix or
	// diff.mnemonicPrefix say: ParseFileDiffs reads them.
	args := []string{"diff", "--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/"}
	if staged {
		args = append(args, "--cached")
	}
	args = append(args, extra...)
	if len(files) > 0 {
		args = append(append(args, "--"), files...)
	}
	return r.git(ctx, gitTimeout, "", args...)
}

// Numstat returns the lines added and removed per file, staged or not.
func (r *Repo) Numstat(ctx context.Context, staged bool) ([]NumstatEntry, error) {
	out, err := r.Diff(ctx, staged, nil, "--numstat")
	if err != nil {
		return nil, err
	}
	return ParseNumstat(out), nil
}

// ChangedFiles lists the files with staged changes (staged) or with
// changes not staged.
func (r *Repo) ChangedFiles(ctx context.Context, staged bool) ([]string, error) {
	out, err := r.Diff(ctx, staged, nil, "--name-only")
	if err != nil {
		return nil, err
	}
	return nonEmptyLines(out), nil
}

// Untracked lists the files git does not track and does not ignore.
func (r *Repo) Untracked(ctx context.Context) ([]string, error) {
	out, err := r.git(ctx, gitTimeout, "", "ls-files", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	return nonEmptyLines(out), nil
}

// nonEmptyLines splits output into its lines that are not empty.
func nonEmptyLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
