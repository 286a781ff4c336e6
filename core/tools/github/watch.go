package github

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// run_watch constants.
const (
	RunWatchInterval    = 3 * time.Second // between two polls
	RunWatchGrace       = 5 * time.Second // after the first failed job, before the logs are fetched
	RunWatchTailDefault = 15              // log lines per failed job by default
	RunWatchTailMax     = 200             // at most
	// RunWatchLimit is how long one run_watch call follows runs that do
	// not end (omp has no limit: only an abort stops it). Then the call
	// returns the current state with a note; calling it again goes on.
	RunWatchLimit   = time.Hour
	runJobsPageSize = 100 // jobs per page of the jobs API
)

// watchTiming are the waits of run_watch (tests shorten them): between
// polls, after a failure, and the whole watch at most (0: no limit).
type watchTiming struct{ interval, grace, limit time.Duration }

// defaultWatchTiming is the spec's: poll every 3 s, 5 s of grace; and
// gopi's limit of an hour.
var defaultWatchTiming = watchTiming{interval: RunWatchInterval, grace: RunWatchGrace, limit: RunWatchLimit}

// runURL matches an Actions run URL: owner/repo and run id.
var runURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^https://github\.com/([^/]+/[^/]+)/actions/runs/(\d+)(?:/.*)?$`)
})

// Conclusions that end a run or a job well or badly.
var (
	runSuccess = []string{"success", "neutral", "skipped"}
	runFailure = []string{"failure", "timed_out", "cancelled", "action_required", "startup_failure"}
	jobFailure = []string{"failure", "timed_out", "cancelled", "action_required"}
)

// WatchView is the run_watch snapshot renderers show.
type WatchView struct {
	State      string     `json:"state"`                // "watching" or "completed"
	Mode       string     `json:"mode,omitempty"`       // "run" (one run) or "commit" (every run of a commit)
	Repo       string     `json:"repo,omitempty"`       // owner/repo
	HeadSHA    string     `json:"headSha,omitempty"`    // the commit watched (commit mode)
	Poll       int        `json:"poll,omitempty"`       // polls so far
	Note       string     `json:"note,omitempty"`       // what the watch is waiting for
	Runs       []RunState `json:"runs"`                 // the runs watched
	FailedLogs []WatchLog `json:"failedLogs,omitempty"` // the failed jobs' log tails, once fetched
}

// WatchLog is the end of a failed job's log.
type WatchLog struct {
	JobName   string `json:"jobName"`
	RunID     int64  `json:"runId"`
	Workflow  string `json:"workflowName,omitempty"`
	Available bool   `json:"available"`      // false when gh could not fetch it
	Tail      string `json:"tail,omitempty"` // its last lines
}

// RunState is one workflow run as last polled.
type RunState struct {
	ID         int64      `json:"id"`
	Workflow   string     `json:"workflow,omitempty"`
	Title      string     `json:"title,omitempty"`
	Branch     string     `json:"branch,omitempty"`
	HeadSHA    string     `json:"headSha,omitempty"`
	Status     string     `json:"status,omitempty"`
	Conclusion string     `json:"conclusion,omitempty"`
	CreatedAt  string     `json:"createdAt,omitempty"`
	UpdatedAt  string     `json:"updatedAt,omitempty"`
	URL        string     `json:"url,omitempty"`
	Jobs       []JobState `json:"jobs"`
}

// JobState is one job of a run.
type JobState struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Status      string `json:"status,omitempty"`
	Conclusion  string `json:"conclusion,omitempty"`
	StartedAt   string `json:"startedAt,omitempty"`
	CompletedAt string `json:"completedAt,omitempty"`
	URL         string `json:"url,omitempty"`
	// DurationSeconds is how long the job ran: to its end, or to the poll
	// for a job still running; nil before it started.
	DurationSeconds *int64 `json:"durationSeconds,omitempty"`
}

