package tui

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tools/github"
	"github.com/gopi-agent/gopi/internal/golden"
)

func secs(n int64) *int64 { return &n }

// githubCall is a github call with args.
func githubCall(args map[string]any) *ai.ToolCall {
	return &ai.ToolCall{ID: "c1", Name: "github", Arguments: args}
}

// The github cards: the operation, what it works on, and for run_watch
// each run's jobs with their states and durations, live and finished,
// with the failed jobs' last log lines.
func TestGithubCards(t *testing.T) {
	r := &renderer{th: newTheme(true, true), width: 72}
	text := func(s string) []ai.Content { return []ai.Content{&ai.TextContent{Text: s}} }
	watching := &github.Details{Repo: "gopi-agent/gopi", Watch: &github.WatchView{State: "watching", Mode: "commit", Repo: "gopi-agent/gopi",
		HeadSHA: "0123456789abcdef0123", Poll: 2, Note: "Failure detected. Waiting 5s to capture concurrent failures before fetching logs.",
		Runs: []github.RunState{
			{ID: 11, Workflow: "CI", Branch: "main", Jobs: []github.JobState{
				{Name: "build", Status: "completed", Conclusion: "success", DurationSeconds: secs(42)},
				{Name: "test (linux)", Status: "in_progress", DurationSeconds: secs(7)},
				{Name: "lint", Status: "completed", Conclusion: "failure", DurationSeconds: secs(3)},
				{Name: "deploy", Status: "queued"},
			}},
			{ID: 12, Title: "Docs", HeadSHA: "0123456789abcdef0123", Jobs: []github.JobState{}},
		}}}
	finished := &github.Details{Repo: "gopi-agent/gopi", Watch: &github.WatchView{State: "completed", Mode: "run", Repo: "gopi-agent/gopi",
		Runs: []github.RunState{{ID: 77, Workflow: "CI", Branch: "fix", Status: "completed", Conclusion: "failure", Jobs: []github.JobState{
			{Name: "test", Status: "completed", Conclusion: "failure", DurationSeconds: secs(61)},
			{Name: "vet", Status: "completed", Conclusion: "timed_out"},
		}}},
		FailedLogs: []github.WatchLog{
			{JobName: "test", RunID: 77, Workflow: "CI", Available: true, Tail: "=== RUN TestA\n--- FAIL: TestA\n\tbad value\nFAIL\nexit status 1"},
			{JobName: "vet", RunID: 77, Workflow: "CI"},
		}}}
	// A finished run_watch read back from a saved session: details as JSON.
	saved, _ := json.Marshal(finished)
	var cards []string
	add := func(name, card string) { cards = append(cards, "== "+name+"\n"+ansi.Strip(card)) }
	add("search_issues", r.card(githubCall(map[string]any{"op": "search_issues", "query": "crash is:open", "repo": "gopi-agent/gopi"}),
		text("# GitHub issues search\n\nQuery: crash is:open\nResults: 1\n\n- #12 Crash on start"), nil, false))
	add("pr_checkout", r.card(githubCall(map[string]any{"op": "pr_checkout", "pr": []any{"12", "https://github.com/a/b/pull/34", "feature-x", "56"}}),
		text("# 4 Pull Request Worktrees"), nil, false))
	add("repo_view error", r.card(githubCall(map[string]any{"op": "repo_view", "repo": "a/b"}),
		text("GitHub CLI is not authenticated. Run `gh auth login`."), nil, true))
	add("run_watch starting", r.liveCard(githubCall(map[string]any{"op": "run_watch", "branch": "main"}), "", nil, "⠋"))
	add("run_watch watching", r.liveCard(githubCall(map[string]any{"op": "run_watch"}), "# Watching", watching, "⠋"))
	add("run_watch finished", r.card(githubCall(map[string]any{"op": "run_watch", "run": "https://github.com/gopi-agent/gopi/actions/runs/77"}),
		text("# GitHub Actions Run #77"), json.RawMessage(saved), false))
	golden.Check(t, filepath.Join("testdata", "github-cards.golden"), strings.Join(cards, "\n")+"\n")
}
