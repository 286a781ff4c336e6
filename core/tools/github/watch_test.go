package github

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/golden"
)

// runRules answer the run and jobs polls in turn, and job 2's log.
func runRules(runs, jobs []string) []fakeRule {
	answers := func(files []string) []fakeAnswer {
		var out []fakeAnswer
		for _, f := range files {
			out = append(out, fakeAnswer{Stdout: readString(filepath.Join("testdata", f))})
		}
		return out
	}
	return []fakeRule{
		{Match: []string{"/actions/runs/777/jobs"}, Answers: answers(jobs)},
		{Match: []string{"/actions/runs/777"}, Answers: answers(runs)},
		answer("job2.log", "/actions/jobs/2/logs"),
	}
}

// watch runs run_watch on run 777 and returns the final text, the
// progress texts and the details.
func watch(t *testing.T, tl *Tool, args map[string]any) (string, []string, *Details) {
	t.Helper()
	raw, _ := json.Marshal(args)
	var updates []string
	res, err := tool.Run(context.Background(), tl, raw, func(p *tool.Result) { updates = append(updates, p.FirstText()) })
	if err != nil || res.IsError {
		t.Fatalf("run_watch: %v %s", err, res.FirstText())
	}
	return res.FirstText(), updates, res.Details.(*Details)
}

// A run followed until it succeeds: one progress update per poll.
func TestRunWatchSuccess(t *testing.T) {
	f := installFake(t, runRules([]string{"run_progress.json", "run_success.json"}, []string{"jobs_progress.json", "jobs_success.json"})...)
	text, updates, d := watch(t, newTool(t), map[string]any{"op": "run_watch", "run": "https://github.com/gopi-agent/gopi/actions/runs/777"})
	golden.Check(t, filepath.Join("testdata", "golden", "run_watch_success.txt"), text+"\n")
	golden.Check(t, filepath.Join("testdata", "golden", "run_watch_progress.txt"), updates[0]+"\n")
	if len(updates) != 2 || d.RunID != 777 || d.Conclusion != "success" || d.Watch.State != "completed" {
		t.Errorf("updates %d, details %+v", len(updates), d)
	}
	if c := f.calls()[0]; strings.Join(c, " ") != "api --method GET /repos/gopi-agent/gopi/actions/runs/777" {
		t.Errorf("first call %q", c)
	}
}

// A failed job ends the watch after the grace poll, with the log's tail
// inline and the full log saved as an artifact.
func TestRunWatchFailure(t *testing.T) {
	installFake(t, runRules([]string{"run_progress.json", "run_failure.json"}, []string{"jobs_failure.json"})...)
	tl := newTool(t)
	tl.watch.grace = time.Nanosecond // a grace wait, shown as 0s
	text, updates, d := watch(t, tl, map[string]any{"op": "run_watch", "run": "777", "repo": "gopi-agent/gopi", "tail": 2})
	golden.Check(t, filepath.Join("testdata", "golden", "run_watch_failure.txt"), text+"\n")
	if len(updates) != 2 || !strings.Contains(updates[1], "Note: Failure detected. Waiting 0s") {
		t.Errorf("updates: %q", updates)
	}
	full, err := tl.env.Artifacts.Read(d.ArtifactID)
	if err != nil || !strings.Contains(full, "Full log:\n```text\nline 1\nline 2\nline 3\n--- FAIL: TestCache\nFAIL\n```") {
		t.Errorf("artifact %q: %v %q", d.ArtifactID, err, full)
	}
	if len(d.FailedJobs) != 1 || d.FailedJobs[0] != "test" {
		t.Errorf("failed jobs %q", d.FailedJobs)
	}
	// The renderer's view: the mode, each job's duration, the log tail.
	w := d.Watch
	if w.Mode != "run" || w.Repo != "gopi-agent/gopi" || len(w.Runs) != 1 || len(w.Runs[0].Jobs) != 2 {
		t.Fatalf("watch view %+v", w)
	}
	if j := w.Runs[0].Jobs[1]; j.DurationSeconds == nil || *j.DurationSeconds != 110 {
		t.Errorf("duration of %s: %v", j.Name, j.DurationSeconds)
	}
	if len(w.FailedLogs) != 1 || w.FailedLogs[0].JobName != "test" || !w.FailedLogs[0].Available || w.FailedLogs[0].Tail != "--- FAIL: TestCache\nFAIL" {
		t.Errorf("failed logs %+v", w.FailedLogs)
	}
}

