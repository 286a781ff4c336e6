package compaction

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// benchSession is a 10,000-entry coding session of about 11 MB of text:
// turns of a user message, an assistant message calling a tool, the tool's
// output (1–6 KB of source-like text) and an answer; every response
// reports usage near a 200k window.
func benchSession(b *testing.B, entries int) []*session.Entry {
	b.Helper()
	m := session.InMemory("/p")
	line := "\tif err := s.store.Append(ctx, entry); err != nil { return fmt.Errorf(\"append %s: %w\", entry.ID, err) }\n"
	for i := 0; len(m.Entries()) < entries; i++ {
		must := func(_ string, err error) {
			if err != nil {
				b.Fatal(err)
			}
		}
		must(m.AppendMessage(&ai.UserMessage{Content: ai.ContentList{ai.Text(fmt.Sprintf("Step %d: look at handler_%d.go and make the error paths consistent with the rest of the package.", i, i))}}))
		call := &ai.ToolCall{ID: fmt.Sprint("call_", i), Name: "read", Arguments: map[string]any{"path": fmt.Sprintf("internal/handler_%d.go", i)}}
		must(m.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{ai.Text("I will read the handler first to see how errors are returned there."), call}, StopReason: ai.StopReasonToolUse, Usage: ai.Usage{Input: 150000, Output: 40}}))
		must(m.AppendMessage(&ai.ToolResultMessage{ToolCallID: call.ID, ToolName: "read", Content: ai.ContentList{ai.Text(strings.Repeat(line, 10+i%60))}}))
		must(m.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{ai.Text("The handler wraps errors with the entry id; I changed the two places that did not, and the package now reports every failure the same way.")}, StopReason: ai.StopReasonStop, Usage: ai.Usage{Input: 151000, Output: 60}}))
	}
	return m.Path("")
}

// BenchmarkPrepareAndSummaryInput chooses the cut point of a 10,000-entry
// session and builds every summary request's input (the history and short
// summary prompts), with a model that answers at once. Cold: a new
// Counter each time (nothing counted before); warm: the session's
// Counter, as a running session has it.
func BenchmarkPrepareAndSummaryInput(b *testing.B) {
	path := benchSession(b, 10000)
	size := 0
	for _, e := range path {
		size += Size(e.Message)
	}
	instant := func(ctx context.Context, req SummaryRequest) (string, error) { return "summary", nil }
	s := Settings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000}
	run := func(b *testing.B, c func() *Counter) {
		b.SetBytes(int64(size))
		for b.Loop() {
			p, err := Prepare(path, s, c())
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Generate(context.Background(), p, instant, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("cold", func(b *testing.B) { run(b, func() *Counter { return NewCounter("claude-sonnet-4-5") }) })
	warm := NewCounter("claude-sonnet-4-5")
	b.Run("warm", func(b *testing.B) { run(b, func() *Counter { return warm }) })
}
