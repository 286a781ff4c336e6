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
	env := tool.NewEnv(t.TempDir())
	tl := New(env)
	st := For(env)
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
