package tool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type fakeTool struct {
	def  Definition
	exec func(ctx context.Context, args Args) (*Result, error)
}

func (f *fakeTool) Definition() Definition { return f.def }
func (f *fakeTool) Execute(ctx context.Context, args Args, onUpdate UpdateFunc) (*Result, error) {
	onUpdate.Update(TextResult("partial", nil))
	return f.exec(ctx, args)
}

var readLike = Definition{
	Name: "read",
	Parameters: &Schema{Type: "object", Required: []string{"path"}, AdditionalProperties: Ptr(false), Properties: map[string]*Schema{
		"path":  {Type: "string", MinLength: Ptr(1)},
		"limit": {Type: "integer", Minimum: Ptr(1.0)},
		"paths": {Type: "array", Items: String(""), MinItems: Ptr(1)},
		"mode":  {Type: "string", Enum: []any{"a", "b"}},
		"flag":  Boolean(""),
	}},
}

func TestRunValidation(t *testing.T) {
	called := false
	tl := &fakeTool{def: readLike, exec: func(context.Context, Args) (*Result, error) { called = true; return TextResult("ok", nil), nil }}
	cases := map[string][]string{
		`{}`:                               {"path: is required but missing"},
		`{"path": 3}`:                      {"path: must be a string, got an integer"},
		`{"path": ""}`:                     {"path: must be at least 1 character(s) long"},
		`{"path": "a", "limit": 1.5}`:      {"limit: must be an integer, got a number"},
		`{"path": "a", "limit": 0}`:        {"limit: must be >= 1, got 0"},
		`{"path": "a", "paths": []}`:       {"paths: must have at least 1 item(s), got 0"},
		`{"path": "a", "paths": [1]}`:      {"paths[0]: must be a string, got an integer"},
		`{"path": "a", "mode": "c"}`:       {`mode: must be one of "a", "b"`},
		`{"path": "a", "extra": 1}`:        {"extra: is not a known parameter"},
		`{"path": "a", "flag": "maybe"}`:   {"flag: must be a boolean, got a string"},
		`[1]`:                              {"arguments: must be an object, got an array"},
		`{"path": "a", "limit": "x"}`:      {"limit: must be an integer, got a string"},
		`{"limit": 0, "mode": 1, "z": {}}`: {"path: is required but missing", "limit: must be >= 1, got 0", "mode: must be a string, got an integer", "z: is not a known parameter"},
	}
	for in, want := range cases {
		res, err := Run(context.Background(), tl, json.RawMessage(in), nil)
		if err != nil || !res.IsError {
			t.Fatalf("%s: want error result, got %v %v", in, res, err)
		}
		text := res.FirstText()
		if !strings.HasPrefix(text, `Invalid arguments for tool "read":`) || !strings.Contains(text, "Received arguments:") {
			t.Errorf("%s: message %q", in, text)
		}
		for _, w := range want {
			if !strings.Contains(text, "  - "+w+"\n") {
				t.Errorf("%s: message lacks %q:\n%s", in, w, text)
			}
		}
	}
	if called {
		t.Fatal("execute ran with invalid arguments")
	}
	// Coercion of quoted scalars, then a successful call.
	var got struct {
		Path  string `json:"path"`
		Limit int    `json:"limit"`
		Flag  bool   `json:"flag"`
	}
	tl.exec = func(_ context.Context, a Args) (*Result, error) {
		if err := a.Decode(&got); err != nil {
			return nil, err
		}
		return TextResult("ok", map[string]int{"n": 1}), nil
	}
	var updates int
	res, err := Run(context.Background(), tl, json.RawMessage(`{"path":"a","limit":"5","flag":"true"}`), func(*Result) { updates++ })
	if err != nil || res.IsError || got.Limit != 5 || !got.Flag || updates != 1 {
		t.Fatalf("got %+v %v %+v updates=%d", res, err, got, updates)
	}
	b, _ := json.Marshal(res)
	if string(b) != `{"content":[{"type":"text","text":"ok"}],"details":{"n":1}}` {
		t.Fatalf("json %s", b)
	}
}

