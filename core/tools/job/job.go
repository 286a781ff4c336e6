// Package job is the session's background work: the Manager that runs
// jobs (async and auto-backgrounded bash commands, background tasks),
// keeps finished ones for five minutes and hands results the model has
// not collected to the session for delivery, and the job tool with which
// the model lists, waits for and cancels them.
package job

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Texts of the tool.
const (
	disabledText  = "Async execution is disabled; no background jobs are available."
	noRunningText = "No running background jobs to wait for."
	listConflict  = "`list` cannot be combined with `poll` or `cancel`."
)

// progressInterval is how often a waiting poll reports the jobs' state.
const progressInterval = 500 * time.Millisecond

const description = `Inspect, wait for or cancel background jobs (async or auto-backgrounded bash commands, background tasks). Finished jobs' results are delivered to you automatically, so use this only to intervene.
- list: true — snapshot of every job, without waiting.
- poll: [ids] — wait until one of them finishes or the wait window ends; omit poll and cancel to wait on every running job. Only when you are blocked on the result.
- cancel: [ids] — stop jobs; returns at once.`

// Tool is the job tool of a session.
type Tool struct {
	env  *tool.Env
	jobs *Manager
}

// New returns the job tool for env over the session's jobs.
func New(env *tool.Env, jobs *Manager) tool.Tool { return &Tool{env: env, jobs: jobs} }

// Available reports whether the session has background jobs (async.enabled
// or bash.autoBackground.enabled); the registry offers the tool only then.
func Available(env *tool.Env) bool { return Enabled(env) }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	ids := func(desc string) *tool.Schema { return tool.Array(tool.String(""), desc) }
	return tool.Definition{
		Name:        "job",
		Label:       "Job",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"poll":   ids("job ids to wait for"),
			"cancel": ids("job ids to cancel"),
			"list":   tool.Boolean("list every job without waiting"),
		}),
		Concurrency: tool.Shared,
	}
}

// CancelOutcome is what cancelling one id did.
type CancelOutcome struct {
	ID     string `json:"id"`
	Status string `json:"status"` // cancelled, not_found or already_completed
}

// Details are the tool's structured result.
type Details struct {
	Jobs      []Snapshot      `json:"jobs"`
	Cancelled []CancelOutcome `json:"cancelled,omitempty"`
}

