package tui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tools/github"
)

// githubLogLines are the log lines of a failed job a run_watch card shows.
const githubLogLines = 3

// githubTitles name the github tool's operations on its cards.
var githubTitles = map[string]string{
	"repo_view": "GitHub Repo", "pr_create": "GitHub PR Create", "pr_checkout": "GitHub PR Checkout", "pr_push": "GitHub PR Push",
	"search_issues": "GitHub Search Issues", "search_prs": "GitHub Search PRs", "search_code": "GitHub Search Code",
	"search_commits": "GitHub Search Commits", "search_repos": "GitHub Search Repos", "run_watch": "GitHub Run Watch",
}

// githubNumber finds the number in an issue or PR URL.
var githubNumber = regexp.MustCompile(`/(?:issues|pull)/(\d+)`)

// githubHead is the head line of a github card: the operation's title,
// then what it works on (the PR number or branch, the query, the repo;
// the run or branch a run_watch follows).
func githubHead(call *ai.ToolCall) string {
	str := func(k string) string { v, _ := call.Arguments[k].(string); return strings.TrimSpace(v) }
	op := str("op")
	title := githubTitles[op]
	if title == "" {
		title = "GitHub"
	}
	var meta []string
	add := func(s string) {
		if s != "" {
			meta = append(meta, s)
		}
	}
	switch op {
	case "pr_checkout", "pr_push", "pr_create":
		if id := githubPRs(call.Arguments["pr"]); id != "" {
			add(id)
		} else {
			add(str("branch"))
		}
		add(str("repo"))
	case "search_issues", "search_prs", "search_code", "search_commits":
		add(oneLine(str("query"), 60))
		add(str("repo"))
	case "search_repos":
		add(oneLine(str("query"), 60))
	case "repo_view":
		add(str("repo"))
		add(str("branch"))
	case "run_watch":
		switch {
		case str("run") != "":
			add("#" + strings.TrimPrefix(githubID(str("run")), "#"))
		case str("branch") != "":
			add(str("branch"))
		default:
			add("current HEAD")
		}
		add(str("repo"))
	default:
		add(str("repo"))
	}
	return strings.Join(append([]string{title}, meta...), " · ")
}

// githubID is "#N" for a number or an issue, PR or run URL, else the
// value itself.
func githubID(v string) string {
	if _, err := strconv.Atoi(v); err == nil {
		return "#" + v
	}
	if m := githubNumber.FindStringSubmatch(v); m != nil {
		return "#" + m[1]
	}
	if i := strings.LastIndex(v, "/runs/"); i >= 0 {
		return "#" + strings.SplitN(v[i+len("/runs/"):], "/", 2)[0]
	}
	return oneLine(v, 40)
}

// githubPRs names the pr argument: one identifier, or up to three and
// how many more.
func githubPRs(v any) string {
	var ids []string
	switch pr := v.(type) {
	case string:
		if strings.TrimSpace(pr) != "" {
			ids = append(ids, githubID(strings.TrimSpace(pr)))
		}
	case []any:
		for _, p := range pr {
			if s, ok := p.(string); ok && strings.TrimSpace(s) != "" {
				ids = append(ids, githubID(strings.TrimSpace(s)))
			}
		}
	}
	if len(ids) > 3 {
		return strings.Join(ids[:3], ", ") + fmt.Sprintf(", +%d more", len(ids)-3)
	}
	return strings.Join(ids, ", ")
}

// githubWatch is the run_watch snapshot in a result's details, nil when
// there is none (details is the tool's own value, or JSON from a saved
// session).
func githubWatch(details any) *github.WatchView {
	switch d := details.(type) {
	case nil:
		return nil
	case *github.Details: // the tool's own value, as a live card gets it
		return d.Watch
	}
	raw, ok := details.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(details); err != nil {
			return nil
		}
	}
	var d struct {
		Watch *github.WatchView `json:"watch"`
	}
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	return d.Watch
}

