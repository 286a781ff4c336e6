package todo

import (
	"fmt"
	"strings"
)

// The plan as Markdown, the form /todo copy, export, import and edit
// use (omp's): a heading per phase, a check box per task — [ ] pending,
// [/] in progress, [x] completed, [-] abandoned — and a task's notes as
// quoted lines under it, a bare ">" between two notes.

// markOf is the check mark of each status.
var markOf = map[string]string{Pending: " ", InProgress: "/", Completed: "x", Abandoned: "-"}

// statusOf reads a check mark; the other spellings omp accepts are
// taken too.
var statusOf = map[string]string{" ": Pending, "": Pending, "x": Completed, "X": Completed, "/": InProgress, ">": InProgress, "-": Abandoned, "~": Abandoned}

// Markdown renders a plan ("# Todos" alone for an empty one).
func Markdown(phases []Phase) string {
	if len(phases) == 0 {
		return "# Todos\n"
	}
	var b strings.Builder
	for i, p := range phases {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("# " + p.Name + "\n")
		for _, t := range p.Tasks {
			fmt.Fprintf(&b, "- [%s] %s\n", markOf[t.Status], t.Content)
			for j, n := range t.Notes {
				if j > 0 {
					b.WriteString("  >\n")
				}
				for _, l := range strings.Split(n, "\n") {
					if l == "" {
						b.WriteString("  >\n")
					} else {
						b.WriteString("  > " + l + "\n")
					}
				}
			}
		}
	}
	return b.String()
}

// ParseMarkdown reads a plan written as Markdown. Headings (# to ######)
// start phases; "- [m] text" (or * or +) is a task, in a phase "Todos"
// when no heading came first; quoted lines under a task are its notes.
// Blank lines are skipped. Anything else, and an unknown check mark, is
// reported in problems ("Line N: …"); the plan is still returned.
func ParseMarkdown(text string) (phases []Phase, problems []string) {
	var phase *Phase
	var task *Task
	var note []string
	flush := func() {
		for len(note) > 0 && note[len(note)-1] == "" {
			note = note[:len(note)-1]
		}
		if task != nil && len(note) > 0 {
			task.Notes = append(task.Notes, strings.Join(note, "\n"))
		}
		note = nil
	}
	// phase and task point into phases: re-take them after an append.
	cur := func() *Phase { return &phases[len(phases)-1] }
	for n, raw := range strings.Split(text, "\n") {
		raw = strings.TrimSuffix(raw, "\r")
		trimmed := strings.TrimSpace(raw)
		if q, ok := strings.CutPrefix(trimmed, ">"); ok && task != nil {
			q = strings.TrimPrefix(q, " ")
			if q == "" {
				flush()
			} else {
				note = append(note, q)
			}
			continue
		}
		if trimmed == "" {
			continue
		}
		if name, ok := heading(trimmed); ok {
			flush()
			task = nil
			phases = append(phases, Phase{Name: name})
			phase = cur()
			continue
		}
		if mark, content, ok := taskLine(trimmed); ok {
			flush()
			if phase == nil {
				phases = append(phases, Phase{Name: "Todos"})
				phase = cur()
			}
			st, known := statusOf[mark]
			if !known {
				problems = append(problems, fmt.Sprintf("Line %d: unknown status mark [%s] (use [ ], [x], [/] or [-])", n+1, mark))
				task = nil
				continue
			}
			phase.Tasks = append(phase.Tasks, Task{Content: content, Status: st})
			task = &phase.Tasks[len(phase.Tasks)-1]
			continue
		}
		flush()
		task = nil
		problems = append(problems, fmt.Sprintf("Line %d: not a heading, a task or a note: %q", n+1, trimmed))
	}
	flush()
	return phases, problems
}

// heading reads "# name" (one to six #, then space).
func heading(s string) (string, bool) {
	i := 0
	for i < len(s) && s[i] == '#' {
		i++
	}
	if i == 0 || i > 6 || i == len(s) || (s[i] != ' ' && s[i] != '\t') {
		return "", false
	}
	name := strings.TrimSpace(s[i:])
	return name, name != ""
}

// taskLine reads "- [m] content" (- * or +; m at most one character).
func taskLine(s string) (mark, content string, ok bool) {
	if s == "" || !strings.ContainsRune("-*+", rune(s[0])) {
		return "", "", false
	}
	rest := strings.TrimLeft(s[1:], " \t")
	if !strings.HasPrefix(rest, "[") {
		return "", "", false
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return "", "", false
	}
	mark = rest[1:end]
	if len([]rune(mark)) > 1 {
		return "", "", false
	}
	after := rest[end+1:]
	if after == "" || (after[0] != ' ' && after[0] != '\t') {
		return "", "", false
	}
	content = strings.TrimSpace(after)
	return mark, content, content != ""
}