// Execute lists, cancels or waits.
func (t *Tool) Execute(ctx context.Context, args tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Poll   *[]string `json:"poll"`
		Cancel []string  `json:"cancel"`
		List   bool      `json:"list"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	if !Enabled(t.env) {
		return tool.TextResult(disabledText, Details{Jobs: []Snapshot{}}), nil
	}
	m := t.jobs
	if a.List {
		if len(a.Cancel) > 0 || a.Poll != nil && len(*a.Poll) > 0 {
			return nil, tool.Errorf(listConflict)
		}
		return t.result(m, ids(m.All()), nil), nil
	}

	var outcomes []cancelLine
	for _, id := range a.Cancel {
		s, ok := m.Get(id)
		switch {
		case !ok:
			outcomes = append(outcomes, cancelLine{CancelOutcome{id, "not_found"}, "Background job not found: " + id})
		case s.Status != Running:
			outcomes = append(outcomes, cancelLine{CancelOutcome{id, "already_completed"}, fmt.Sprintf("Background job %s is already %s.", id, s.Status)})
		case m.Cancel(id):
			outcomes = append(outcomes, cancelLine{CancelOutcome{id, "cancelled"}, fmt.Sprintf("Cancelled background job %s.", id)})
		default:
			outcomes = append(outcomes, cancelLine{CancelOutcome{id, "already_completed"}, fmt.Sprintf("Background job %s is already completed.", id)})
		}
	}
	cancelled := known(m, a.Cancel)
	if a.Poll == nil && len(a.Cancel) > 0 {
		return t.result(m, cancelled, outcomes), nil
	}

	var watch []string
	if a.Poll != nil {
		watch = known(m, *a.Poll)
	} else {
		watch = ids(m.Running())
	}
	if len(watch) == 0 {
		if len(outcomes) > 0 {
			return t.result(m, cancelled, outcomes), nil
		}
		if a.Poll != nil && len(*a.Poll) > 0 {
			return tool.TextResult("No matching jobs found for IDs: "+strings.Join(*a.Poll, ", "), Details{Jobs: []Snapshot{}}), nil
		}
		return tool.TextResult(noRunningText, Details{Jobs: []Snapshot{}}), nil
	}
	tracked := appendNew(cancelled, watch...)
	var running []string
	for _, id := range watch {
		if s, ok := m.Get(id); ok && s.Status == Running {
			running = append(running, id)
		}
	}
	if len(running) == 0 {
		return t.result(m, tracked, outcomes), nil
	}

	m.Watch(running)
	defer m.Unwatch(running)
	wctx, cancel := context.WithTimeout(ctx, t.env.Settings.Bash.PollWait)
	defer cancel()
	stop := make(chan struct{})
	progressDone := make(chan struct{})
	go func() {
		defer close(progressDone)
		tick := time.NewTicker(progressInterval)
		defer tick.Stop()
		for {
			onUpdate.Update(&tool.Result{Content: []tool.Content{tool.Text("")}, Details: details(snapshots(m, tracked), outcomes)})
			select {
			case <-tick.C:
			case <-stop:
				return
			}
		}
	}()
	m.WaitAny(wctx, running)
	close(stop)
	<-progressDone
	return t.result(m, tracked, outcomes), nil
}

// cancelLine is a cancel outcome with its text.
type cancelLine struct {
	CancelOutcome
	text string
}

// result builds the report for the jobs ids (deduplicated) and
// acknowledges the finished ones so they are not delivered again.
func (t *Tool) result(m *Manager, jobIDs []string, outcomes []cancelLine) *tool.Result {
	snaps := snapshots(m, jobIDs)
	var done, running []Snapshot
	var finished []string
	for _, s := range snaps {
		if s.Status == Running {
			running = append(running, s)
		} else {
			done = append(done, s)
			finished = append(finished, s.ID)
		}
	}
	m.Acknowledge(finished)
	var b strings.Builder
	if len(outcomes) > 0 {
		fmt.Fprintf(&b, "## Cancelled (%d)\n\n", len(outcomes))
		for _, o := range outcomes {
			fmt.Fprintf(&b, "- %s\n", o.text)
		}
		b.WriteString("\n")
	}
	if len(done) > 0 {
		fmt.Fprintf(&b, "## Completed (%d)\n\n", len(done))
		for _, s := range done {
			fmt.Fprintf(&b, "### %s [%s] — %s\nLabel: %s\n", s.ID, s.Type, s.Status, s.Label)
			if s.ResultText != "" {
				fmt.Fprintf(&b, "```\n%s\n```\n", s.ResultText)
			}
			if s.ErrorText != "" {
				fmt.Fprintf(&b, "Error: %s\n", s.ErrorText)
			}
			b.WriteString("\n")
		}
	}
	if len(running) > 0 {
		fmt.Fprintf(&b, "## Still Running (%d)\n\n", len(running))
		for _, s := range running {
			fmt.Fprintf(&b, "- `%s` [%s] — %s\n", s.ID, s.Type, s.Label)
		}
	}
	text := strings.TrimRight(b.String(), "\n")
	if text == "" {
		text = "No background jobs."
	}
	return tool.TextResult(text, details(snaps, outcomes))
}

func details(snaps []Snapshot, outcomes []cancelLine) Details {
	d := Details{Jobs: snaps}
	if d.Jobs == nil {
		d.Jobs = []Snapshot{}
	}
	for _, o := range outcomes {
		d.Cancelled = append(d.Cancelled, o.CancelOutcome)
	}
	return d
}

// snapshots returns the current state of the known ids.
func snapshots(m *Manager, jobIDs []string) []Snapshot {
	var out []Snapshot
	for _, id := range jobIDs {
		if s, ok := m.Get(id); ok {
			out = append(out, s)
		}
	}
	return out
}

// known keeps the ids the manager has, without duplicates.
func known(m *Manager, list []string) []string {
	var out []string
	for _, id := range list {
		if _, ok := m.Get(id); ok && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func ids(snaps []Snapshot) []string {
	out := make([]string, len(snaps))
	for i, s := range snaps {
		out[i] = s.ID
	}
	return out
}

func appendNew(list []string, more ...string) []string {
	out := slices.Clone(list)
	for _, id := range more {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// Access reports what a job call does: cancelling stops programs;
// listing and waiting only read.
func (t *Tool) Access(args tool.Args) tool.Access {
	n := 0
	switch ids := args["cancel"].(type) {
	case []any:
		n = len(ids)
	case []string:
		n = len(ids)
	}
	return tool.Access{Tool: "job", Writes: n > 0}
}
