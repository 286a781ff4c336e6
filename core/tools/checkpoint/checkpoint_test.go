package checkpoint

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

func run(t *testing.T, tl tool.Tool, args string) *tool.Result {
	t.Helper()
	res, err := tool.Run(context.Background(), tl, json.RawMessage(args), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The state walks idle → active → anchored → rewind requested → idle, and
// refuses the steps out of order with omp's texts.
func TestStateMachine(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	s := &State{nowFunc: func() time.Time { return at }}
	if _, err := s.Request("findings"); err == nil || err.Error() != MsgNoCheckpoint {
		t.Fatalf("rewind without a checkpoint: %v", err)
	}
	m, err := s.Begin("find the retry logic")
	if err != nil || m.Goal != "find the retry logic" || !m.StartedAt.Equal(at) {
		t.Fatalf("begin: %+v %v", m, err)
	}
	if _, err := s.Begin("again"); err == nil || err.Error() != MsgAlreadyActive {
		t.Fatalf("nested checkpoint: %v", err)
	}
	if !s.NeedsRewind() || s.Pending() {
		t.Fatal("an active checkpoint without a report needs a rewind")
	}
	if _, err := s.Request(" \n\t"); err == nil || err.Error() != MsgEmptyReport {
		t.Fatalf("blank report: %v", err)
	}
	if got, err := s.Request("  first  "); err != nil || got != "first" {
		t.Fatalf("request: %q %v", got, err)
	}
	if _, ok := s.Take(); ok {
		t.Fatal("a rewind was taken before its checkpoint was anchored")
	}
	if !s.Anchor("e1") || s.Anchor("e2") {
		t.Fatal("anchor: only the first one counts")
	}
	if _, err := s.Request("second"); err != nil {
		t.Fatal(err)
	}
	if s.NeedsRewind() || !s.Pending() {
		t.Fatal("a requested rewind is pending")
	}
	if _, err := s.Begin("while pending"); err == nil || err.Error() != MsgAlreadyActive {
		t.Fatalf("checkpoint while a rewind is pending: %v", err)
	}
	r, ok := s.Take()
	if !ok || r.Report != "second" || r.Mark.EntryID != "e1" || !r.Mark.Anchored || r.Mark.Goal != "find the retry logic" {
		t.Fatalf("take: %+v %v", r, ok)
	}
	if _, ok := s.Active(); ok {
		t.Fatal("the checkpoint is still active after the rewind")
	}
	if _, ok := s.Take(); ok {
		t.Fatal("a rewind was taken twice")
	}
	if _, err := s.Begin("next"); err != nil {
		t.Fatalf("a new checkpoint after the rewind: %v", err)
	}
	if !s.Clear() || s.Clear() {
		t.Fatal("clear reports whether a checkpoint was active")
	}
	if s.Anchor("x") {
		t.Fatal("anchored a checkpoint that was cleared")
	}
}

// The tools answer with omp's texts and details, and fail in subagents.
func TestTools(t *testing.T) {
	s := &State{nowFunc: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC) }}
	cp, rw := NewCheckpoint(s, true), NewRewind(s, true)

	res := run(t, rw, `{"report":"x"}`)
	if !res.IsError || res.FirstText() != "No active checkpoint." {
		t.Fatalf("rewind first: %+v", res)
	}
	res = run(t, cp, `{"goal":"map the config loader"}`)
	want := "Checkpoint created.\nGoal: map the config loader\nRun your investigation, then call rewind with a concise report."
	if res.IsError || res.FirstText() != want {
		t.Fatalf("checkpoint: %q", res.FirstText())
	}
	if d, _ := json.Marshal(res.Details); string(d) != `{"goal":"map the config loader","startedAt":"2026-01-02T03:04:05.006Z"}` {
		t.Fatalf("checkpoint details: %s", d)
	}
	if res := run(t, cp, `{"goal":"again"}`); !res.IsError || res.FirstText() != "Checkpoint already active." {
		t.Fatalf("second checkpoint: %+v", res)
	}
	if res := run(t, rw, `{"report":"   "}`); !res.IsError || res.FirstText() != "Report cannot be empty." {
		t.Fatalf("empty report: %+v", res)
	}
	if res := run(t, rw, `{}`); !res.IsError || !strings.Contains(res.FirstText(), "report") {
		t.Fatalf("missing report: %+v", res)
	}
	res = run(t, rw, `{"report":"  loader is in config.go  "}`)
	if res.IsError || res.FirstText() != "Rewind requested.\nReport captured for context replacement." {
		t.Fatalf("rewind: %+v", res)
	}
	if d, _ := json.Marshal(res.Details); string(d) != `{"report":"loader is in config.go","rewound":true}` {
		t.Fatalf("rewind details: %s", d)
	}

	sub := &State{}
	for _, tl := range []tool.Tool{NewCheckpoint(sub, false), NewRewind(sub, false)} {
		if res := run(t, tl, `{"goal":"g","report":"r"}`); !res.IsError || res.FirstText() != "Checkpoint not available in subagents." {
			t.Fatalf("%s in a subagent: %+v", tl.Definition().Name, res)
		}
	}
	if _, ok := sub.Active(); ok {
		t.Fatal("a subagent's call changed the state")
	}
}

// The schemas are omp's, byte for byte.
func TestSchemas(t *testing.T) {
	for _, c := range []struct {
		tl   tool.Tool
		want string
	}{
		{NewCheckpoint(&State{}, true), `{"type":"object","required":["goal"],"properties":{"goal":{"description":"investigation goal","examples":["investigate retry logic"],"type":"string"}}}`},
		{NewRewind(&State{}, true), `{"type":"object","required":["report"],"properties":{"report":{"description":"investigation findings","type":"string"}}}`},
	} {
		got, err := json.Marshal(c.tl.Definition().Parameters)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %s %v", c.tl.Definition().Name, got, err)
		}
	}
}
