package github

import (
	"fmt"
	"strconv"
)

// renderJobs is the jobs section of a run.
func renderJobs(jobs []JobState) []string {
	if len(jobs) == 0 {
		return []string{"## Jobs", "", "No jobs reported yet."}
	}
	v := &view{}
	v.add(fmt.Sprintf("## Jobs (%d)", len(jobs)), "")
	for _, j := range jobs {
		v.add("- [" + j.state() + "] " + j.Name)
		v.field("  Started", j.StartedAt)
		v.field("  Completed", j.CompletedAt)
		v.field("  URL", j.URL)
	}
	return v.lines
}

// runHeader adds a run's fields to v.
func runHeader(v *view, repo string, r *RunState) {
	v.field("Repository", repo)
	v.field("Workflow", r.Workflow)
	v.field("Title", r.Title)
	v.field("Branch", r.Branch)
	v.field("Status", r.Status)
	v.field("Conclusion", r.Conclusion)
	v.field("Created", r.CreatedAt)
	v.field("Updated", r.UpdatedAt)
	v.field("URL", r.URL)
}

// renderRunSnapshot is a progress update of a watched run.
func renderRunSnapshot(repo string, r *RunState, poll int, note string) string {
	v := &view{}
	v.add(fmt.Sprintf("# Watching GitHub Actions Run #%d", r.ID), "")
	runHeader(v, repo, r)
	v.field("Poll", poll)
	if n := len(r.failedJobs()); n > 0 {
		v.field("Failed jobs", n)
	}
	if note != "" {
		v.add("", "Note: "+note)
	}
	v.add("")
	v.add(renderJobs(r.Jobs)...)
	return v.String()
}

// renderFailedLogs is the failed jobs section: each job's log tail (or
// its full log, for the artifact).
func renderFailedLogs(logs []failedLog, tail int, full bool) []string {
	if len(logs) == 0 {
		return nil
	}
	v := &view{}
	v.add("## Failed Jobs", "")
	for _, l := range logs {
		v.add("### " + l.job.Name + " [" + orDefault(l.job.Conclusion, "failed") + "]")
		v.field("Run", "#"+strconv.FormatInt(l.run.ID, 10))
		v.field("Workflow", l.run.Workflow)
		v.field("Started", l.job.StartedAt)
		v.field("Completed", l.job.CompletedAt)
		v.field("URL", l.job.URL)
		v.add("")
		text, head, missing := l.tail, fmt.Sprintf("Last %d log lines:", tail), "Log tail unavailable."
		if full {
			text, head, missing = l.all, "Full log:", "Full log unavailable."
		}
		if text != "" {
			v.add(head, "```text", text, "```")
		} else {
			v.add(missing)
		}
		v.add("")
	}
	return v.lines
}

// renderRunResult is the final report of a watched run.
func renderRunResult(repo string, r *RunState, logs []failedLog, tail int, full bool) string {
	v := &view{}
	v.add(fmt.Sprintf("# GitHub Actions Run #%d", r.ID), "")
	runHeader(v, repo, r)
	v.add("")
	v.add(renderJobs(r.Jobs)...)
	switch {
	case len(r.failedJobs()) > 0:
		v.add("")
		v.add(renderFailedLogs(logs, tail, full)...)
		v.add("Run failed.")
	case r.outcome() == "success":
		v.add("", "All jobs passed.")
	default:
		v.add("", "Run completed without successful jobs, but no failed job logs were available.")
	}
	return v.String()
}

// renderRunSection is one run inside a commit's report.
func renderRunSection(r *RunState) []string {
	v := &view{}
	head := fmt.Sprintf("### Run #%d", r.ID)
	if r.Workflow != "" {
		head += " - " + r.Workflow
	}
	v.add(head, "")
	v.field("Title", r.Title)
	v.field("Branch", r.Branch)
	v.field("Commit", shortSHA(r.HeadSHA))
	v.field("Status", r.Status)
	v.field("Conclusion", r.Conclusion)
	v.field("Created", r.CreatedAt)
	v.field("Updated", r.UpdatedAt)
	v.field("URL", r.URL)
	v.add("")
	v.add(renderJobs(r.Jobs)...)
	return v.lines
}

// renderCommitSnapshot is a progress update of a commit's runs.
func renderCommitSnapshot(repo, sha, branch string, runs []*RunState, poll int, note string) string {
	failed, completed := 0, 0
	for _, r := range runs {
		failed += len(r.failedJobs())
		if r.Status == "completed" {
			completed++
		}
	}
	v := &view{}
	v.add("# Watching GitHub Actions for "+shortSHA(sha), "")
	v.field("Repository", repo)
	v.field("Branch", branch)
	v.field("Commit", sha)
	v.field("Poll", poll)
	v.field("Runs", len(runs))
	v.field("Completed runs", fmt.Sprintf("%d/%d", completed, len(runs)))
	if failed > 0 {
		v.field("Failed jobs", failed)
	}
	if note != "" {
		v.add("", "Note: "+note)
	}
	if len(runs) == 0 {
		v.add("", "Waiting for workflow runs for this commit.")
		return v.String()
	}
	for _, r := range runs {
		v.add("")
		v.add(renderRunSection(r)...)
	}
	return v.String()
}

// renderCommitResult is the final report of a commit's runs.
func renderCommitResult(repo, sha, branch string, runs []*RunState, logs []failedLog, tail int, full bool) string {
	v := &view{}
	v.add("# GitHub Actions for "+shortSHA(sha), "")
	v.field("Repository", repo)
	v.field("Branch", branch)
	v.field("Commit", sha)
	v.field("Runs", len(runs))
	for _, r := range runs {
		v.add("")
		v.add(renderRunSection(r)...)
	}
	switch {
	case len(logs) > 0:
		v.add("")
		v.add(renderFailedLogs(logs, tail, full)...)
		v.add("Workflow runs for this commit failed.")
	case collectionOutcome(runs) == "success":
		v.add("", "All workflow runs for this commit passed.")
	default:
		v.add("", "Workflow runs for this commit did not complete successfully.")
	}
	return v.String()
}