// apiRun is a run as the Actions API returns it.
type apiRun struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	DisplayTitle string `json:"display_title"`
	Status       string `json:"status"`
	Conclusion   string `json:"conclusion"`
	HeadBranch   string `json:"head_branch"`
	HeadSHA      string `json:"head_sha"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	HTMLURL      string `json:"html_url"`
}

// apiJob is a job as the Actions API returns it.
type apiJob struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Status      string `json:"status"`
	Conclusion  string `json:"conclusion"`
	StartedAt   string `json:"started_at"`
	CompletedAt string `json:"completed_at"`
	HTMLURL     string `json:"html_url"`
}

// failedLog is a failed job's log (tail and full; empty when gh could
// not fetch it).
type failedLog struct {
	run       *RunState
	job       JobState
	tail, all string
}

// failed reports whether the job ended badly.
func (j JobState) failed() bool { return slices.Contains(jobFailure, j.Conclusion) }

// state is the job's conclusion, else its status.
func (j JobState) state() string { return orDefault(j.Conclusion, orDefault(j.Status, "unknown")) }

// outcome is "success", "failure" or "pending" for a run.
func (r *RunState) outcome() string {
	switch {
	case r.Status != "completed":
		return "pending"
	case slices.Contains(runSuccess, r.Conclusion):
		return "success"
	case slices.Contains(runFailure, r.Conclusion):
		return "failure"
	}
	return "pending"
}

// failedJobs are the run's failed jobs.
func (r *RunState) failedJobs() []JobState {
	var out []JobState
	for _, j := range r.Jobs {
		if j.failed() {
			out = append(out, j)
		}
	}
	return out
}

// runWatch runs run_watch: one run (run given) or every run of a commit.
func (t *Tool) runWatch(ctx context.Context, a *args, onUpdate tool.UpdateFunc) (*outcome, error) {
	tail, err := positiveCapped(a.Tail, "tail", RunWatchTailDefault, RunWatchTailMax)
	if err != nil {
		return nil, err
	}
	runRepo, runID, err := parseRunRef(a.Run)
	if err != nil {
		return nil, err
	}
	repo := a.Repo
	switch {
	case repo != "" && runRepo != "" && repo != runRepo:
		return nil, tool.Errorf("run URL repository %s does not match repo %s: drop one of them", runRepo, repo)
	case repo == "" && runRepo != "":
		repo = runRepo
	case repo == "":
		if repo, err = t.currentRepo(ctx); err != nil {
			return nil, err
		}
	}
	w := &watcher{t: t, repo: repo, tail: tail, onUpdate: onUpdate, start: t.now()}
	if runID != 0 {
		return w.watchRun(ctx, runID)
	}
	return w.watchCommit(ctx, a.Branch)
}

// parseRunRef reads the run argument: a run id or a run URL.
func parseRunRef(s string) (repo string, id int64, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", 0, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
		return "", n, nil
	}
	if m := runURL().FindStringSubmatch(s); m != nil {
		n, _ := strconv.ParseInt(m[2], 10, 64)
		return m[1], n, nil
	}
	return "", 0, tool.Errorf("run must be a numeric workflow run ID or a full GitHub Actions run URL, not %q", s)
}

// watcher is one run_watch call.
type watcher struct {
	t        *Tool
	repo     string
	tail     int
	onUpdate tool.UpdateFunc
	poll     int
	mode     string // "run" or "commit"
	sha      string // the commit watched (commit mode)
	start    time.Time
}

// outOfTime reports whether another wait for the next poll would take
// the watch past its limit.
func (w *watcher) outOfTime() bool {
	lim := w.t.watch.limit
	return lim > 0 && w.t.now().Add(w.t.watch.interval).Sub(w.start) > lim
}

// stopNote says the watch ended at its limit with runs still going.
func (w *watcher) stopNote() string {
	return fmt.Sprintf("Stopped watching after %s (run_watch's limit); the runs have not finished. Call run_watch again to keep watching.", minutes(w.t.now().Sub(w.start)))
}

// stopped is the result of a watch that reached its limit: the last
// snapshot with the note, still marked watching.
func (w *watcher) stopped(text, note string, runs []*RunState) *outcome {
	d := &Details{Repo: w.repo, Watch: w.view("watching", note, runs, nil)}
	if len(runs) == 1 && w.mode == "run" {
		d.RunID, d.Status, d.Branch, d.HeadSHA = runs[0].ID, runs[0].Status, runs[0].Branch, runs[0].HeadSHA
	}
	return &outcome{text: text, details: d}
}

// minutes renders a watch's length: "59s", "60 min".
func minutes(d time.Duration) string {
	if d < time.Minute {
		return seconds(d.Round(time.Second))
	}
	return strconv.Itoa(int(d.Round(time.Minute)/time.Minute)) + " min"
}

// api runs gh api GET on path with the fields and decodes into v.
func (w *watcher) api(ctx context.Context, path string, v any, fields ...string) error {
	cmd := []string{"api", "--method", "GET", path}
	for _, f := range fields {
		cmd = append(cmd, "-F", f)
	}
	return w.t.gh.runJSON(ctx, cmd, callOpts{repoGiven: true}, v)
}

// fetchRun polls one run and its jobs.
func (w *watcher) fetchRun(ctx context.Context, id int64) (*RunState, error) {
	var r apiRun
	if err := w.api(ctx, fmt.Sprintf("/repos/%s/actions/runs/%d", w.repo, id), &r); err != nil {
		return nil, err
	}
	return w.withJobs(ctx, &r)
}

// withJobs turns an API run into a RunState with its jobs, page by page.
func (w *watcher) withJobs(ctx context.Context, r *apiRun) (*RunState, error) {
	if r.ID == 0 {
		return nil, tool.Errorf("GitHub Actions run response did not include a run ID.")
	}
	rs := &RunState{ID: r.ID, Workflow: r.Name, Title: r.DisplayTitle, Branch: r.HeadBranch, HeadSHA: r.HeadSHA,
		Status: r.Status, Conclusion: r.Conclusion, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, URL: r.HTMLURL, Jobs: []JobState{}}
	for page := 1; ; page++ {
		var resp struct {
			TotalCount int      `json:"total_count"`
			Jobs       []apiJob `json:"jobs"`
		}
		err := w.api(ctx, fmt.Sprintf("/repos/%s/actions/runs/%d/jobs", w.repo, r.ID), &resp,
			"per_page="+strconv.Itoa(runJobsPageSize), "page="+strconv.Itoa(page))
		if err != nil {
			return nil, err
		}
		for _, j := range resp.Jobs {
			if j.ID != 0 {
				rs.Jobs = append(rs.Jobs, JobState{ID: j.ID, Name: orDefault(j.Name, fmt.Sprintf("job-%d", j.ID)), Status: j.Status,
					Conclusion: j.Conclusion, StartedAt: j.StartedAt, CompletedAt: j.CompletedAt, URL: j.HTMLURL})
			}
		}
		if len(resp.Jobs) < runJobsPageSize || resp.TotalCount <= len(rs.Jobs) {
			return rs, nil
		}
	}
}

// update reports a snapshot as progress.
func (w *watcher) update(text string, runs []*RunState, note string) {
	w.onUpdate.Update(tool.TextResult(text, &Details{Repo: w.repo, Watch: w.view("watching", note, runs, nil)}))
}

// view is the renderer's snapshot of runs, with the jobs' durations as
// of now and the failed jobs' log tails.
func (w *watcher) view(state, note string, runs []*RunState, logs []failedLog) *WatchView {
	v := &WatchView{State: state, Mode: w.mode, Repo: w.repo, HeadSHA: w.sha, Poll: w.poll, Note: note, Runs: []RunState{}}
	now := w.t.now()
	for _, r := range runs {
		rs := *r
		rs.Jobs = make([]JobState, len(r.Jobs))
		for i, j := range r.Jobs {
			j.DurationSeconds = jobDuration(j, now)
			rs.Jobs[i] = j
		}
		v.Runs = append(v.Runs, rs)
	}
	for _, l := range logs {
		v.FailedLogs = append(v.FailedLogs, WatchLog{JobName: l.job.Name, RunID: l.run.ID, Workflow: l.run.Workflow, Available: l.all != "", Tail: l.tail})
	}
	return v
}

// jobDuration is the whole seconds from a job's start to its end (now
// while it runs), nil when it has not started or its start is unreadable.
func jobDuration(j JobState, now time.Time) *int64 {
	start, err := time.Parse(time.RFC3339, j.StartedAt)
	if err != nil {
		return nil
	}
	end := now
	if t, err := time.Parse(time.RFC3339, j.CompletedAt); err == nil {
		end = t
	}
	d := max(0, int64(end.Sub(start)/time.Second))
	return &d
}

// graceNote is the note shown while waiting after a failure.
func (w *watcher) graceNote() string {
	return fmt.Sprintf("Failure detected. Waiting %s to capture concurrent failures before fetching logs.", seconds(w.t.watch.grace))
}

// seconds renders d as omp does: "5s".
func seconds(d time.Duration) string { return strconv.Itoa(int(d/time.Second)) + "s" }

// watchRun follows one run until it ends or a job fails.
func (w *watcher) watchRun(ctx context.Context, id int64) (*outcome, error) {
	w.mode = "run"
	for {
		w.poll++
		run, err := w.fetchRun(ctx, id)
		if err != nil {
			return nil, err
		}
		w.update(renderRunSnapshot(w.repo, run, w.poll, ""), []*RunState{run}, "")
		done := run.Status == "completed"
		if len(run.failedJobs()) > 0 {
			if !done && w.t.watch.grace > 0 {
				note := w.graceNote()
				w.update(renderRunSnapshot(w.repo, run, w.poll, note), []*RunState{run}, note)
				if err := ctxsleep.Sleep(ctx, w.t.watch.grace); err != nil {
					return nil, err
				}
				if run, err = w.fetchRun(ctx, id); err != nil {
					return nil, err
				}
			}
			return w.finish(ctx, []*RunState{run}, func(logs []failedLog, full bool) string {
				return renderRunResult(w.repo, run, logs, w.tail, full)
			}, run.URL)
		}
		if done {
			return w.finish(ctx, []*RunState{run}, func(logs []failedLog, full bool) string {
				return renderRunResult(w.repo, run, logs, w.tail, full)
			}, run.URL)
		}
		if w.outOfTime() {
			note := w.stopNote()
			return w.stopped(renderRunSnapshot(w.repo, run, w.poll, note), note, []*RunState{run}), nil
		}
		if err := ctxsleep.Sleep(ctx, w.t.watch.interval); err != nil {
			return nil, err
		}
	}
}

// watchCommit follows every run of a commit: the head of branch on
// GitHub when branch is given, else the checkout's HEAD.
func (w *watcher) watchCommit(ctx context.Context, branch string) (*outcome, error) {
	var sha string
	if branch != "" {
		var b struct {
			Commit struct {
				SHA string `json:"sha"`
			} `json:"commit"`
		}
		if err := w.api(ctx, "/repos/"+w.repo+"/branches/"+url.PathEscape(branch), &b); err != nil {
			return nil, err
		}
		if sha = b.Commit.SHA; sha == "" {
			return nil, tool.Errorf("GitHub gave no head commit for branch %s: check the branch name", branch)
		}
	} else {
		var err error
		if branch, err = w.t.git(ctx, "symbolic-ref", "--short", "HEAD"); err != nil {
			return nil, tool.Errorf("Current git branch is unavailable. Pass `branch` or `run` explicitly.")
		}
		if sha, err = w.t.git(ctx, "rev-parse", "HEAD"); err != nil {
			return nil, tool.Errorf("Current git HEAD is unavailable. Pass `run` explicitly.")
		}
	}
	w.mode, w.sha = "commit", sha
	settled := ""
	for {
		w.poll++
		runs, err := w.fetchCommitRuns(ctx, sha, branch)
		if err != nil {
			return nil, err
		}
		w.update(renderCommitSnapshot(w.repo, sha, branch, runs, w.poll, ""), runs, "")
		result := func(logs []failedLog, full bool) string {
			return renderCommitResult(w.repo, sha, branch, runs, logs, w.tail, full)
		}
		switch collectionOutcome(runs) {
		case "failure":
			if w.t.watch.grace > 0 {
				note := w.graceNote()
				w.update(renderCommitSnapshot(w.repo, sha, branch, runs, w.poll, note), runs, note)
				if err := ctxsleep.Sleep(ctx, w.t.watch.grace); err != nil {
					return nil, err
				}
				if runs, err = w.fetchCommitRuns(ctx, sha, branch); err != nil {
					return nil, err
				}
			}
			return w.finish(ctx, runs, result, "")
		case "success":
			sig := runSignature(runs)
			if sig == settled {
				return w.finish(ctx, runs, result, "")
			}
			settled = sig
			note := fmt.Sprintf("All known workflow runs completed successfully. Waiting %s to ensure no additional runs appear for this commit.", seconds(w.t.watch.interval))
			w.update(renderCommitSnapshot(w.repo, sha, branch, runs, w.poll, note), runs, note)
		default:
			settled = ""
		}
		if w.outOfTime() {
			note := w.stopNote()
			return w.stopped(renderCommitSnapshot(w.repo, sha, branch, runs, w.poll, note), note, runs), nil
		}
		if err := ctxsleep.Sleep(ctx, w.t.watch.interval); err != nil {
			return nil, err
		}
	}
}

// fetchCommitRuns polls the runs of a commit with their jobs.
func (w *watcher) fetchCommitRuns(ctx context.Context, sha, branch string) ([]*RunState, error) {
	var resp struct {
		WorkflowRuns []apiRun `json:"workflow_runs"`
	}
	fields := []string{"head_sha=" + sha, "per_page=" + strconv.Itoa(runJobsPageSize)}
	if branch != "" {
		fields = append(fields, "branch="+branch)
	}
	if err := w.api(ctx, "/repos/"+w.repo+"/actions/runs", &resp, fields...); err != nil {
		return nil, err
	}
	runs := []*RunState{}
	for i := range resp.WorkflowRuns {
		if resp.WorkflowRuns[i].ID == 0 {
			continue
		}
		r, err := w.withJobs(ctx, &resp.WorkflowRuns[i])
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// collectionOutcome is the outcome of a commit's runs: failure at the
// first failed job or run, pending while one runs (or none is there).
func collectionOutcome(runs []*RunState) string {
	if len(runs) == 0 {
		return "pending"
	}
	pending := false
	for _, r := range runs {
		o := r.outcome()
		if len(r.failedJobs()) > 0 || o == "failure" {
			return "failure"
		}
		pending = pending || o == "pending"
	}
	if pending {
		return "pending"
	}
	return "success"
}

// runSignature identifies a set of runs by their sorted ids.
func runSignature(runs []*RunState) string {
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	slices.Sort(ids)
	return fmt.Sprint(ids)
}

// finish fetches the failed jobs' logs, saves the full ones as an
// artifact and returns the final report.
func (w *watcher) finish(ctx context.Context, runs []*RunState, render func([]failedLog, bool) string, source string) (*outcome, error) {
	var logs []failedLog
	var failed []string
	for _, r := range runs {
		for _, j := range r.failedJobs() {
			failed = append(failed, j.Name)
			full, err := w.t.gh.run(ctx, []string{"api", fmt.Sprintf("/repos/%s/actions/jobs/%d/logs", w.repo, j.ID)}, callOpts{repoGiven: true})
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			l := failedLog{run: r, job: j}
			if err == nil {
				l.all = strings.TrimRight(cleanBlock(full), " \n")
				lines := strings.Split(l.all, "\n")
				l.tail = strings.Join(lines[max(0, len(lines)-w.tail):], "\n")
			}
			logs = append(logs, l)
		}
	}
	d := &Details{Repo: w.repo, FailedJobs: failed, Watch: w.view("completed", "", runs, logs)}
	if len(runs) == 1 {
		d.RunID, d.Status, d.Conclusion, d.Branch, d.HeadSHA = runs[0].ID, runs[0].Status, runs[0].Conclusion, runs[0].Branch, runs[0].HeadSHA
	} else {
		for _, r := range runs {
			d.RunIDs = append(d.RunIDs, r.ID)
		}
	}
	text := render(logs, false)
	if len(logs) > 0 && w.t.env.Artifacts != nil {
		if id, err := w.t.env.Artifacts.Save(Name, render(logs, true)); err == nil {
			d.ArtifactID = id
			text += "\n\nFull failed-job logs: artifact://" + id
		}
	}
	return &outcome{text: text, sourceURL: source, details: d}, nil
}

// cleanBlock normalises a log: line ends and tabs, trailing blanks.
func cleanBlock(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.TrimRight(strings.ReplaceAll(s, "\t", "    "), " \n\t")
}
