package recipe

import (
	"fmt"
	"strings"
)

// Runner ids, in the order runners are probed and listed.
const (
	RunnerJust  = "just"
	RunnerPkg   = "pkg"
	RunnerCargo = "cargo"
	RunnerMake  = "make"
	RunnerTask  = "task"
)

// Task is one task a runner offers.
type Task struct {
	Name   string   // what the model passes in op; workspace tasks are namespaced with "/"
	Doc    string   // one-line description; "" when the project gives none
	Params []string // declared parameter names (just), shown in the listing only
	// Prefix, when set, replaces the runner's command prefix for this
	// task (cargo: "cargo run --package 'p' --bin").
	Prefix string
	// Command is the word given to the prefix (shell-quoted where the
	// project's name needs it); "" is Name.
	Command string
	// Dir is the directory the task runs in, relative to the project
	// root; "" is the root.
	Dir string
}

// Runner is a task runner found in the project, with its tasks.
type Runner struct {
	ID     string // RunnerJust, RunnerPkg, …: the prefix of an explicit op ("pkg:test")
	Label  string // "Just", "Pkg", …
	Prefix string // shell command the task name is appended to: "just", "npm run", …
	Tasks  []Task
}

// command is the shell form of task without arguments.
func (r *Runner) command(t *Task) string { return resolved(r, t, "").Command }

// task returns the runner's task named name, or nil.
func (r *Runner) task(name string) *Task {
	for i := range r.Tasks {
		if r.Tasks[i].Name == name {
			return &r.Tasks[i]
		}
	}
	return nil
}

// joinCommand joins the non-blank parts with single spaces.
func joinCommand(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			kept = append(kept, p)
		}
	}
	return strings.TrimSpace(strings.Join(kept, " "))
}

// shellQuote quotes s for a POSIX shell in single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Resolved is the shell command an op stands for.
type Resolved struct {
	Command string // the runner's command, the task and the op's tail
	Dir     string // relative directory to run in; "" is the project root
	Runner  *Runner
	Task    *Task
}

// splitOp separates an op into its first word (the task, maybe with a
// runner prefix) and the rest, passed to the command unchanged. Leading
// white space is dropped; the white space after the first word is not
// part of the tail.
func splitOp(op string) (head, tail string) {
	op = strings.TrimLeft(op, " \t\r\n\v\f")
	i := strings.IndexFunc(op, isSpace)
	if i < 0 {
		return op, ""
	}
	head, tail = op[:i], op[i:]
	return head, strings.TrimLeft(tail, " \t\r\n\v\f")
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// Resolve turns an op ("test", "build --release", "pkg:test --watch")
// into the command to run. A head "<runner>:<task>" whose runner exists
// names that runner's task exactly; any other head is a task name that
// must belong to exactly one runner. Every error lists the tasks there
// are, so the model can pick one.
func Resolve(op string, runners []*Runner) (Resolved, error) {
	head, tail := splitOp(op)
	if head == "" {
		return Resolved{}, fmt.Errorf("recipe op is empty. Available tasks:\n%s", listTasks(runners))
	}
	if i := strings.IndexByte(head, ':'); i > 0 {
		if r := findRunner(head[:i], runners); r != nil {
			name := head[i+1:]
			t := r.task(name)
			if t == nil {
				if name == "" {
					name = "(empty)"
				}
				return Resolved{}, fmt.Errorf("Task `%s` not found in runner `%s`. Available tasks:\n%s", name, r.ID, listTasks(runners))
			}
			return resolved(r, t, tail), nil
		}
	}
	var owners []*Runner
	for _, r := range runners {
		if r.task(head) != nil {
			owners = append(owners, r)
		}
	}
	switch len(owners) {
	case 1:
		return resolved(owners[0], owners[0].task(head), tail), nil
	case 0:
		return Resolved{}, fmt.Errorf("No runner task named `%s`. Use one of the available runner ids (%s) as a prefix when needed, e.g. `pkg:%s`. Available tasks:\n%s",
			head, runnerIDs(runners), head, listTasks(runners))
	}
	return Resolved{}, fmt.Errorf("Task `%s` exists in multiple runners (%s). Use `<runner-id>:<task>`, for example `%s:%s`. Available tasks:\n%s",
		head, runnerIDs(owners), owners[0].ID, head, listTasks(runners))
}

func resolved(r *Runner, t *Task, tail string) Resolved {
	prefix, word := r.Prefix, t.Name
	if t.Prefix != "" {
		prefix = t.Prefix
	}
	if t.Command != "" {
		word = t.Command
	}
	return Resolved{Command: joinCommand(prefix, word, tail), Dir: t.Dir, Runner: r, Task: t}
}

func findRunner(id string, runners []*Runner) *Runner {
	for _, r := range runners {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// listTasks is the task list of the error texts: one line per runner.
func listTasks(runners []*Runner) string {
	lines := make([]string, len(runners))
	for i, r := range runners {
		names := make([]string, len(r.Tasks))
		for j, t := range r.Tasks {
			names[j] = t.Name
		}
		list := strings.Join(names, ", ")
		if list == "" {
			list = "(no tasks)"
		}
		lines[i] = "- " + r.ID + ": " + list
	}
	return strings.Join(lines, "\n")
}

func runnerIDs(runners []*Runner) string {
	ids := make([]string, len(runners))
	for i, r := range runners {
		ids[i] = r.ID
	}
	return strings.Join(ids, ", ")
}