func TestRunErrorsAndAborts(t *testing.T) {
	def := Definition{Name: "x", Parameters: Object(nil)}
	tl := &fakeTool{def: def, exec: func(context.Context, Args) (*Result, error) { return nil, Errorf("Path not found: %s", "q") }}
	res, err := Run(context.Background(), tl, nil, nil)
	if err != nil || !res.IsError || res.FirstText() != "Path not found: q" {
		t.Fatalf("tool error: %+v %v", res, err)
	}
	b, _ := json.Marshal(res)
	if string(b) != `{"content":[{"type":"text","text":"Path not found: q"}],"isError":true}` {
		t.Fatalf("json %s", b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tl.exec = func(ctx context.Context, _ Args) (*Result, error) { cancel(); <-ctx.Done(); return nil, ctx.Err() }
	res, err = Run(ctx, tl, nil, nil)
	if !errors.Is(err, ErrAborted) || !res.IsError {
		t.Fatalf("abort: %+v %v", res, err)
	}
	tl.exec = func(context.Context, Args) (*Result, error) { return nil, ErrAborted }
	if _, err := Run(context.Background(), tl, nil, nil); !errors.Is(err, ErrAborted) {
		t.Fatalf("explicit abort: %v", err)
	}
	img := &Result{Content: []Content{Text("t"), &ImageContent{Data: "AAAA", MIMEType: "image/png"}}}
	b, _ = json.Marshal(img)
	if string(b) != `{"content":[{"type":"text","text":"t"},{"type":"image","data":"AAAA","mimeType":"image/png"}]}` {
		t.Fatalf("json %s", b)
	}
}

func TestSchemaJSON(t *testing.T) {
	b, err := json.Marshal(Object(map[string]*Schema{"path": String("File to read")}, "path"))
	if err != nil || string(b) != `{"type":"object","properties":{"path":{"type":"string","description":"File to read"}},"required":["path"]}` {
		t.Fatalf("%s %v", b, err)
	}
}

type panicTool struct{}

func (panicTool) Definition() Definition { return Definition{Name: "boom"} }
func (panicTool) Execute(context.Context, Args, UpdateFunc) (*Result, error) {
	var m map[string]int
	m["x"] = 1 // nil map write: panics
	return nil, nil
}

func TestRunTurnsPanicIntoErrorResult(t *testing.T) {
	res, err := Run(context.Background(), panicTool{}, nil, nil)
	if err != nil {
		t.Fatalf("panic surfaced as Go error: %v", err)
	}
	if !res.IsError || !strings.Contains(res.FirstText(), "panic") || !strings.Contains(res.FirstText(), "boom") {
		t.Errorf("result %+v", res)
	}
}

func TestSchemaValues(t *testing.T) {
	s := &Schema{Type: "object", Properties: map[string]*Schema{"env": {Type: "object", Values: &Schema{Type: "string"}}}}
	b, err := json.Marshal(s)
	if err != nil || string(b) != `{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}}}` {
		t.Fatal(string(b), err)
	}
	var back Schema
	if err := json.Unmarshal(b, &back); err != nil || back.Properties["env"].Values == nil || back.Properties["env"].Values.Type != "string" {
		t.Fatal(err, back)
	}
	if err := json.Unmarshal([]byte(`{"type":"object","additionalProperties":false}`), &back); err != nil || back.AdditionalProperties == nil || *back.AdditionalProperties || back.Values != nil {
		t.Fatal(err, back)
	}
	if probs := Validate(s, map[string]any{"env": map[string]any{"A": "x", "B": 3.0}}); len(probs) != 1 || !strings.Contains(probs[0], "env.B") {
		t.Fatal(probs)
	}
}
