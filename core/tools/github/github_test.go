package github

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/golden"
)

// newTool is the github tool over a fresh directory, watching without
// waits.
func newTool(t *testing.T) *Tool {
	t.Helper()
	env := tool.NewEnv(t.TempDir())
	env.Settings.GitHub.Enabled = true
	env.Artifacts = artifact.NewStore(filepath.Join(t.TempDir(), "artifacts"))
	tl := New(env).(*Tool)
	tl.watch = watchTiming{}
	return tl
}

// call runs the tool with args and returns its text (the error result's
// text when it failed) and whether it failed.
func call(t *testing.T, tl tool.Tool, args map[string]any) (string, bool) {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), tl, raw, nil)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res.FirstText(), res.IsError
}

// mustCall is call for a call that must succeed.
func mustCall(t *testing.T, tl tool.Tool, args map[string]any) string {
	t.Helper()
	text, failed := call(t, tl, args)
	if failed {
		t.Fatalf("%v failed: %s", args, text)
	}
	return text
}

// Each op's text, from the JSON gh gives, and the gh command it ran.
func TestOpsGolden(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
		rule fakeRule
		want []string // the gh arguments of the op's last call
	}{
		{"repo_view", map[string]any{"op": "repo_view", "repo": "gopi-agent/gopi", "branch": "dev"}, answer("repo.json", "repo view"),
			[]string{"repo", "view", "gopi-agent/gopi", "--branch", "dev", "--json", strings.Join(repoFields, ",")}},
		{"search_issues", map[string]any{"op": "search_issues", "query": "crash", "repo": "gopi-agent/gopi"}, answer("search_issues.json", "/search/issues"),
			[]string{"api", "-X", "GET", "/search/issues", "-f", "q=crash repo:gopi-agent/gopi is:issue", "-F", "per_page=10"}},
		{"search_prs", map[string]any{"op": "search_prs", "query": "org:gopi-agent cache", "limit": 99.7}, answer("search_empty.json", "/search/issues"),
			[]string{"api", "-X", "GET", "/search/issues", "-f", "q=org:gopi-agent cache is:pr", "-F", "per_page=50"}},
		{"search_code", map[string]any{"op": "search_code", "query": "Runner", "repo": "gopi-agent/gopi", "limit": 3.9}, answer("search_code.json", "/search/code"),
			[]string{"api", "-X", "GET", "/search/code", "-f", "q=Runner repo:gopi-agent/gopi", "-F", "per_page=3", "-H", "Accept: application/vnd.github.text-match+json"}},
		{"search_commits", map[string]any{"op": "search_commits", "query": "cache", "repo": "gopi-agent/gopi"}, answer("search_commits.json", "/search/commits"),
			[]string{"api", "-X", "GET", "/search/commits", "-f", "q=cache repo:gopi-agent/gopi", "-F", "per_page=10"}},
		{"search_repos", map[string]any{"op": "search_repos", "query": "coding agent", "repo": "ignored/repo"}, answer("search_repos.json", "/search/repositories"),
			[]string{"api", "-X", "GET", "/search/repositories", "-f", "q=coding agent", "-F", "per_page=10"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := installFake(t, c.rule)
			got := mustCall(t, newTool(t), c.args)
			golden.Check(t, filepath.Join("testdata", "golden", c.name+".txt"), got+"\n")
			calls := f.calls()
			if len(calls) == 0 || !slices.Equal(calls[len(calls)-1], c.want) {
				t.Errorf("gh called with %q, want %q", calls, c.want)
			}
		})
	}
}

// A search without repo is scoped to the checkout's repository, which
// gh resolves; outside a GitHub checkout it is not scoped.
func TestSearchDefaultsToCheckout(t *testing.T) {
	f := installFake(t, fakeRule{Match: []string{"repo view"}, Answers: []fakeAnswer{{Stdout: "gopi-agent/gopi\n"}}},
		answer("search_empty.json", "/search/issues"))
	mustCall(t, newTool(t), map[string]any{"op": "search_issues", "query": "crash"})
	calls := f.calls()
	if q := calls[len(calls)-1][5]; q != "q=crash repo:gopi-agent/gopi is:issue" {
		t.Errorf("query %q", q)
	}
	f.setRules(failing("failed to run git: fatal: not a git repository (or any of the parent directories): .git", "repo view"),
		answer("search_empty.json", "/search/issues"))
	mustCall(t, newTool(t), map[string]any{"op": "search_issues", "query": "crash"})
	calls = f.calls()
	if q := calls[len(calls)-1][5]; q != "q=crash is:issue" {
		t.Errorf("query outside a checkout %q", q)
	}
}

