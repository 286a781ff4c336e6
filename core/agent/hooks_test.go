package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
)

// INVENTORY §6 check 1: the first tool_call hook that blocks stops the
// chain and the call fails with its reason; a hook that fails blocks too.
func TestToolCallHooksBlock(t *testing.T) {
	t.Parallel()
	ran := false
	tl := &fakeTool{name: "rm", run: func(context.Context, tool.Args) (*tool.Result, error) {
		ran = true
		return tool.TextResult("removed", nil), nil
	}}
	secondCalled := false
	for _, tc := range []struct {
		name  string
		first *Hooks
		want  string
	}{
		{"block", &Hooks{Name: "a", ToolCall: func(ctx context.Context, c *ToolCallInfo) (*ToolCallDecision, error) {
			return &ToolCallDecision{Block: true, Reason: "not in this repo"}, nil
		}}, "not in this repo"},
		{"error", &Hooks{Name: "a", ToolCall: func(ctx context.Context, c *ToolCallInfo) (*ToolCallDecision, error) {
			return nil, errors.New("policy server down")
		}}, "policy server down"},
		{"panic", &Hooks{Name: "a", ToolCall: func(ctx context.Context, c *ToolCallInfo) (*ToolCallDecision, error) {
			panic("bad hook")
		}}, "bad hook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran, secondCalled = false, false
			second := &Hooks{Name: "b", ToolCall: func(ctx context.Context, c *ToolCallInfo) (*ToolCallDecision, error) {
				secondCalled = true
				return nil, nil
			}}
			s := newScript(t, calls("c", call{"rm", `{}`}), say("ok"))
			a := New(Options{Model: testModel, Stream: s.stream, Tools: []tool.Tool{tl}, Hooks: []*Hooks{tc.first, second}})
			rec := &recorder{}
			a.Subscribe(rec.add)
			if err := a.Prompt(context.Background(), user("q")); err != nil {
				t.Fatal(err)
			}
			res := a.Messages()[2].(*ai.ToolResultMessage)
			if ran || secondCalled || !res.IsError || !strings.Contains(res.Content[0].(*ai.TextContent).Text, tc.want) {
				t.Fatalf("ran %v, second hook %v, result %s", ran, secondCalled, mustJSON(t, res))
			}
		})
	}
}

// INVENTORY §6 check 2: tool_result hooks chain; B sees A's output.
func TestToolResultHooksChain(t *testing.T) {
	t.Parallel()
	var sawInB string
	a1 := &Hooks{Name: "a", ToolResult: func(ctx context.Context, c *ToolCallInfo, r *tool.Result) (*ToolResultOverride, error) {
		return &ToolResultOverride{Content: []tool.Content{tool.Text(r.FirstText() + " +A")}}, nil
	}}
	b := &Hooks{Name: "b", ToolResult: func(ctx context.Context, c *ToolCallInfo, r *tool.Result) (*ToolResultOverride, error) {
		sawInB = r.FirstText()
		yes := true
		return &ToolResultOverride{IsError: &yes}, nil
	}}
	s := newScript(t, calls("c", call{"read", `{}`}), say("ok"))
	a := New(Options{Model: testModel, Stream: s.stream, Tools: []tool.Tool{&fakeTool{name: "read"}}, Hooks: []*Hooks{a1, b}})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	res := a.Messages()[2].(*ai.ToolResultMessage)
	if sawInB != "read ok +A" || !res.IsError || res.Content[0].(*ai.TextContent).Text != "read ok +A" {
		t.Fatalf("B saw %q; result %s", sawInB, mustJSON(t, res))
	}
}

// INVENTORY §6 check 3: context edits do not touch the stored messages.
func TestContextHookWorksOnACopy(t *testing.T) {
	t.Parallel()
	h := &Hooks{Name: "ctx", Context: func(ctx context.Context, msgs []ai.Message) ([]ai.Message, error) {
		msgs[0] = user("rewritten")
		return append(msgs, user("injected")), nil
	}}
	failing := &Hooks{Name: "broken", Context: func(ctx context.Context, msgs []ai.Message) ([]ai.Message, error) {
		return nil, errors.New("nope")
	}}
	s := newScript(t, say("ok"))
	a := New(Options{Model: testModel, Stream: s.stream, Hooks: []*Hooks{h, failing}})
	rec := &recorder{}
	a.Subscribe(rec.add)
	if err := a.Prompt(context.Background(), user("original")); err != nil {
		t.Fatal(err)
	}
	if got := userTexts(s.requests()[0].Messages); strings.Join(got, ",") != "rewritten,injected" {
		t.Fatalf("request saw %v", got)
	}
	if got := userTexts(a.Messages()); strings.Join(got, ",") != "original" {
		t.Fatalf("stored conversation changed: %v", got)
	}
	found := false
	for _, ev := range rec.events() {
		if e, ok := ev.(HookError); ok && e.Hook == "broken" && e.Event == "context" {
			found = true
		}
	}
	if !found {
		t.Error("failing hook not reported")
	}
}

func TestBeforeAgentStartFirstMessageWins(t *testing.T) {
	t.Parallel()
	mk := func(text string) *Hooks {
		return &Hooks{BeforeAgentStart: func(ctx context.Context, prompt []ai.Message) (ai.Message, error) {
			return user(text), nil
		}}
	}
	s := newScript(t, say("ok"))
	a := New(Options{Model: testModel, Stream: s.stream, Hooks: []*Hooks{mk("first"), mk("second")}})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(userTexts(a.Messages()), ","); got != "q,first" {
		t.Fatalf("messages %s", got)
	}
}

