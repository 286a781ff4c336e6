// Package todo is the todo_write tool: the model keeps a phased plan of
// tasks and moves them through pending → in_progress → completed (or
// abandoned) with small operations. The plan lives in the session's tool
// state (For), is returned whole in every result's details (so a resumed
// session finds the latest one in its history), and can be set by a host
// (RPC set_todos). Exactly one task is in progress while any is pending.
package todo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/tool"
)

// Task statuses.
const (
	Pending    = "pending"
	InProgress = "in_progress"
	Completed  = "completed"
	Abandoned  = "abandoned"
)

// Task is one item of a phase.
type Task struct {
	ID      string   `json:"id,omitempty"`
	Content string   `json:"content"`
	Status  string   `json:"status"`
	Notes   []string `json:"notes,omitempty"`
}

// Phase is a named group of tasks.
type Phase struct {
	ID    string `json:"id,omitempty"`
	Name  string `json:"name"`
	Tasks []Task `json:"tasks"`
}

// Details is the structured part of a todo_write result.
type Details struct {
	Phases  []Phase `json:"phases"`
	Storage string  `json:"storage"` // "session"
}

// State is a session's plan. It is safe for concurrent use.
//
// Every phase and task has an id, phase-N and task-N as RPC's set_todos
// and get_state show them: one given by a host is kept; the others get
// the next number after the highest the session has seen, so an id never
// changes while its task lives, including across a resume (the plan is
// restored with its ids).
type State struct {
	mu        sync.Mutex
	phases    []Phase
	version   int // counts changes
	lastPhase int // highest N of a phase-N id seen
	lastTask  int // highest N of a task-N id seen
}

// Version counts the plan's changes: a caller can tell whether a run
// touched it.
func (s *State) Version() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Phases returns a copy of the plan.
func (s *State) Phases() []Phase {
	s.mu.Lock()
	defer s.mu.Unlock()
	return clone(s.phases)
}

// Set replaces the plan (a resumed session, RPC set_todos) after
// normalising it: unknown statuses are an error, exactly one task is in
// progress while any is pending.
func (s *State) Set(phases []Phase) ([]Phase, error) {
	next := clone(phases)
	for i := range next {
		for j := range next[i].Tasks {
			t := &next[i].Tasks[j]
			switch t.Status {
			case "":
				t.Status = Pending
			case Pending, InProgress, Completed, Abandoned:
			default:
				return nil, fmt.Errorf("task %q: unknown status %q; use pending, in_progress, completed or abandoned", t.Content, t.Status)
			}
		}
	}
	normalize(next)
	s.mu.Lock()
	s.assignIDs(next)
	s.phases = next
	s.version++
	s.mu.Unlock()
	return clone(next), nil
}

// assignIDs gives the phases and tasks without an id, or with one already
// used earlier in the plan, the next phase-N or task-N; the caller holds
// mu.
func (s *State) assignIDs(phases []Phase) {
	seen := func(id, prefix string, last *int) {
		if n, err := strconv.Atoi(strings.TrimPrefix(id, prefix)); err == nil && strings.HasPrefix(id, prefix) && n > *last {
			*last = n
		}
	}
	for _, p := range phases {
		seen(p.ID, "phase-", &s.lastPhase)
		for _, t := range p.Tasks {
			seen(t.ID, "task-", &s.lastTask)
		}
	}
	fresh := func(id *string, used map[string]bool, prefix string, last *int) {
		if *id == "" || used[*id] {
			*last++
			*id = prefix + strconv.Itoa(*last)
		}
		used[*id] = true
	}
	phaseIDs, taskIDs := map[string]bool{}, map[string]bool{}
	for i := range phases {
		fresh(&phases[i].ID, phaseIDs, "phase-", &s.lastPhase)
		for j := range phases[i].Tasks {
			fresh(&phases[i].Tasks[j].ID, taskIDs, "task-", &s.lastTask)
		}
	}
}

// Incomplete returns the pending and in-progress tasks by phase.
func Incomplete(phases []Phase) []Phase {
	var out []Phase
	for _, p := range phases {
		var open []Task
		for _, t := range p.Tasks {
			if t.Status == Pending || t.Status == InProgress {
				open = append(open, t)
			}
		}
		if len(open) > 0 {
			out = append(out, Phase{ID: p.ID, Name: p.Name, Tasks: open})
		}
	}
	return out
}

