package llmtest

import (
	"context"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// benchTurn is a long reply: about 200 text deltas and a tool call whose
// arguments arrive in about 50 deltas.
var benchTurn = mockllm.Turn{
	Blocks: []mockllm.Block{
		mockllm.Text(strings.Repeat("streaming text ", 100)),
		mockllm.ToolCall("edit", `{"path":"core/ai/stream.go","old":"`+strings.Repeat("x", 150)+`","new":"`+strings.Repeat("y", 150)+`"}`),
	},
}

// Bench measures one full streamed response (request, SSE decoding, event
// emission and throttling, final message) per iteration against the mock.
func Bench(b *testing.B, p ai.Provider, model func(base string) *ai.Model) {
	srv := mockllm.New(b)
	m := model(srv.URL())
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		srv.Script(benchTurn)
		req := &ai.Request{Model: m, Messages: []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text("go")}}}}
		_, final := p.Stream(context.Background(), req).Collect()
		if final.StopReason != ai.StopReasonToolUse {
			b.Fatalf("stop %s: %s", final.StopReason, final.ErrorMessage)
		}
	}
}
