package github

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// gitT runs git in dir for a test.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// prRepo builds an origin (a bare repository) with main and a PR branch
// feature/cache, and a clone of it; it returns the clone, the origin and
// the PR head's commit.
func prRepo(t *testing.T) (clone, origin, head string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (scripts/setup.sh installs it)")
	}
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
		"GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1"} {
		t.Setenv(k, v)
	}
	root := t.TempDir()
	origin = filepath.Join(root, "origin.git")
	src := filepath.Join(root, "src")
	gitT(t, root, "init", "-q", "--bare", "-b", "main", origin)
	gitT(t, root, "init", "-q", "-b", "main", src)
	if err := os.WriteFile(filepath.Join(src, "a.txt"), []byte("main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, src, "add", ".")
	gitT(t, src, "commit", "-q", "-m", "main")
	gitT(t, src, "checkout", "-q", "-b", "feature/cache")
	if err := os.WriteFile(filepath.Join(src, "a.txt"), []byte("feature\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, src, "commit", "-q", "-am", "feature")
	head = gitT(t, src, "rev-parse", "HEAD")
	gitT(t, src, "push", "-q", origin, "main", "feature/cache")
	clone = filepath.Join(root, "clone")
	gitT(t, root, "clone", "-q", origin, clone)
	return clone, origin, head
}

// pr_checkout puts the PR in a worktree on pr-34 set to push back; a
// second checkout reuses it; pr_push from the worktree updates the PR's
// head branch on the remote.
func TestPRCheckoutAndPush(t *testing.T) {
	clone, origin, head := prRepo(t)
	prJSON := `{"baseRefName":"main","headRefName":"feature/cache","headRefOid":"` + head + `","headRepository":{"name":"gopi","nameWithOwner":"gopi-agent/gopi"},"headRepositoryOwner":{"login":"gopi-agent"},"isCrossRepository":false,"maintainerCanModify":true,"number":34,"title":"Cache issue views","url":"https://github.com/gopi-agent/gopi/pull/34"}`
	f := installFake(t, fakeRule{Match: []string{"pr view 34"}, Answers: []fakeAnswer{{Stdout: prJSON}}})
	env := tool.NewEnv(clone)
	env.Settings.GitHub.WorktreesDir = filepath.Join(t.TempDir(), "wt")
	tl := New(env)
	text := mustCall(t, tl, map[string]any{"op": "pr_checkout", "pr": "34"})
	realClone, _ := filepath.EvalSymlinks(clone)
	wt := filepath.Join(env.Settings.GitHub.WorktreesDir, encodeRepoPath(realClone), "pr-34")
	if real, err := filepath.EvalSymlinks(wt); err == nil {
		wt = real
	}
	want := "# Checked Out Pull Request #34\n\nTitle: Cache issue views\nURL: https://github.com/gopi-agent/gopi/pull/34\nBase: main\nHead: feature/cache\n" +
		"Local branch: pr-34\nWorktree: " + wt + "\nRemote: origin\nRemote URL: " + origin + "\nCross repository: false\nMaintainer can modify: true\n\n" +
		"Created a dedicated worktree for this PR and set its branch to push back to the PR's head branch."
	if text != want {
		t.Fatalf("got:\n%s\nwant:\n%s", text, want)
	}
	if got := gitT(t, wt, "rev-parse", "HEAD"); got != head {
		t.Errorf("worktree at %s, want %s", got, head)
	}
	for k, v := range map[string]string{"remote": "origin", "pushRemote": "origin", "merge": "refs/heads/feature/cache",
		"ompPrHeadRef": "feature/cache", "ompPrUrl": "https://github.com/gopi-agent/gopi/pull/34", "ompPrIsCrossRepository": "false"} {
		if got := gitT(t, clone, "config", "--get", "branch.pr-34."+k); got != v {
			t.Errorf("branch.pr-34.%s = %q, want %q", k, got, v)
		}
	}
	if again := mustCall(t, tl, map[string]any{"op": "pr_checkout", "pr": []string{"34"}}); !strings.HasPrefix(again, "# Pull Request #34 Worktree") ||
		!strings.HasSuffix(again, "Reused the existing PR worktree.") {
		t.Errorf("second checkout: %s", again)
	}
	if c := f.calls()[0]; strings.Join(c, " ") != "pr view 34 --json "+joinFields(prCheckoutFields) {
		t.Errorf("gh %q", c)
	}

	if err := os.WriteFile(filepath.Join(wt, "a.txt"), []byte("reviewed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, wt, "commit", "-q", "-am", "review fix")
	pushed := mustCall(t, New(tool.NewEnv(wt)), map[string]any{"op": "pr_push"})
	if !strings.HasSuffix(pushed, "Pushed pr-34 to origin:feature/cache.") || !strings.Contains(pushed, "PR: https://github.com/gopi-agent/gopi/pull/34") {
		t.Errorf("push: %s", pushed)
	}
	if got, want := gitT(t, origin, "rev-parse", "feature/cache"), gitT(t, wt, "rev-parse", "HEAD"); got != want {
		t.Errorf("origin's feature/cache at %s, want %s", got, want)
	}
	if text, failed := call(t, New(tool.NewEnv(clone)), map[string]any{"op": "pr_push", "branch": "main"}); !failed ||
		text != "branch main has no PR push metadata; check it out via op: pr_checkout first" {
		t.Errorf("push without metadata: %q", text)
	}
}

// An existing pr-N branch elsewhere is reset only with force.
func TestPRCheckoutExistingBranch(t *testing.T) {
	clone, _, head := prRepo(t)
	gitT(t, clone, "branch", "pr-34", "main")
	prJSON := `{"baseRefName":"main","headRefName":"feature/cache","headRefOid":"` + head + `","number":34,"title":"T","url":"u"}`
	installFake(t, fakeRule{Match: []string{"pr view"}, Answers: []fakeAnswer{{Stdout: prJSON}}})
	env := tool.NewEnv(clone)
	env.Settings.GitHub.WorktreesDir = filepath.Join(t.TempDir(), "wt")
	text, failed := call(t, New(env), map[string]any{"op": "pr_checkout", "pr": "34"})
	if !failed || !strings.HasPrefix(text, "local branch pr-34 already exists at ") || !strings.HasSuffix(text, "; pass force=true to reset it") {
		t.Fatalf("got %q", text)
	}
	mustCall(t, New(env), map[string]any{"op": "pr_checkout", "pr": "34", "force": true})
	if got := gitT(t, clone, "rev-parse", "pr-34"); got != head {
		t.Errorf("pr-34 at %s after force, want %s", got, head)
	}
}

// Several PRs in one call: each gets its worktree, the git changes
// taking turns on the shared repository.
func TestPRCheckoutBatch(t *testing.T) {
	clone, _, head := prRepo(t)
	gitT(t, clone, "checkout", "-q", "-b", "feature/two", "origin/main")
	if err := os.WriteFile(filepath.Join(clone, "b.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, clone, "add", ".")
	gitT(t, clone, "commit", "-q", "-m", "two")
	head2 := gitT(t, clone, "rev-parse", "HEAD")
	gitT(t, clone, "push", "-q", "origin", "feature/two")
	gitT(t, clone, "checkout", "-q", "main")
	pr := func(n int, branch, oid string) string {
		return `{"baseRefName":"main","headRefName":"` + branch + `","headRefOid":"` + oid + `","number":` + strconv.Itoa(n) + `,"title":"PR","url":"https://github.com/o/r/pull/` + strconv.Itoa(n) + `"}`
	}
	installFake(t, fakeRule{Match: []string{"pr view 34"}, Answers: []fakeAnswer{{Stdout: pr(34, "feature/cache", head)}}},
		fakeRule{Match: []string{"pr view 35"}, Answers: []fakeAnswer{{Stdout: pr(35, "feature/two", head2)}}})
	env := tool.NewEnv(clone)
	env.Settings.GitHub.WorktreesDir = filepath.Join(t.TempDir(), "wt")
	raw, _ := json.Marshal(map[string]any{"op": "pr_checkout", "pr": []string{"34", "35"}})
	res, err := tool.Run(context.Background(), New(env), raw, nil)
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, res.FirstText())
	}
	if text := res.FirstText(); !strings.HasPrefix(text, "# 2 Pull Request Worktrees (2 checked out)\n\n# Checked Out Pull Request #34") ||
		!strings.Contains(text, "\n\n---\n\n# Checked Out Pull Request #35") {
		t.Errorf("got:\n%s", text)
	}
	d := res.Details.(*Details)
	if len(d.Checkouts) != 2 || gitT(t, d.Checkouts[1].WorktreePath, "rev-parse", "HEAD") != head2 {
		t.Errorf("checkouts %+v", d.Checkouts)
	}
}
