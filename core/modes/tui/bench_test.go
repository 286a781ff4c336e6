package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// benchModel is a model over a session holding n messages (a user
// message, an answer with a tool call, its result, an answer; repeated).
func benchModel(b *testing.B, n int) *model {
	b.Helper()
	dir := b.TempDir()
	st, err := session.Create(session.Options{Cwd: dir, Dir: filepath.Join(dir, "sessions")})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i += 4 {
		st.AppendMessage(&ai.UserMessage{Content: ai.ContentList{ai.Text(fmt.Sprintf("step %d: look at handler_%d.go", i, i))}})
		call := &ai.ToolCall{ID: fmt.Sprint("c", i), Name: "read", Arguments: map[string]any{"path": fmt.Sprintf("handler_%d.go", i)}}
		st.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{ai.Text("Reading it."), call}, StopReason: ai.StopReasonToolUse})
		st.AppendMessage(&ai.ToolResultMessage{ToolCallID: call.ID, ToolName: "read", Content: ai.ContentList{ai.Text(strings.Repeat("func f() {}\n", 30))}})
		st.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{ai.Text("The handler returns its errors **wrapped**; nothing to change.")}, StopReason: ai.StopReasonStop})
	}
	s, err := agentsession.New(context.Background(), agentsession.Options{Cwd: dir, Store: st, NoTitle: true, Config: nil})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	m := newModel(context.Background(), s, Options{Cwd: dir})
	m.width, m.height, m.r.width = 120, 40, 120
	m.ed.setWidth(120)
	m.Init()
	return m
}

// BenchmarkKeystroke is one typed character, from the key press to the
// frame (Update then View), with a 5,000-message conversation loaded.
// The conversation lives in the terminal's scrollback, so its length
// does not enter the cost.
func BenchmarkKeystroke(b *testing.B) {
	m := benchModel(b, 5000)
	keys := []tea.KeyPressMsg{{Code: 'a', Text: "a"}, {Code: tea.KeyBackspace}}
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		_ = m.View()
		i++
	}
}

// BenchmarkStreamDelta is one streamed delta of 8 characters, Update then
// View, when the answer already holds 1 KB, 24 KB and 100 KB: paragraphs
// are rendered once when complete and the tail is wrapped incrementally,
// so the cost per delta must not grow with the answer. "paragraphs" is
// Markdown in short paragraphs; "one-paragraph" a single paragraph that
// never ends (the tail holds the whole answer: the worst case).
func BenchmarkStreamDelta(b *testing.B) {
	para := strings.Repeat("The parser keeps **state** in `p.pos` and reports errors with their offset. ", 4) + "\n\n"
	for _, shape := range []struct{ name, unit string }{
		{"paragraphs", para},
		{"one-paragraph", "The parser keeps state in p.pos and reports errors with their offset. "},
	} {
		for _, size := range []int{1 << 10, 24 << 10, 100 << 10} {
			b.Run(fmt.Sprintf("%s/at-%dKB", shape.name, size>>10), func(b *testing.B) {
				m := benchModel(b, 4)
				// The answer grows by slicing one long text: no copying in
				// the benchmark's own loop. Run with -benchtime=2000x so that
				// the answer stays near its size (16 KB more at the end).
				full := strings.Repeat(shape.unit, (size+8*20000)/len(shape.unit)+1)
				n := size
				msg := &ai.AssistantMessage{Content: ai.ContentList{&ai.TextContent{Text: full[:n]}}}
				m.onEvent(agent.MessageStart{Message: msg})
				m.onEvent(agent.MessageUpdate{Message: msg})
				_ = m.View()
				for b.Loop() {
					n = min(n+8, len(full))
					msg.Content[0].(*ai.TextContent).Text = full[:n]
					m.Update(eventMsg{agent.MessageUpdate{Message: msg}})
					_ = m.View()
				}
			})
		}
	}
}