func clone(phases []Phase) []Phase {
	out := make([]Phase, len(phases))
	for i, p := range phases {
		out[i] = Phase{ID: p.ID, Name: p.Name, Tasks: make([]Task, len(p.Tasks))}
		for j, t := range p.Tasks {
			t.Notes = append([]string(nil), t.Notes...)
			out[i].Tasks[j] = t
		}
	}
	return out
}

// normalize keeps exactly one task in progress while any is pending: the
// first in-progress one (later ones go back to pending), or else the first
// pending one.
func normalize(phases []Phase) {
	var first *Task
	for i := range phases {
		for j := range phases[i].Tasks {
			t := &phases[i].Tasks[j]
			if t.Status != InProgress {
				continue
			}
			if first == nil {
				first = t
			} else {
				t.Status = Pending
			}
		}
	}
	if first != nil {
		return
	}
	for i := range phases {
		for j := range phases[i].Tasks {
			if t := &phases[i].Tasks[j]; t.Status == Pending {
				t.Status = InProgress
				return
			}
		}
	}
}

const description = `Keep a short plan for multi-step work: phases of tasks, each pending, in progress, completed or dropped.
Send ordered ops: init {list:[{phase, items}]} replaces the plan; start {task}; done/drop {task} or {phase} (or all); rm {task|phase}; append {phase, items}; note {task, text}.
One task is in progress at a time (the next pending one is started for you). Skip it for one-step requests.`

// Tool is the todo_write tool.
type Tool struct{ state *State }

// New returns todo_write over the session's plan (its services own it;
// the zero State is an empty plan).
func New(state *State) tool.Tool { return &Tool{state: state} }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	items := tool.Array(tool.String(""), "task texts, a few words each")
	op := tool.Object(map[string]*tool.Schema{
		"op":    {Type: "string", Enum: []any{"init", "start", "done", "rm", "drop", "append", "note"}},
		"list":  tool.Array(tool.Object(map[string]*tool.Schema{"phase": tool.String(""), "items": items}, "phase", "items"), "init: the phases"),
		"task":  tool.String("the task's text"),
		"phase": tool.String("the phase's name"),
		"items": items,
		"text":  tool.String("note: text to add"),
	}, "op")
	return tool.Definition{
		Name:        "todo_write",
		Label:       "Todo",
		Description: description,
		Parameters:  tool.Object(map[string]*tool.Schema{"ops": {Type: "array", Items: op, MinItems: tool.Ptr(1)}}, "ops"),
		Concurrency: tool.Exclusive,
		ReadOnly:    true,
	}
}

// opArgs is one operation.
type opArgs struct {
	Op   string `json:"op"`
	List []struct {
		Phase string   `json:"phase"`
		Items []string `json:"items"`
	} `json:"list"`
	Task  string   `json:"task"`
	Phase string   `json:"phase"`
	Items []string `json:"items"`
	Text  string   `json:"text"`
}

