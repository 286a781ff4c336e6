package resolve

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

func call(t *testing.T, tl tool.Tool, args string) *tool.Result {
	t.Helper()
	res, err := tool.Run(context.Background(), tl, json.RawMessage(args), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestNothingPending(t *testing.T) {
	t.Parallel()
	res := call(t, New(NewQueue()), `{"action":"apply","reason":"x"}`)
	if !res.IsError || res.FirstText() != "No pending action to resolve. Nothing to apply or discard." {
		t.Fatalf("%+v %q", res, res.FirstText())
	}
}

func TestApplyDiscardAndHook(t *testing.T) {
	t.Parallel()
	q := NewQueue()
	var pushed []string
	q.OnPush = func(a *Action) { pushed = append(pushed, a.Label) }
	applied := ""
	q.Push(&Action{Label: "first", SourceTool: "ast_edit", Apply: func(_ context.Context, reason string) (*tool.Result, error) {
		applied = reason
		return tool.TextResult("Applied 1 replacements in 1 files.", map[string]int{"n": 1}), nil
	}})
	q.Push(&Action{Label: "second", Apply: func(context.Context, string) (*tool.Result, error) { return nil, errors.New("boom") }})
	tl := New(q)
	res := call(t, tl, `{"action":"apply","reason":"looks right"}`)
	d := res.Details.(*Details)
	if res.IsError || applied != "looks right" || d.Label != "first" || d.SourceToolName != "ast_edit" || d.SourceResultDetails == nil {
		t.Fatalf("apply: %+v %+v", res, d)
	}
	res = call(t, tl, `{"action":"discard","reason":"not needed"}`)
	if res.FirstText() != "Discarded: second. Reason: not needed" || res.Details.(*Details).SourceToolName != "custom_tool" {
		t.Fatalf("discard: %q", res.FirstText())
	}
	if q.Len() != 0 || len(pushed) != 2 {
		t.Fatalf("queue %d, pushed %v", q.Len(), pushed)
	}
	if res := call(t, tl, `{"action":"maybe","reason":"x"}`); !res.IsError {
		t.Fatal("bad action accepted")
	}
	if !tl.(*Tool).Hidden() {
		t.Fatal("not hidden")
	}
}

func TestFailedApplyIsConsumed(t *testing.T) {
	t.Parallel()
	q := NewQueue()
	q.Push(&Action{Label: "x", Apply: func(context.Context, string) (*tool.Result, error) { return nil, tool.Errorf("stale") }})
	res := call(t, New(q), `{"action":"apply","reason":"r"}`)
	if !res.IsError || res.FirstText() != "stale" || q.Len() != 0 {
		t.Fatalf("%+v", res)
	}
}
