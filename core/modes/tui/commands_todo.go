package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/todo"
)

// /todo: the user's side of the model's todo plan. Tasks and phases are
// named by a fuzzy match of their text: an exact (case-insensitive) name
// first, else the one name containing the query (for tasks, the one
// pending or in progress when several contain it).

// todoUsage lists /todo's verbs.
const todoUsage = `Usage: /todo [verb] [args]
  /todo                              show the plan
  /todo copy                         copy it as Markdown to the clipboard
  /todo edit                         edit it as Markdown in $VISUAL or $EDITOR
  /todo export [path]                write it as Markdown (default TODO.md)
  /todo import [path]                replace it with a Markdown plan (default TODO.md)
  /todo append [<phase>] <task…>     add a task (one word: to the last phase; more: the first names the phase)
  /todo start <task>                 mark a task in progress
  /todo done [<task|phase>]          mark a task, a phase or everything completed
  /todo drop [<task|phase>]          mark a task, a phase or everything abandoned
  /todo rm [<task|phase>]            remove a task, a phase or everything`

// cmdTodo runs /todo.
func (m *model) cmdTodo(args string) tea.Cmd {
	verb, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	rest = strings.TrimSpace(rest)
	phases := m.s.Tools().TodoPhases()
	switch strings.ToLower(verb) {
	case "":
		if len(phases) == 0 {
			return m.printSection(m.r.notice("No todos. /todo append <task> starts one"))
		}
		return m.printSection(strings.TrimRight(todo.Markdown(phases), "\n"))
	case "help", "?":
		return m.printSection(m.r.notice(todoUsage))
	case "copy":
		if len(phases) == 0 {
			return m.printSection(m.r.warning("No todos to copy"))
		}
		m.setNotice("Copied the todos as Markdown to the clipboard")
		return tea.SetClipboard(todo.Markdown(phases))
	case "export":
		if len(phases) == 0 {
			return m.printSection(m.r.warning("No todos to export"))
		}
		path := m.todoPath(rest)
		if err := tool.WriteFileAtomic(path, []byte(todo.Markdown(phases)), 0o644); err != nil {
			return m.printSection(m.r.errorLine(fmt.Sprintf("Could not write %s: %v", path, err)))
		}
		return m.printSection(m.r.notice("Wrote the todos to " + path))
	case "import":
		path := m.todoPath(rest)
		data, err := os.ReadFile(path)
		if err != nil {
			return m.printSection(m.r.errorLine(fmt.Sprintf("Could not read %s: %v", path, err)))
		}
		return m.todoImport(string(data), "/todo import "+path, path)
	case "edit":
		return m.todoEdit(phases)
	case "append":
		return m.todoAppend(phases, rest)
	case "start":
		if rest == "" {
			return m.printSection(m.r.errorLine("Usage: /todo start <task>"))
		}
		return m.todoSet(phases, rest, todo.InProgress, false)
	case "done":
		return m.todoSet(phases, rest, todo.Completed, true)
	case "drop":
		return m.todoSet(phases, rest, todo.Abandoned, true)
	case "rm":
		return m.todoRemove(phases, rest)
	}
	return m.printSection(m.r.errorLine(fmt.Sprintf("Unknown /todo verb %q: /todo help lists them", verb)))
}

// todoPath resolves export's path (default TODO.md) against the working
// directory.
func (m *model) todoPath(p string) string {
	if p == "" {
		p = "TODO.md"
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(m.opts.Cwd, p)
	}
	return p
}

// todoCommit replaces the plan and says what changed.
func (m *model) todoCommit(phases []todo.Phase, what string) tea.Cmd {
	if phases == nil {
		phases = []todo.Phase{}
	}
	out, err := m.s.Tools().SetTodoPhases(phases)
	if err != nil {
		return m.printSection(m.r.errorLine("Could not change the todos: " + err.Error()))
	}
	// The model learns of the change with its next step.
	md := "(empty)"
	if len(out) > 0 {
		md = strings.TrimRight(todo.Markdown(out), "\n")
	}
	note := &message.Custom{CustomType: todoEditType, Display: false, Attribution: "user",
		Content: message.PlainText("<system-reminder>\nThe user changed the todo list (" + what + "). It is now:\n\n" + md + "\n</system-reminder>")}
	ctx, s := m.ctx, m.s
	return tea.Batch(m.printSection(m.r.notice(what)), func() tea.Msg {
		if err := s.SendCustomMessage(ctx, note, agentsession.CustomOptions{}); err != nil {
			return errMsg{fmt.Errorf("the model was not told of the todo change: %w", err)}
		}
		return nil
	})
}

// todoEditType is the custom type of the note telling the model of a
// /todo change.
const todoEditType = "user-todo-edit-reminder"

// todoAppend adds a task, as omp does: with one word (or one quoted
// text) it is the task, added to the last phase (or a new "Todos");
// otherwise the first word (or quoted text) names the phase, matched
// fuzzily or made (in title case), and the rest is the task. The task's
// first letter is capitalised.
func (m *model) todoAppend(phases []todo.Phase, rest string) tea.Cmd {
	words := todoWords(rest)
	if len(words) == 0 {
		return m.printSection(m.r.errorLine("Usage: /todo append [<phase>] <task…>"))
	}
	next := clonePhases(phases)
	content := words[0]
	pi := len(next) - 1
	if len(words) > 1 {
		content = strings.Join(words[1:], " ")
		if pi = findPhase(next, words[0]); pi < 0 {
			next = append(next, todo.Phase{Name: titleWords(words[0])})
			pi = len(next) - 1
		}
	}
	if pi < 0 {
		next = append(next, todo.Phase{Name: "Todos"})
		pi = 0
	}
	content = upperFirst(strings.TrimSpace(content))
	next[pi].Tasks = append(next[pi].Tasks, todo.Task{Content: content, Status: todo.Pending})
	return m.todoCommit(next, "Appended to "+next[pi].Name+": "+content)
}