// watchLines draws a run_watch snapshot: what is watched, the note, each
// run with its jobs (state icon, name, duration), then the failed jobs'
// last log lines.
func (r *renderer) watchLines(w *github.WatchView) []string {
	width := max(24, r.width-3)
	short := w.HeadSHA
	if len(short) > 12 {
		short = short[:12]
	}
	if short == "" {
		short = "this commit"
	}
	var head string
	switch {
	case w.Mode == "run" && len(w.Runs) > 0 && w.State == "watching":
		head = fmt.Sprintf("watching run #%d on %s", w.Runs[0].ID, w.Repo)
	case w.Mode == "run" && len(w.Runs) > 0:
		head = fmt.Sprintf("run #%d on %s", w.Runs[0].ID, w.Repo)
	case w.State == "watching":
		head = fmt.Sprintf("watching %s on %s", short, w.Repo)
	default:
		head = fmt.Sprintf("workflow runs for %s on %s", short, w.Repo)
	}
	out := []string{"  " + r.th.dim.Render(clean(head))}
	if w.Note != "" {
		out = append(out, r.indent(clean(w.Note), r.th.dim)...)
	}
	if len(w.Runs) == 0 && w.Mode != "run" {
		out = append(out, "  "+r.th.dim.Render("waiting for workflow runs…"))
	}
	for i, run := range w.Runs {
		if i > 0 {
			out = append(out, "")
		}
		label := run.Workflow
		if label == "" {
			label = run.Title
		}
		if label == "" {
			label = "GitHub Actions"
		}
		where := run.Branch
		if where == "" && run.HeadSHA != "" {
			where = run.HeadSHA[:min(12, len(run.HeadSHA))]
		}
		line := r.th.accent.Render(clean(label))
		if where != "" {
			line += "  " + clean(where)
		}
		out = append(out, "  "+ansi.Truncate(line+"  "+r.th.dim.Render(fmt.Sprintf("#%d", run.ID)), width, "…"))
		if len(run.Jobs) == 0 {
			out = append(out, "  "+r.th.dim.Render("waiting for workflow jobs…"))
		}
		for _, j := range run.Jobs {
			out = append(out, "  "+r.jobLine(j, width))
		}
	}
	if len(w.FailedLogs) > 0 {
		out = append(out, "", "  "+r.th.err.Render("failed logs"))
	}
	for _, l := range w.FailedLogs {
		where := fmt.Sprintf("run #%d", l.RunID)
		if l.Workflow != "" {
			where = fmt.Sprintf("%s  #%d", l.Workflow, l.RunID)
		}
		out = append(out, "  "+r.th.err.Render("✗ "+clean(l.JobName))+"  "+r.th.dim.Render(clean(where)))
		var lines []string
		for _, s := range strings.Split(clean(l.Tail), "\n") {
			if s != "" {
				lines = append(lines, s)
			}
		}
		if !l.Available || len(lines) == 0 {
			out = append(out, "    "+r.th.dim.Render("log tail unavailable"))
			continue
		}
		if n := len(lines) - githubLogLines; n > 0 {
			out = append(out, "    "+r.th.dim.Render(fmt.Sprintf("… %d earlier log lines", n)))
			lines = lines[n:]
		}
		for _, s := range lines {
			out = append(out, "    "+r.th.dim.Render(ansi.Truncate(strings.ReplaceAll(s, "\t", "    "), width-2, "…")))
		}
	}
	return out
}

// jobLine draws one job: an icon for its state (✓ passed, ✗ failed,
// ● running, ○ waiting), its name and, at the right edge, how long it
// ran.
func (r *renderer) jobLine(j github.JobState, width int) string {
	icon, st := "○", r.th.dim
	switch {
	case j.Conclusion == "success" || j.Conclusion == "neutral" || j.Conclusion == "skipped":
		icon, st = "✓", r.th.ok
	case j.Conclusion == "failure" || j.Conclusion == "timed_out" || j.Conclusion == "cancelled" || j.Conclusion == "action_required" || j.Conclusion == "startup_failure":
		icon, st = "✗", r.th.err
	case j.Status == "in_progress":
		icon, st = "●", r.th.warn
	}
	dur := ""
	if j.DurationSeconds != nil {
		dur = strconv.FormatInt(*j.DurationSeconds, 10) + "s"
	}
	name := ansi.Truncate(clean(j.Name), max(8, width-3-len(dur)), "…")
	line := icon + " " + name
	if dur != "" {
		line += strings.Repeat(" ", max(1, width-ansi.StringWidth(line)-len(dur))) + dur
	}
	return st.Render(line)
}

// githubCard draws a finished github call: the head, then the watch view
// of a run_watch, else the first lines of the text (red when it failed).
func (r *renderer) githubCard(icon string, call *ai.ToolCall, content []ai.Content, details any, isError bool) string {
	head := icon + " " + r.th.accent.Render(ansi.Truncate(clean(githubHead(call)), max(10, r.width-3), "…"))
	if w := githubWatch(details); w != nil && !isError {
		return head + "\n" + strings.Join(r.watchLines(w), "\n")
	}
	text := strings.TrimRight(clean(resultText(content)), "\n")
	st := r.th.dim
	if isError {
		st = r.th.err
	}
	if text == "" {
		return head
	}
	return head + "\n" + strings.Join(r.indent(r.headLines(text, cardOutputLines), st), "\n")
}

// githubLiveCard draws a running github call: the head with the spinner,
// and for run_watch the latest snapshot (or that it waits for the first).
func (r *renderer) githubLiveCard(call *ai.ToolCall, details any, spin string) string {
	head := r.th.warn.Render(spin) + " " + r.th.accent.Render(ansi.Truncate(clean(githubHead(call)), max(10, r.width-3), "…"))
	if op, _ := call.Arguments["op"].(string); op != "run_watch" {
		return head
	}
	w := githubWatch(details)
	if w == nil {
		return head + "\n  " + r.th.dim.Render("waiting for workflow data…")
	}
	return head + "\n" + strings.Join(r.watchLines(w), "\n")
}
