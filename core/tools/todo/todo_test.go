package todo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

func run(t *testing.T, tl tool.Tool, ops string) *tool.Result {
	t.Helper()
	res, err := tool.Run(context.Background(), tl, json.RawMessage(`{"ops":`+ops+`}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func statuses(s *State) string {
	var out []string
	for _, p := range s.Phases() {
		for _, t := range p.Tasks {
			out = append(out, t.Content+"="+t.Status)
		}
	}
	return strings.Join(out, " ")
}

func TestTodoOps(t *testing.T) {
	t.Parallel()
	st := &State{}
	tl := New(st)
	run(t, tl, `[{"op":"init","list":[{"phase":"Build","items":["parse","check"]},{"phase":"Ship","items":["release"]}]}]`)
	if got := statuses(st); got != "parse=in_progress check=pending release=pending" {
		t.Fatalf("after init: %s", got)
	}
	run(t, tl, `[{"op":"done","task":"parse"}]`)
	if got := statuses(st); got != "parse=completed check=in_progress release=pending" {
		t.Fatalf("after done: %s", got)
	}
	run(t, tl, `[{"op":"start","task":"release"},{"op":"note","task":"release","text":"tag first\n"}]`)
	if got := statuses(st); got != "parse=completed check=pending release=in_progress" {
		t.Fatalf("after start: %s", got)
	}
	if n := st.Phases()[1].Tasks[0].Notes; len(n) != 1 || n[0] != "tag first" {
		t.Fatalf("notes %v", n)
	}
	res := run(t, tl, `[{"op":"append","phase":"Ship","items":["announce","release"]},{"op":"drop","phase":"Build"},{"op":"done","task":"nope"}]`)
	if got := statuses(st); got != "parse=abandoned check=abandoned release=in_progress announce=pending" {
		t.Fatalf("after append/drop: %s", got)
	}
	if !strings.Contains(res.FirstText(), `task "release" already exists`) || !strings.Contains(res.FirstText(), `task "nope" not found`) {
		t.Fatalf("problems not reported: %s", res.FirstText())
	}
	if d := res.Details.(Details); len(d.Phases) != 2 || d.Storage != "session" {
		t.Fatalf("details %+v", d)
	}
	run(t, tl, `[{"op":"rm","phase":"Build"},{"op":"done"}]`)
	if got := statuses(st); got != "release=completed announce=completed" || len(Incomplete(st.Phases())) != 0 {
		t.Fatalf("after rm/done all: %s", got)
	}
	if _, err := st.Set([]Phase{{Name: "x", Tasks: []Task{{Content: "a", Status: "someday"}}}}); err == nil {
		t.Fatal("unknown status accepted")
	}
}

// Phases and tasks carry phase-N / task-N ids: kept when given, assigned
// after the highest number seen otherwise, never changed while the task
// lives, and not reused after an init replaces the plan.
func TestTodoIDs(t *testing.T) {
	t.Parallel()
	st := &State{}
	tl := New(st)
	ids := func() string {
		var out []string
		for _, p := range st.Phases() {
			out = append(out, p.ID+":")
			for _, t := range p.Tasks {
				out = append(out, t.ID+"="+t.Content)
			}
		}
		return strings.Join(out, " ")
	}
	run(t, tl, `[{"op":"init","list":[{"phase":"Build","items":["parse","check"]},{"phase":"Ship","items":["release"]}]}]`)
	if got := ids(); got != "phase-1: task-1=parse task-2=check phase-2: task-3=release" {
		t.Fatalf("after init: %s", got)
	}
	run(t, tl, `[{"op":"done","task":"parse"},{"op":"append","phase":"Ship","items":["announce"]},{"op":"append","phase":"Docs","items":["readme"]},{"op":"rm","task":"check"}]`)
	if got := ids(); got != "phase-1: task-1=parse phase-2: task-3=release task-4=announce phase-3: task-5=readme" {
		t.Fatalf("after updates: %s", got)
	}
	run(t, tl, `[{"op":"init","list":[{"phase":"Again","items":["parse"]}]}]`)
	if got := ids(); got != "phase-4: task-6=parse" {
		t.Fatalf("after a second init: %s", got)
	}
	// A host's plan keeps its ids; missing and repeated ones are assigned
	// after the highest seen.
	got, err := st.Set([]Phase{
		{ID: "phase-7", Name: "A", Tasks: []Task{{ID: "task-9", Content: "a"}, {Content: "b"}, {ID: "task-9", Content: "c"}}},
		{Name: "B", Tasks: []Task{{ID: "mine", Content: "d"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(got); string(b) != `[{"id":"phase-7","name":"A","tasks":[{"id":"task-9","content":"a","status":"in_progress"},{"id":"task-10","content":"b","status":"pending"},{"id":"task-11","content":"c","status":"pending"}]},{"id":"phase-8","name":"B","tasks":[{"id":"mine","content":"d","status":"pending"}]}]` {
		t.Fatalf("set: %s", b)
	}
	// A resumed session (a fresh state given the saved plan) goes on from
	// the highest number in it.
	st2 := &State{}
	if _, err := st2.Set(got); err != nil {
		t.Fatal(err)
	}
	run(t, New(st2), `[{"op":"append","phase":"B","items":["e"]}]`)
	if p := st2.Phases(); p[1].Tasks[1].ID != "task-12" || p[0].Tasks[0].ID != "task-9" {
		t.Fatalf("after resume: %+v", p)
	}
}