// todoWords splits /todo's arguments at spaces; double quotes group words
// and a backslash takes the next character as it is.
func todoWords(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, any := false, false
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			any = true
		case c == '"':
			quoted, any = !quoted, true
		case !quoted && unicode.IsSpace(c):
			if any {
				out = append(out, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteRune(c)
			any = true
		}
	}
	if any && cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// titleWords capitalises every word of s.
func titleWords(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		f[i] = upperFirst(w)
	}
	return strings.Join(f, " ")
}

// upperFirst capitalises the first letter of s.
func upperFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+utf8.RuneLen(r):]
	}
	return s
}

// todoSet sets the status of the task matched, or of every task of the
// phase matched, or (all, with no query) of every task.
func (m *model) todoSet(phases []todo.Phase, q, status string, all bool) tea.Cmd {
	next := clonePhases(phases)
	if q == "" && all {
		for i := range next {
			for j := range next[i].Tasks {
				next[i].Tasks[j].Status = status
			}
		}
		return m.todoCommit(next, "Marked every task "+status)
	}
	if pi, ti := findTask(next, q); pi >= 0 {
		if status == todo.InProgress {
			for i := range next {
				for j := range next[i].Tasks {
					if next[i].Tasks[j].Status == todo.InProgress {
						next[i].Tasks[j].Status = todo.Pending
					}
				}
			}
		}
		next[pi].Tasks[ti].Status = status
		return m.todoCommit(next, "Marked "+status+": "+next[pi].Tasks[ti].Content)
	}
	if pi := findPhase(next, q); pi >= 0 && all {
		for j := range next[pi].Tasks {
			next[pi].Tasks[j].Status = status
		}
		return m.todoCommit(next, "Marked phase "+next[pi].Name+" "+status)
	}
	return m.printSection(m.r.errorLine(fmt.Sprintf("No task or phase matches %q: /todo lists them", q)))
}

// todoRemove removes the task or phase matched, or everything.
func (m *model) todoRemove(phases []todo.Phase, q string) tea.Cmd {
	if q == "" {
		return m.todoCommit(nil, "Cleared all todos")
	}
	next := clonePhases(phases)
	if pi, ti := findTask(next, q); pi >= 0 {
		content := next[pi].Tasks[ti].Content
		next[pi].Tasks = append(next[pi].Tasks[:ti], next[pi].Tasks[ti+1:]...)
		return m.todoCommit(next, "Removed: "+content)
	}
	if pi := findPhase(next, q); pi >= 0 {
		name := next[pi].Name
		next = append(next[:pi], next[pi+1:]...)
		return m.todoCommit(next, "Removed phase: "+name)
	}
	return m.printSection(m.r.errorLine(fmt.Sprintf("No task or phase matches %q: /todo lists them", q)))
}

// clonePhases copies a plan deeply enough to change tasks.
func clonePhases(phases []todo.Phase) []todo.Phase {
	out := make([]todo.Phase, len(phases))
	for i, p := range phases {
		out[i] = p
		out[i].Tasks = append([]todo.Task(nil), p.Tasks...)
	}
	return out
}

// findPhase returns the index of the phase q names, or -1.
func findPhase(phases []todo.Phase, q string) int {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return -1
	}
	hit, n := -1, 0
	for i, p := range phases {
		name := strings.ToLower(p.Name)
		if name == q {
			return i
		}
		if strings.Contains(name, q) {
			hit, n = i, n+1
		}
	}
	if n == 1 {
		return hit
	}
	return -1
}

// findTask returns the phase and task index of the task q names, or -1, -1.
func findTask(phases []todo.Phase, q string) (int, int) {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return -1, -1
	}
	type at struct{ p, t int }
	var hits, active []at
	for i, p := range phases {
		for j, t := range p.Tasks {
			c := strings.ToLower(t.Content)
			if c == q {
				return i, j
			}
			if strings.Contains(c, q) {
				hits = append(hits, at{i, j})
				if t.Status == todo.Pending || t.Status == todo.InProgress {
					active = append(active, at{i, j})
				}
			}
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0].p, hits[0].t
	case len(active) == 1:
		return active[0].p, active[0].t
	}
	return -1, -1
}

// todoImport replaces the plan with the one text holds (Markdown, see
// todo.ParseMarkdown); a text with problems changes nothing.
func (m *model) todoImport(text, what, source string) tea.Cmd {
	phases, problems := todo.ParseMarkdown(text)
	if len(problems) > 0 {
		return m.printSection(m.r.errorLine(fmt.Sprintf("Could not read the plan in %s: %s", source, strings.Join(problems, "; "))))
	}
	tasks := 0
	for _, p := range phases {
		tasks += len(p.Tasks)
	}
	return m.todoCommit(phases, fmt.Sprintf("%s: %d phase(s), %d task(s)", what, len(phases), tasks))
}

// todoEdit opens the plan as Markdown in the user's editor and takes back
// what is saved (nothing changes when the file is left as it was).
func (m *model) todoEdit(phases []todo.Phase) tea.Cmd {
	initial := "# Todos\n- [ ] (write your tasks here)\n"
	if len(phases) > 0 {
		initial = todo.Markdown(phases)
	}
	return m.editExternally(initial, ".todo.md", func(text string) tea.Cmd {
		if text == initial {
			return m.printSection(m.r.notice("The todos are unchanged"))
		}
		return m.todoImport(text, "/todo edit", "the edited file")
	})
}
