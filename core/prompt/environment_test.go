package prompt

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestFindRepoRootAndHead(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	main := filepath.Join(root, "main")
	wt := filepath.Join(root, "wt", "sub")
	for _, d := range []string{
		filepath.Join(main, ".git", "worktrees", "wt"),
		filepath.Join(main, "deep", "er"),
		wt,
	} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(main, ".git", "HEAD"), []byte("ref: refs/heads/feature/x\n"), 0o644)
	// A worktree: .git is a file naming the git directory, here relatively.
	os.WriteFile(filepath.Join(root, "wt", ".git"), []byte("gitdir: ../main/.git/worktrees/wt\n"), 0o644)
	os.WriteFile(filepath.Join(main, ".git", "worktrees", "wt", "HEAD"), []byte("0123456789abcdef0123456789abcdef01234567\n"), 0o644)

	cases := []struct {
		dir, root, gitDir, branch, commit string
	}{
		{filepath.Join(main, "deep", "er"), main, filepath.Join(main, ".git"), "feature/x", ""},
		{wt, filepath.Join(root, "wt"), filepath.Join(main, ".git", "worktrees", "wt"), "", "01234567"},
	}
	for _, c := range cases {
		r, g, ok := FindRepoRoot(c.dir)
		if !ok || r != c.root || g != c.gitDir {
			t.Errorf("FindRepoRoot(%s) = %s, %s, %v; want %s, %s", c.dir, r, g, ok, c.root, c.gitDir)
			continue
		}
		if b, cm := readHead(g); b != c.branch || cm != c.commit {
			t.Errorf("readHead(%s) = %q, %q; want %q, %q", g, b, cm, c.branch, c.commit)
		}
	}
	if r, _, ok := FindRepoRoot(root); ok && strings.HasPrefix(r, root) {
		t.Errorf("found a repository at %s above the fixtures", r)
	}
}

func TestEnvironment(t *testing.T) {
	dir := t.TempDir()
	env := Environment(context.Background(), EnvOptions{Cwd: dir, Shell: "/bin/zsh", Now: fixedNow})
	if env.Date != "2026-11-23" || env.Cwd != dir || env.Shell != "/bin/zsh" || env.OS != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("env: %+v", env)
	}
	if env.Git != nil {
		t.Skipf("the temporary directory is inside a repository (%s)", env.Git.Root)
	}
	if got := describeGit(nil); got != "not a repository" {
		t.Errorf("describeGit(nil) = %q", got)
	}
}

func TestDescribeGit(t *testing.T) {
	for _, c := range []struct {
		g    Git
		want string
	}{
		{Git{Root: "/r", Branch: "main", Changed: -1}, "repository at /r, branch main"},
		{Git{Root: "/r", Branch: "main", Changed: 0}, "repository at /r, branch main, no uncommitted changes at start"},
		{Git{Root: "/r", Commit: "01234567", Changed: 1}, "repository at /r, detached HEAD at 01234567, 1 path with uncommitted changes at start"},
		{Git{Root: "/r", Changed: 3}, "repository at /r, 3 paths with uncommitted changes at start"},
	} {
		if got := describeGit(&c.g); got != c.want {
			t.Errorf("describeGit(%+v) = %q, want %q", c.g, got, c.want)
		}
	}
}

// TestGitStatus runs the real git: a fresh repository is clean, an
// untracked and a modified file make two changed paths, and a deadline too
// short for git leaves the state unknown with a warning.
// statusBound is the time limit of the git status runs that must finish:
// generous, since a loaded machine can take seconds to start git.
const statusBound = time.Minute

func TestGitStatus(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "trunk")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	run("add", "a.txt")
	run("commit", "-q", "-m", "a")

	ctx := context.Background()
	env := Environment(ctx, EnvOptions{Cwd: dir, GitStatusTimeout: statusBound})
	if env.Git == nil || env.Git.Root != dir || env.Git.Branch != "trunk" || env.Git.Changed != 0 {
		t.Fatalf("clean repository: %+v", env.Git)
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("new\n"), 0o644)
	if env := Environment(ctx, EnvOptions{Cwd: dir, GitStatusTimeout: statusBound}); env.Git.Changed != 2 {
		t.Errorf("two changes: %+v", env.Git)
	}
	if env := Environment(ctx, EnvOptions{Cwd: dir}); env.Git.Changed != -1 {
		t.Errorf("status run without a timeout: %+v", env.Git)
	}
	// Started early and handed to Build.
	probe := StartGitStatus(ctx, dir, statusBound)
	if p, err := Build(ctx, Options{Cwd: dir, ContextFiles: []ContextFile{}, GitStatus: probe}); err != nil || p.Env.Git.Changed != 2 {
		t.Errorf("early probe: %+v, %v", p.Env.Git, err)
	}
	if StartGitStatus(ctx, dir, 0) != nil {
		t.Error("a probe without a timeout was started")
	}

	p, err := Build(ctx, Options{Cwd: dir, ContextFiles: []ContextFile{}, GitStatusTimeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if p.Env.Git.Changed != -1 || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "gave up") {
		t.Errorf("timed-out status: %+v, warnings %q", p.Env.Git, p.Warnings)
	}
	if !strings.HasSuffix(p.Text, "\n- Git: repository at "+dir+", branch trunk") {
		t.Errorf("git line in:\n%s", p.Text)
	}
}
