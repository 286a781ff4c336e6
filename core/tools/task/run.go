package task

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
)

// params are the tool's arguments.
type params struct {
	Agent   string     `json:"agent"`
	Context string     `json:"context"`
	Tasks   []taskItem `json:"tasks"`
}

type taskItem struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Assignment  string `json:"assignment"`
}

// taskID is what a task id may look like.
var taskID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,48}$`) })

// Execute runs the call's tasks and returns their answers.
func (t *Tool) Execute(ctx context.Context, args tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	var p params
	if err := args.Decode(&p); err != nil {
		return nil, err
	}
	h := t.host
	if h == nil {
		return nil, tool.Errorf("The task tool cannot start subagents here: it needs a session to run them in.")
	}
	ts, pos := h.Config().Task(), h.Position()
	a, err := t.check(p, ts, pos)
	if err != nil {
		return nil, err
	}
	if t.env.PlanMode() != nil {
		a = forPlanMode(a) // the parent is planning: its subagents only look
	}
	ids, err := t.allocate(p.Tasks, pos)
	if err != nil {
		return nil, tool.Errorf("Cannot start the tasks: %v", err)
	}
	if t.env.Settings.Bash.AsyncEnabled && !a.Blocking {
		return t.startJobs(ctx, h, a, p, ts, pos, ids, onUpdate)
	}
	r := t.newRun(h, a, p, ts, pos, ids, onUpdate)
	r.publish(true)
	r.runAll(ctx)
	return r.final(), nil
}

// newRun prepares a run of p's tasks under the output ids ids.
func (t *Tool) newRun(h Host, a *Agent, p params, ts config.Task, pos Position, ids []string, onUpdate tool.UpdateFunc) *run {
	r := &run{tool: t, host: h, agent: a, params: p, settings: ts, parent: pos, start: time.Now(), onUpdate: onUpdate}
	r.results = make([]Result, len(p.Tasks))
	r.started = make([]time.Time, len(p.Tasks))
	for i, it := range p.Tasks {
		r.results[i].Progress = Progress{Index: i, ID: ids[i], Agent: a.Name, AgentSource: a.Source, Status: StatusPending,
			Description: it.Description, Assignment: strings.TrimSpace(it.Assignment)}
	}
	return r
}

// check validates a call against the definitions, the settings and the
// session's place in the task tree, and returns the agent to run.
func (t *Tool) check(p params, ts config.Task, pos Position) (*Agent, error) {
	if !canSpawn(pos, ts) {
		if len(pos.Spawns) == 0 {
			return nil, tool.Errorf("Cannot spawn '%s'. Allowed: none (spawns disabled for this agent)", p.Agent)
		}
		return nil, tool.Errorf("Cannot spawn '%s': subagents may nest only %d levels deep (task.maxRecursionDepth). Do the work yourself.", p.Agent, ts.MaxRecursionDepth)
	}
	offered := t.offered(ts, pos)
	names := make([]string, len(offered))
	for i, a := range offered {
		names[i] = a.Name
	}
	available := strings.Join(names, ", ")
	if available == "" {
		available = "none"
	}
	a := t.find(p.Agent)
	switch {
	case a == nil:
		msg := fmt.Sprintf("Unknown agent %q. Available: %s", p.Agent, available)
		var broken []error
		for _, p := range t.problems {
			if !errors.Is(p, ErrDuplicateName) {
				broken = append(broken, p)
			}
		}
		if len(broken) > 0 {
			msg += fmt.Sprintf(" (%d agent definition files could not be read: %v)", len(broken), errors.Join(broken...))
		}
		return nil, tool.Errorf("%s", msg)
	case slices.Contains(ts.DisabledAgents, a.Name):
		return nil, tool.Errorf("Agent %q is disabled in settings (task.disabledAgents); use a different agent. Available: %s", a.Name, available)
	case !pos.MaySpawn(a.Name):
		return nil, tool.Errorf("Cannot spawn '%s'. Allowed: %s", a.Name, strings.Join(pos.Spawns, ", "))
	case len(p.Tasks) == 0:
		return nil, tool.Errorf("No tasks provided. Use: { agent, context?, tasks: [{ id, description, assignment }, ...] }")
	}
	var problems []string
	seen := map[string]int{}
	for i, it := range p.Tasks {
		switch {
		case strings.TrimSpace(it.ID) == "":
			problems = append(problems, fmt.Sprintf("task %d has no id", i))
		case !taskID().MatchString(it.ID):
			problems = append(problems, fmt.Sprintf("task id %q may only hold letters, digits, _ and - (at most 48)", it.ID))
		}
		if j, dup := seen[strings.ToLower(it.ID)]; dup && it.ID != "" {
			problems = append(problems, fmt.Sprintf("tasks %d and %d have the same id %q (ids are compared ignoring case)", j, i, it.ID))
		}
		seen[strings.ToLower(it.ID)] = i
		if strings.TrimSpace(it.Assignment) == "" {
			problems = append(problems, fmt.Sprintf("task %q has an empty assignment", it.ID))
		}
	}
	if len(problems) > 0 {
		return nil, tool.Errorf("Invalid tasks: %s.", strings.Join(problems, "; "))
	}
	return a, nil
}

// IDs numbers the tasks of a session without an artifacts directory; the
// session's services own it, so the numbers go on across the task tools
// the session builds. The zero value starts at 0.
type IDs struct{ next atomic.Int64 }

// allocate reserves an output id per task: in the artifacts store, or
// counted in memory when the session has none.
func (t *Tool) allocate(tasks []taskItem, pos Position) ([]string, error) {
	names := make([]string, len(tasks))
	for i, it := range tasks {
		names[i] = it.ID
	}
	if t.env.Artifacts != nil {
		return t.env.Artifacts.AllocateAgentIDs(pos.ID, names)
	}
	c := t.ids
	lead := ""
	if pos.ID != "" {
		lead = pos.ID + "."
	}
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = lead + strconv.FormatInt(c.next.Add(1)-1, 10) + "-" + n
	}
	return ids, nil
}

// run is one call of the tool.
type run struct {
	tool     *Tool
	host     Host
	agent    *Agent
	params   params
	settings config.Task
	parent   Position
	start    time.Time
	onUpdate tool.UpdateFunc

	mu       sync.Mutex
	results  []Result
	started  []time.Time // when each task started running
	lastSent time.Time
}

// updateEvery spaces progress updates that carry no status change.
const updateEvery = 150 * time.Millisecond

// runAll runs the tasks in order, at most task.maxConcurrency at a time,
// and returns when every one has ended. Once ctx is done no task starts.
func (r *run) runAll(ctx context.Context) {
	workers := min(max(r.settings.MaxConcurrency, 1), len(r.results))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(r.results) {
					return
				}
				r.runOne(ctx, i)
			}
		}()
	}
	wg.Wait()
}

// runOne runs task i in a child session.
func (r *run) runOne(ctx context.Context, i int) {
	if ctx.Err() != nil {
		r.finish(i, func(res *Result) { res.Status, res.Aborted, res.Error = StatusAborted, true, "Cancelled before start" })
		return
	}
	it := r.params.Tasks[i]
	id := r.results[i].ID
	store := r.tool.env.Artifacts
	childPos := Position{Depth: r.parent.Depth + 1, ID: id, Spawns: r.agent.Spawns}
	tools, ignored := childTools(r.agent, r.host.ToolNames(), canSpawn(childPos, r.settings))
	spec := ChildSpec{
		Tools:        tools,
		Models:       r.models(),
		Thinking:     r.agent.Thinking,
		SystemPrompt: childPrompt(r.agent, r.params.Context),
		Position:     childPos,
		Artifacts:    store,
	}
	if store != nil {
		spec.SessionFile = store.AgentSessionPath(id)
	}
	r.update(i, true, func(res *Result) {
		res.Status = StatusRunning
		res.Ignored = ignored
		r.started[i] = time.Now()
	})
	child, err := r.host.StartChild(ctx, spec)
	if err != nil {
		r.finish(i, func(res *Result) {
			res.Status, res.Error = StatusFailed, err.Error()
			if ctx.Err() != nil {
				res.Status, res.Aborted = StatusAborted, true
			}
		})
		return
	}
	var usage ai.Usage
	r.update(i, true, func(res *Result) {
		res.SessionFile = child.SessionFile()
		if m := child.Model(); m != nil {
			res.Model = m.Provider + "/" + m.ID
		}
	})
	unsub := child.Subscribe(func(ev agent.Event) { r.observe(i, ev, &usage) })
	perr := child.Prompt(ctx, strings.TrimSpace(it.Assignment))
	unsub()
	last := child.LastAssistant()
	cerr := child.Close()

	output := ""
	if last != nil {
		output = strings.TrimSpace(last.Text())
	}
	status, msg := StatusCompleted, ""
	switch {
	case ctx.Err() != nil || last != nil && last.StopReason == ai.StopReasonAborted:
		status, msg = StatusAborted, "Aborted: the parent's run was cancelled"
	case perr != nil:
		status, msg = StatusFailed, perr.Error()
	case last == nil:
		status, msg = StatusFailed, "The subagent produced no answer"
	case last.StopReason == ai.StopReasonError:
		status, msg = StatusFailed, "The subagent's model call failed: "+last.ErrorMessage
	case output == "":
		status, msg = StatusFailed, "The subagent ended without a final answer"
	case cerr != nil:
		status, msg = StatusFailed, "The subagent's session could not be saved: "+cerr.Error()
	}
	var path string
	var werr error
	if output != "" && store != nil {
		path, werr = writeOutput(store, id, output)
	}
	capped := tool.TruncateTail(output, tool.Limits{MaxBytes: r.settings.MaxOutputBytes, MaxLines: r.settings.MaxOutputLines})
	r.finish(i, func(res *Result) {
		res.Status, res.Error, res.Aborted = status, msg, status == StatusAborted
		res.Output, res.Truncated = capped.Content, capped.Truncated
		res.OutputPath = path
		if output != "" {
			res.OutputMeta = &OutputMeta{LineCount: strings.Count(output, "\n") + 1, CharCount: len([]rune(output))}
		}
		if werr != nil && res.Error == "" {
			res.Error = werr.Error()
		}
		if !usage.IsZero() {
			u := usage
			res.Usage = &u
		}
	})
}

// writeOutput keeps a whole answer as <id>.md.
func writeOutput(store *artifact.Store, id, output string) (string, error) {
	path := store.AgentOutputPath(id)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("keep the whole answer: %w", err)
	}
	if err := tool.WriteFileAtomic(path, []byte(output), 0o644); err != nil {
		return "", fmt.Errorf("keep the whole answer: %w", err)
	}
	return path, nil
}

// observe follows a child's events for the progress report.
func (r *run) observe(i int, ev agent.Event, usage *ai.Usage) {
	switch e := ev.(type) {
	case agent.ToolExecutionStart:
		r.update(i, false, func(res *Result) { res.ToolCount++; res.CurrentTool = e.ToolName })
	case agent.ToolExecutionEnd:
		r.update(i, false, func(res *Result) { res.CurrentTool = "" })
	case agent.MessageEnd:
		m, ok := e.Message.(*ai.AssistantMessage)
		if !ok {
			return
		}
		r.update(i, false, func(res *Result) {
			addUsage(usage, m.Usage)
			res.Tokens = usage.TotalTokens
		})
	}
}

// addUsage adds u to sum.
func addUsage(sum *ai.Usage, u ai.Usage) {
	sum.Input += u.Input
	sum.Output += u.Output
	sum.CacheRead += u.CacheRead
	sum.CacheWrite += u.CacheWrite
	total := u.TotalTokens
	if total == 0 {
		total = u.Input + u.Output + u.CacheRead + u.CacheWrite
	}
	sum.TotalTokens += total
	sum.Cost.Input += u.Cost.Input
	sum.Cost.Output += u.Cost.Output
	sum.Cost.CacheRead += u.Cost.CacheRead
	sum.Cost.CacheWrite += u.Cost.CacheWrite
	sum.Cost.Total += u.Cost.Total
}

// update changes task i and reports progress: at once when force is set
// (a status change), else at most every updateEvery.
func (r *run) update(i int, force bool, fn func(*Result)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fn(&r.results[i])
	r.sendLocked(force)
}

// finish ends task i: sets its duration and reports.
func (r *run) finish(i int, fn func(*Result)) {
	r.update(i, true, func(res *Result) {
		fn(res)
		if !r.started[i].IsZero() {
			res.DurationMs = time.Since(r.started[i]).Milliseconds()
		}
		res.CurrentTool = ""
	})
}

// publish reports progress.
func (r *run) publish(force bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sendLocked(force)
}

// sendLocked sends a progress update; r.mu is held, so updates are
// delivered one at a time and in order.
func (r *run) sendLocked(force bool) {
	if r.onUpdate == nil || !force && time.Since(r.lastSent) < updateEvery {
		return
	}
	r.lastSent = time.Now()
	progress := make([]Progress, len(r.results))
	done := 0
	for i, res := range r.results {
		progress[i] = res.Progress
		if res.Status == StatusRunning && i < len(r.started) && !r.started[i].IsZero() {
			progress[i].DurationMs = time.Since(r.started[i]).Milliseconds()
		}
		if res.Status != StatusPending && res.Status != StatusRunning {
			done++
		}
	}
	text := fmt.Sprintf("Running %d %s tasks: %d done", len(r.results), r.agent.Name, done)
	r.onUpdate(&tool.Result{Content: []tool.Content{tool.Text(text)},
		Details: &Details{Agent: r.agent.Name, Results: []Result{}, Progress: progress, TotalDurationMs: time.Since(r.start).Milliseconds()}})
}

// models returns the model patterns for the agent: the setting's override
// (task.agentModelOverrides), else the definition's.
func (r *run) models() []string {
	if o := r.settings.AgentModelOverrides[r.agent.Name]; strings.TrimSpace(o) != "" {
		var out []string
		for _, p := range strings.Split(o, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	return r.agent.Models
}

// childTools returns the tools of a child running a: its definition's
// list without the names this session does not know (returned as
// ignored), with the task tool added when the agent may start others and
// removed when the child may not; nil (every tool) when the definition
// names none.
func childTools(a *Agent, known []string, mayStart bool) (tools, ignored []string) {
	if a.Tools == nil {
		return nil, nil
	}
	tools = []string{}
	for _, n := range a.Tools {
		switch {
		case n == toolName:
			if mayStart && !slices.Contains(tools, n) {
				tools = append(tools, n)
			}
		case slices.Contains(known, n):
			if !slices.Contains(tools, n) {
				tools = append(tools, n)
			}
		default:
			ignored = append(ignored, n)
		}
	}
	if mayStart && !slices.Contains(tools, toolName) {
		tools = append(tools, toolName)
	}
	return tools, ignored
}