// Execute applies the operations in order. Problems with single
// operations are reported, the others still apply.
func (t *Tool) Execute(_ context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Ops []opArgs `json:"ops"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	t.state.mu.Lock()
	phases := clone(t.state.phases)
	var problems []string
	for _, op := range a.Ops {
		phases = apply(phases, op, &problems)
	}
	normalize(phases)
	t.state.assignIDs(phases)
	t.state.phases = phases
	t.state.version++
	t.state.mu.Unlock()

	text := render(phases)
	if len(problems) > 0 {
		text += "\nProblems: " + strings.Join(problems, "; ")
	}
	return tool.TextResult(text, Details{Phases: clone(phases), Storage: "session"}), nil
}

func find(phases []Phase, content string) (*Task, int) {
	for i := range phases {
		for j := range phases[i].Tasks {
			if phases[i].Tasks[j].Content == content {
				return &phases[i].Tasks[j], i
			}
		}
	}
	return nil, -1
}

func phaseIndex(phases []Phase, name string) int {
	for i, p := range phases {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// targets returns the tasks an op names: one task, a phase's, or all.
func targets(phases []Phase, op opArgs, problems *[]string) []*Task {
	switch {
	case op.Task != "":
		if t, _ := find(phases, op.Task); t != nil {
			return []*Task{t}
		}
		*problems = append(*problems, fmt.Sprintf("task %q not found", op.Task))
		return nil
	case op.Phase != "":
		i := phaseIndex(phases, op.Phase)
		if i < 0 {
			*problems = append(*problems, fmt.Sprintf("phase %q not found", op.Phase))
			return nil
		}
		var out []*Task
		for j := range phases[i].Tasks {
			out = append(out, &phases[i].Tasks[j])
		}
		return out
	}
	var out []*Task
	for i := range phases {
		for j := range phases[i].Tasks {
			out = append(out, &phases[i].Tasks[j])
		}
	}
	return out
}

func apply(phases []Phase, op opArgs, problems *[]string) []Phase {
	switch op.Op {
	case "init":
		if len(op.List) == 0 {
			*problems = append(*problems, "init needs a list of phases")
			return phases
		}
		next := make([]Phase, 0, len(op.List))
		for _, l := range op.List {
			p := Phase{Name: l.Phase}
			for _, it := range l.Items {
				p.Tasks = append(p.Tasks, Task{Content: it, Status: Pending})
			}
			next = append(next, p)
		}
		return next
	case "start":
		t, _ := find(phases, op.Task)
		if t == nil {
			*problems = append(*problems, fmt.Sprintf("task %q not found", op.Task))
			return phases
		}
		for i := range phases {
			for j := range phases[i].Tasks {
				if x := &phases[i].Tasks[j]; x.Status == InProgress && x != t {
					x.Status = Pending
				}
			}
		}
		t.Status = InProgress
	case "done", "drop":
		status := Completed
		if op.Op == "drop" {
			status = Abandoned
		}
		for _, t := range targets(phases, op, problems) {
			t.Status = status
		}
	case "rm":
		switch {
		case op.Task != "":
			t, i := find(phases, op.Task)
			if t == nil {
				*problems = append(*problems, fmt.Sprintf("task %q not found", op.Task))
				return phases
			}
			kept := phases[i].Tasks[:0]
			for _, x := range phases[i].Tasks {
				if x.Content != op.Task {
					kept = append(kept, x)
				}
			}
			phases[i].Tasks = kept
		case op.Phase != "":
			i := phaseIndex(phases, op.Phase)
			if i < 0 {
				*problems = append(*problems, fmt.Sprintf("phase %q not found", op.Phase))
				return phases
			}
			phases = append(phases[:i], phases[i+1:]...)
		default:
			return nil
		}
	case "append":
		if op.Phase == "" || len(op.Items) == 0 {
			*problems = append(*problems, "append needs a phase and items")
			return phases
		}
		i := phaseIndex(phases, op.Phase)
		if i < 0 {
			phases = append(phases, Phase{Name: op.Phase})
			i = len(phases) - 1
		}
		for _, it := range op.Items {
			if t, _ := find(phases, it); t != nil {
				*problems = append(*problems, fmt.Sprintf("task %q already exists", it))
				continue
			}
			phases[i].Tasks = append(phases[i].Tasks, Task{Content: it, Status: Pending})
		}
	case "note":
		t, _ := find(phases, op.Task)
		text := strings.TrimRight(op.Text, " \t\n")
		switch {
		case t == nil:
			*problems = append(*problems, fmt.Sprintf("task %q not found", op.Task))
		case text == "":
			*problems = append(*problems, "note needs text")
		default:
			t.Notes = append(t.Notes, text)
		}
	default:
		*problems = append(*problems, fmt.Sprintf("unknown op %q", op.Op))
	}
	return phases
}

// render shows the plan as a checklist.
func render(phases []Phase) string {
	if len(phases) == 0 {
		return "The plan is empty."
	}
	marks := map[string]string{Pending: "[ ]", InProgress: "[>]", Completed: "[x]", Abandoned: "[-]"}
	var b strings.Builder
	for _, p := range phases {
		fmt.Fprintf(&b, "%s\n", p.Name)
		for _, t := range p.Tasks {
			fmt.Fprintf(&b, "  %s %s\n", marks[t.Status], t.Content)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