// Without run, the runs of the branch's head commit are watched; success
// is confirmed by one more poll with the same runs.
func TestRunWatchCommit(t *testing.T) {
	runs := `{"total_count":1,"workflow_runs":[` + readString("testdata/run_success.json") + `]}`
	f := installFake(t,
		fakeRule{Match: []string{"/branches/feature"}, Answers: []fakeAnswer{{Stdout: `{"name":"feature/cache","commit":{"sha":"0123456789abcdef0123456789abcdef01234567"}}`}}},
		fakeRule{Match: []string{"/actions/runs/777/jobs"}, Answers: []fakeAnswer{{Stdout: readString("testdata/jobs_success.json")}}},
		fakeRule{Match: []string{"/actions/runs"}, Answers: []fakeAnswer{{Stdout: runs}}})
	text, updates, d := watch(t, newTool(t), map[string]any{"op": "run_watch", "repo": "gopi-agent/gopi", "branch": "feature/cache"})
	golden.Check(t, filepath.Join("testdata", "golden", "run_watch_commit.txt"), text+"\n")
	if len(updates) != 3 || !strings.Contains(updates[1], "Waiting 0s to ensure no additional runs appear") {
		t.Errorf("updates: %q", updates)
	}
	if len(d.RunIDs) != 0 && d.RunID != 777 {
		t.Errorf("details %+v", d)
	}
	if d.Watch.Mode != "commit" || d.Watch.HeadSHA != "0123456789abcdef0123456789abcdef01234567" {
		t.Errorf("watch view %+v", d.Watch)
	}
	var listed bool
	for _, c := range f.calls() {
		listed = listed || strings.Join(c, " ") == "api --method GET /repos/gopi-agent/gopi/actions/runs -F head_sha=0123456789abcdef0123456789abcdef01234567 -F per_page=100 -F branch=feature/cache"
	}
	if !listed {
		t.Errorf("runs not listed by commit: %q", f.calls())
	}
}

// Cancelling a watch ends it between polls.
func TestRunWatchCancel(t *testing.T) {
	installFake(t, runRules([]string{"run_progress.json"}, []string{"jobs_progress.json"})...)
	tl := newTool(t)
	tl.watch = defaultWatchTiming
	ctx, cancel := context.WithCancel(context.Background())
	_, err := tool.Run(ctx, tl, json.RawMessage(`{"op":"run_watch","run":"777","repo":"gopi-agent/gopi"}`), func(*tool.Result) { cancel() })
	if err == nil || !strings.Contains(err.Error(), "aborted") {
		t.Errorf("got %v", err)
	}
}

// pr_create passes every flag, sends the body through a file and reads
// the new PR back.
func TestPRCreate(t *testing.T) {
	f := installFake(t,
		fakeRule{Match: []string{"pr create"}, Answers: []fakeAnswer{{Stdout: "Creating pull request\nhttps://github.com/gopi-agent/gopi/pull/34\n"}}},
		answer("pr34.json", "pr view 34"))
	text := mustCall(t, newTool(t), map[string]any{"op": "pr_create", "title": "Cache issue views", "body": "Adds the cache.",
		"base": "main", "draft": true, "reviewer": []string{"hubot"}, "label": []string{"enhancement"}})
	golden.Check(t, filepath.Join("testdata", "golden", "pr_create.txt"), text+"\n")
	c := f.calls()[0]
	joined := strings.Join(c, " ")
	if !strings.HasPrefix(joined, "pr create --title Cache issue views --base main --draft --reviewer hubot --label enhancement --body-file ") {
		t.Errorf("gh %q", joined)
	}
	if !strings.HasSuffix(joined, "/body.md") || readString(c[len(c)-1]) != "" {
		t.Errorf("body file %q not removed after the call", c[len(c)-1])
	}
	mustCall(t, newTool(t), map[string]any{"op": "pr_create", "fill": true})
	calls := f.calls()
	if got := strings.Join(calls[len(calls)-2], " "); got != "pr create --fill" {
		t.Errorf("fill: gh %q", got)
	}
}

// A run that never ends is followed until run_watch's limit, then the
// call returns the last state with a note instead of polling forever
// (one run, and every run of a commit).
func TestRunWatchLimit(t *testing.T) {
	if defaultWatchTiming.limit != RunWatchLimit || RunWatchLimit <= 0 {
		t.Fatal("no default limit")
	}
	installFake(t, append(runRules([]string{"run_progress.json"}, []string{"jobs_progress.json"}),
		fakeRule{Match: []string{"/branches/feature"}, Answers: []fakeAnswer{{Stdout: `{"name":"feature","commit":{"sha":"0123456789abcdef0123456789abcdef01234567"}}`}}},
		fakeRule{Match: []string{"/actions/runs"}, Answers: []fakeAnswer{{Stdout: `{"total_count":1,"workflow_runs":[` + readString("testdata/run_progress.json") + `]}`}}})...)
	for _, args := range []map[string]any{
		{"op": "run_watch", "run": "777", "repo": "gopi-agent/gopi"},
		{"op": "run_watch", "repo": "gopi-agent/gopi", "branch": "feature"},
	} {
		tl := newTool(t)
		tl.watch = watchTiming{interval: time.Millisecond, limit: 200 * time.Millisecond}
		text, updates, d := watch(t, tl, args)
		if !strings.Contains(text, "Note: Stopped watching after ") || !strings.Contains(text, "Call run_watch again to keep watching.") {
			t.Errorf("%v: %s", args, text)
		}
		if len(updates) < 1 || d.Watch == nil || d.Watch.State != "watching" || !strings.HasPrefix(d.Watch.Note, "Stopped watching") {
			t.Errorf("%v: %d updates, details %+v", args, len(updates), d.Watch)
		}
	}
}
