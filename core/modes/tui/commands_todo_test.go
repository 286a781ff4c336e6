package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tools/todo"
)

// /todo changes the plan the model works from: append, start, done, drop,
// rm, with fuzzy names; export writes Markdown.
func TestSlashTodo(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.typeAndSend("/todo")
	r.settle()
	if !r.printedHas("No todos") {
		t.Errorf("empty plan:\n%s", r.transcript())
	}
	for _, c := range []string{
		`/todo append "write the parser"`,
		`/todo append Todos add tests`,
		"/todo append docs update the README",
		"/todo start parser",
		"/todo done tests",
		"/todo drop readme",
	} {
		r.typeAndSend(c)
		r.settle()
	}
	phases := r.s.Tools().TodoPhases()
	got := todo.Markdown(phases)
	want := "# Todos\n- [/] Write the parser\n- [x] Add tests\n\n# Docs\n- [-] Update the README\n"
	if got != want {
		t.Errorf("plan:\n%s\nwant:\n%s\ntranscript:\n%s", got, want, r.transcript())
	}
	r.typeAndSend("/todo export plan.md")
	r.settle()
	if data, err := os.ReadFile(filepath.Join(r.project, "plan.md")); err != nil || string(data) != want {
		t.Errorf("export (%v):\n%s", err, data)
	}
	write(t, filepath.Join(r.project, "bad.md"), "# P\n- [?] what\n")
	r.typeAndSend("/todo import bad.md")
	r.settle()
	if !r.printedHas("Line 2: unknown") || todo.Markdown(r.s.Tools().TodoPhases()) != want {
		t.Errorf("a bad import changed the plan:\n%s", r.transcript())
	}
	r.typeAndSend("/todo import plan.md")
	r.settle()
	if !r.printedHas("plan.md: 2 phase(s), 3 task(s)") || todo.Markdown(r.s.Tools().TodoPhases()) != want {
		t.Errorf("import:\n%s", r.transcript())
	}
	r.typeAndSend("/todo edit")
	r.settle()
	if !r.printedHas("No editor configured") {
		t.Errorf("/todo edit without an editor:\n%s", r.transcript())
	}
	r.typeAndSend("/todo rm Docs")
	r.settle()
	r.typeAndSend("/todo done")
	r.settle()
	if got := todo.Markdown(r.s.Tools().TodoPhases()); got != "# Todos\n- [x] Write the parser\n- [x] Add tests\n" {
		t.Errorf("after rm and done:\n%s", got)
	}
	r.typeAndSend("/todo start nothing-like-this")
	r.settle()
	if !r.printedHas(`No task or phase matches "nothing-like-this"`) {
		t.Errorf("no match:\n%s", r.transcript())
	}
	r.typeAndSend("/todo frob")
	r.settle()
	if !r.printedHas(`Unknown /todo verb "frob"`) {
		t.Error("unknown verb")
	}
	r.typeAndSend("/todo rm")
	r.settle()
	if len(r.s.Tools().TodoPhases()) != 0 {
		t.Error("/todo rm left tasks")
	}
	edits, notes := 0, 0
	for _, e := range r.s.Store().Entries() {
		if e.Custom != nil && e.Custom.CustomType == "user_todo_edit" {
			edits++
		}
	}
	for _, msg := range r.s.Messages() {
		if c, ok := msg.(*message.Custom); ok && c.CustomType == todoEditType && strings.Contains(c.Content.Text(), "The user changed the todo list") {
			notes++
		}
	}
	if edits != 10 || notes != 10 {
		t.Errorf("%d plan entries and %d notes to the model, want 10 of each", edits, notes)
	}
}

func TestTodoFuzzyMatch(t *testing.T) {
	phases := []todo.Phase{{Name: "Build", Tasks: []todo.Task{{Content: "fix the test", Status: todo.Completed}, {Content: "fix the build", Status: todo.Pending}}}, {Name: "Build docs"}}
	if p, i := findTask(phases, "fix"); p != 0 || i != 1 {
		t.Errorf("two hits, one active: %d %d", p, i)
	}
	if p, _ := findTask(phases, "nothing"); p != -1 {
		t.Error("matched nothing")
	}
	if findPhase(phases, "build") != 0 || findPhase(phases, "docs") != 1 || findPhase(phases, "bu") != -1 {
		t.Error("phase matching")
	}
}

func TestTodoWords(t *testing.T) {
	for in, want := range map[string]string{
		`a b  c`:            "a|b|c",
		`"two words" more`:  "two words|more",
		`esc\"aped x`:       `esc"aped|x`,
		`""`:                "",
		`  `:                "",
		`"unterminated x y`: "unterminated x y",
	} {
		if got := strings.Join(todoWords(in), "|"); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