func TestProviderHooksSeeRequestID(t *testing.T) {
	t.Parallel()
	var seen string
	h := &Hooks{Name: "p", BeforeProviderRequest: func(ctx context.Context, r *ai.ProviderRequest) error {
		seen = r.RequestID
		return nil
	}}
	s := newScript(t, say("ok"))
	a := New(Options{Model: testModel, Stream: s.stream, Hooks: []*Hooks{h}})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	req := s.requests()[0]
	if req.OnRequest == nil {
		t.Fatal("hook not wired")
	}
	req.EnsureRequestID()
	if err := req.OnRequest(context.Background(), &ai.ProviderRequest{RequestID: req.RequestID}); err != nil || seen != req.RequestID {
		t.Fatalf("hook saw %q, want %q (%v)", seen, req.RequestID, err)
	}
}

// A huge tool result is cut to its tail, the whole text saved as an
// artifact.
func TestHugeResultSpillsToArtifact(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := strings.Repeat("x", 3<<20) + "THE END"
	tl := &fakeTool{name: "dump", run: func(context.Context, tool.Args) (*tool.Result, error) {
		return tool.TextResult(big, nil), nil
	}}
	s := newScript(t, calls("c", call{"dump", `{}`}), say("ok"))
	a := New(Options{Model: testModel, Stream: s.stream, Tools: []tool.Tool{tl}, Artifacts: artifact.NewStore(dir)})
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	text := a.Messages()[2].(*ai.ToolResultMessage).Content[0].(*ai.TextContent).Text
	if len(text) > tool.DefaultMaxBytes+200 || !strings.HasSuffix(text, "THE END") || !strings.Contains(text, "artifact://0") {
		t.Fatalf("result head %q (len %d)", text[:min(200, len(text))], len(text))
	}
	saved, err := os.ReadFile(filepath.Join(dir, "0.dump.log"))
	if err != nil || string(saved) != big {
		t.Fatalf("artifact: %v (%d bytes)", err, len(saved))
	}
}

// SetArtifacts moves later spills to another store (a new session file).
func TestSetArtifactsMovesSpills(t *testing.T) {
	t.Parallel()
	first, second := t.TempDir(), t.TempDir()
	big := strings.Repeat("y", 2<<20)
	tl := &fakeTool{name: "dump", run: func(context.Context, tool.Args) (*tool.Result, error) {
		return tool.TextResult(big, nil), nil
	}}
	s := newScript(t, calls("c", call{"dump", `{}`}), say("ok"))
	a := New(Options{Model: testModel, Stream: s.stream, Tools: []tool.Tool{tl}, Artifacts: artifact.NewStore(first)})
	a.SetArtifacts(artifact.NewStore(second))
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(second, "0.dump.log")); err != nil {
		t.Fatalf("not spilled to the new store: %v", err)
	}
	if ents, _ := os.ReadDir(first); len(ents) != 0 {
		t.Fatalf("the old store got %d files", len(ents))
	}
}

// A before_provider_request hook that fails is reported and its change
// dropped; the request goes out as the hooks before it left it, and the
// hooks after it still run (omp logs the failure and sends).
func TestBeforeProviderRequestFailureSendsTheRequest(t *testing.T) {
	t.Parallel()
	var sawInC string
	a1 := &Hooks{Name: "a", BeforeProviderRequest: func(ctx context.Context, r *ai.ProviderRequest) error {
		r.Payload = []byte(`{"from":"a"}`)
		return nil
	}}
	b := &Hooks{Name: "b", BeforeProviderRequest: func(ctx context.Context, r *ai.ProviderRequest) error {
		copy(r.Payload, `{"from":"b"}`)
		return errors.New("b cannot reach its policy server")
	}}
	panics := &Hooks{Name: "p", BeforeProviderRequest: func(ctx context.Context, r *ai.ProviderRequest) error {
		r.Payload = []byte(`{"from":"p"}`)
		panic("p is broken")
	}}
	c := &Hooks{Name: "c", BeforeProviderRequest: func(ctx context.Context, r *ai.ProviderRequest) error {
		sawInC = string(r.Payload)
		return nil
	}}
	s := newScript(t, say("ok"))
	a := New(Options{Model: testModel, Stream: s.stream, Hooks: []*Hooks{a1, b, panics, c}})
	rec := &recorder{}
	a.Subscribe(rec.add)
	if err := a.Prompt(context.Background(), user("q")); err != nil {
		t.Fatal(err)
	}
	req := s.requests()[0]
	p := &ai.ProviderRequest{RequestID: req.EnsureRequestID(), Payload: []byte(`{"original":true}`)}
	if err := req.OnRequest(context.Background(), p); err != nil {
		t.Fatalf("the request failed: %v", err)
	}
	if string(p.Payload) != `{"from":"a"}` || sawInC != `{"from":"a"}` {
		t.Fatalf("sent %s, c saw %s", p.Payload, sawInC)
	}
	var failed []string
	for _, ev := range rec.events() {
		if e, ok := ev.(HookError); ok && e.Event == "before_provider_request" {
			failed = append(failed, e.Hook+": "+e.Error)
		}
	}
	if len(failed) != 2 || failed[0] != "b: b cannot reach its policy server" || !strings.Contains(failed[1], "p is broken") {
		t.Fatalf("reported %q", failed)
	}
}