// Bad arguments are refused before gh runs.
func TestArgumentErrors(t *testing.T) {
	f := installFake(t)
	tl := newTool(t)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"op": "search_issues"}, "query must not be empty"},
		{map[string]any{"op": "search_code", "query": "x", "limit": 0}, "limit must be a positive number"},
		{map[string]any{"op": "run_watch", "run": "abc", "repo": "a/b"}, "run must be a numeric workflow run ID"},
		{map[string]any{"op": "run_watch", "run": "5", "tail": -1, "repo": "a/b"}, "tail must be a positive number"},
		{map[string]any{"op": "run_watch", "run": "https://github.com/x/y/actions/runs/5", "repo": "a/b"}, "does not match repo a/b"},
		{map[string]any{"op": "pr_create"}, "title is required unless fill is true"},
		{map[string]any{"op": "run_watch", "repo": "a/b"}, "Current git branch is unavailable. Pass `branch` or `run` explicitly."},
		{map[string]any{"op": "pr_push"}, "Current git repository is unavailable"},
		{map[string]any{"op": "pr_checkout", "pr": 5}, "pr must be a PR number, branch or URL"},
		{map[string]any{"op": "pr_create", "fill": true, "title": "x"}, "fill cannot be combined with title or body"},
		{map[string]any{"op": "search_issues", "repo": "{}", "query": "x"}, `repo "{}" is not owner/name`},
		{map[string]any{"op": "search_commits", "repo": "-R", "query": "x"}, `repo "-R" is not owner/name`},
		{map[string]any{"op": "repo_view", "repo": "--help"}, `repo "--help" is not owner/name`},
		{map[string]any{"op": "repo_view", "repo": "../../etc"}, `repo "../../etc" is not owner/name`},
		{map[string]any{"op": "pr_create", "title": "t", "repo": "--web"}, `repo "--web" is not owner/name`},
		{map[string]any{"op": "run_watch", "run": "123", "repo": "a b/c"}, `repo "a b/c" is not owner/name`},
		{map[string]any{"op": "pr_checkout", "pr": "7", "repo": "{}"}, `repo "{}" is not owner/name`},
	} {
		text, failed := call(t, tl, c.args)
		if !failed || !strings.Contains(text, c.want) {
			t.Errorf("%v: %q, want an error with %q", c.args, text, c.want)
		}
	}
	if n := len(f.calls()); n != 0 {
		t.Errorf("gh ran %d times", n)
	}
}

// gh's failures read as one line saying what to do.
func TestGhFailures(t *testing.T) {
	tl := newTool(t)
	repoView := map[string]any{"op": "repo_view"}
	installFake(t, failing("To get started with GitHub CLI, please run:  gh auth login\nAlternatively, populate the GH_TOKEN environment variable.", "repo view"))
	if text, _ := call(t, tl, repoView); text != msgNotLoggedIn {
		t.Errorf("not logged in: %q", text)
	}
	installFake(t, failing("failed to run git: fatal: not a git repository (or any of the parent directories): .git", "repo view"))
	if text, _ := call(t, tl, repoView); text != msgNoRepo {
		t.Errorf("no repo: %q", text)
	}
	installFake(t, failing("HTTP 404: Not Found (https://api.github.com/repos/a/b)\nsecond line\nthird", "repo view"))
	if text, _ := call(t, tl, map[string]any{"op": "repo_view", "repo": "a/b"}); text != "gh repo view failed: HTTP 404: Not Found (https://api.github.com/repos/a/b) (+2 more lines)" {
		t.Errorf("failure: %q", text)
	}
	installFake(t, fakeRule{Match: []string{"repo view"}, Answers: []fakeAnswer{{Stdout: "not json"}}})
	if text, _ := call(t, tl, repoView); text != msgInvalidJSON {
		t.Errorf("bad JSON: %q", text)
	}
	t.Setenv("PATH", t.TempDir())
	if text, _ := call(t, tl, repoView); text != msgNotInstalled {
		t.Errorf("no gh: %q", text)
	}
	if Available(tl.env) {
		t.Error("offered without gh")
	}
}

// A gh that never answers is stopped at the timeout, with everything it
// started.
func TestHangingGh(t *testing.T) {
	f := installFake(t, fakeRule{Match: []string{"repo view"}, Answers: []fakeAnswer{{Hang: true}}})
	tl := newTool(t)
	tl.gh.Timeout = 300 * time.Millisecond
	text, failed := call(t, tl, map[string]any{"op": "repo_view"})
	if !failed || !strings.HasPrefix(text, "gh repo view did not answer within 300ms and was stopped") {
		t.Errorf("got %q", text)
	}
	// Cancelled by the caller: an abort, not a timeout message.
	tl.gh.Timeout = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := tool.Run(ctx, tl, json.RawMessage(`{"op":"repo_view"}`), nil)
		done <- err
	}()
	f.waitHang()
	cancel()
	if err := <-done; !errors.Is(err, tool.ErrAborted) {
		t.Errorf("cancelled call: %v", err)
	}
}

// The tool is offered with github.enabled and gh on PATH only.
func TestAvailable(t *testing.T) {
	installFake(t)
	env := tool.NewEnv(t.TempDir())
	if Available(env) {
		t.Error("offered with github.enabled off (the default)")
	}
	env.Settings.GitHub.Enabled = true
	if !Available(env) {
		t.Error("not offered with github.enabled and gh present")
	}
}
