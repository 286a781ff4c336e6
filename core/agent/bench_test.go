package agent

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// benchCalls is how many tool calls one benchmark operation makes.
const benchCalls = 64

// benchStream is a scripted provider without HTTP: each request is
// answered at once from an emitter, as a provider's parsed stream would.
// With perTurn, turns 1..calls each call the tool once; otherwise turn 1
// calls it calls times. The turn after the last call answers with text.
type benchStream struct {
	calls   int
	perTurn bool
	turn    atomic.Int64
}

func (s *benchStream) stream(ctx context.Context, req *ai.Request) *ai.Stream {
	n := int(s.turn.Add(1))
	em, st := ai.NewEmitter(req.Model)
	go func() {
		em.Start()
		var k int // calls in this turn
		switch {
		case s.perTurn && n <= s.calls:
			k = 1
		case !s.perTurn && n == 1:
			k = s.calls
		}
		if k == 0 {
			i := em.StartText()
			em.TextDelta(i, "done")
			em.EndText(i)
			em.SetStopReason(ai.StopReasonStop)
			em.Done(req.Model)
			return
		}
		for j := range k {
			idx := em.StartToolCall(fmt.Sprintf("call_%d_%d", n, j), "noop")
			em.ToolCallDelta(idx, `{"path":"src/main.go","line":42}`)
			em.EndToolCall(idx)
		}
		em.SetStopReason(ai.StopReasonToolUse)
		em.Done(req.Model)
	}()
	return st
}

// noopTool does nothing; its schema is validated like a real tool's.
type noopTool struct{}

func (noopTool) Definition() tool.Definition {
	return tool.Definition{Name: "noop", Description: "does nothing", Parameters: tool.Object(map[string]*tool.Schema{
		"path": tool.String("a path"), "line": tool.Integer("a line"),
	}, "path")}
}

func (noopTool) Execute(context.Context, tool.Args, tool.UpdateFunc) (*tool.Result, error) {
	return tool.TextResult("ok", nil), nil
}

// BenchmarkToolCallOverhead measures what the loop adds to every tool
// call, beside the tool's own time (the tool here does nothing): argument
// validation, scheduling, events, the tool-result message, and — with a
// session store subscribed the way core/agentsession does it — encoding
// and appending every message to the session file, fsynced once per turn
// (sync-per-turn: appends unsynced, Flush at turn_end and agent_end, the
// default of core/agentsession) or after each append (sync-always).
//
// Shapes: "turn-per-call" makes every call its own model turn (a scripted
// stream per turn, no HTTP), so each call also carries a turn's overhead;
// "batch" makes all calls in one turn. Each operation is a run of
// benchCalls calls; the ns/call metric is the figure to read.
func BenchmarkToolCallOverhead(b *testing.B) {
	model := &ai.Model{ID: "m1", Provider: "mock", API: "mock-api", ContextWindow: 200000, MaxTokens: 1000}
	for _, store := range []string{"no-store", "sync-per-turn", "sync-always"} {
		for _, shape := range []string{"turn-per-call", "batch"} {
			b.Run(store+"/"+shape, func(b *testing.B) {
				var m *session.Manager
				switch store {
				case "sync-per-turn", "sync-always":
					policy := session.SyncAlways
					if store == "sync-per-turn" {
						policy = session.SyncOnFlush
					}
					var err error
					m, err = session.Create(session.Options{Cwd: "/work/project", Dir: b.TempDir(), Sync: policy})
					if err != nil {
						b.Fatal(err)
					}
					if err := m.EnsureOnDisk(); err != nil {
						b.Fatal(err)
					}
					defer m.Close()
				}
				ctx := context.Background()
				for b.Loop() {
					s := &benchStream{calls: benchCalls, perTurn: shape == "turn-per-call"}
					a := New(Options{Model: model, Stream: s.stream, Tools: []tool.Tool{noopTool{}}, ConvertToLLM: message.ToLLM})
					if m != nil {
						a.Subscribe(func(ev Event) {
							switch e := ev.(type) {
							case MessageEnd:
								if _, err := m.AppendMessage(e.Message); err != nil {
									b.Error(err) // may run off the benchmark's goroutine
								}
							case TurnEnd, AgentEnd:
								if err := m.Flush(); err != nil {
									b.Error(err)
								}
							}
						})
					}
					if err := a.Prompt(ctx, &ai.UserMessage{Content: ai.ContentList{ai.Text("go")}, Timestamp: 1}); err != nil {
						b.Fatal(err)
					}
					msgs := a.Messages()
					if last, ok := msgs[len(msgs)-1].(*ai.AssistantMessage); !ok || last.Text() != "done" || len(msgs) != wantMessages(s) {
						b.Fatalf("run ended with %d messages, last %T", len(msgs), msgs[len(msgs)-1])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchCalls), "ns/call")
			})
		}
	}
}

// wantMessages is the conversation length of a successful run: the
// prompt, the assistant messages, one result per call.
func wantMessages(s *benchStream) int {
	if s.perTurn {
		return 1 + s.calls*2 + 1
	}
	return 1 + 1 + s.calls + 1
}
