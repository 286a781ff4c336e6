package anthropic

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// FuzzDecode feeds arbitrary event streams to the decoder: it must not
// panic, must terminate, and the emitted message must satisfy the block
// bookkeeping (tool calls end without partial JSON once finished).
func FuzzDecode(f *testing.F) {
	// testdata/fuzz/FuzzDecode holds the mock server's recorded Anthropic
	// streams (internal/mockllm/testdata/wire) as seeds.
	f.Add("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":\"}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	f.Add("data: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"x\"}}\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		em, stream := ai.NewEmitter(&ai.Model{ID: "m"})
		err := decode(context.Background(), io.NopCloser(strings.NewReader(s)), em)
		if err != nil {
			em.Fail(nil, nil, err)
		} else {
			em.Done(nil)
		}
		_, final := stream.Collect()
		if final == nil {
			t.Fatal("no final message")
		}
		for _, b := range final.Content {
			if tc, ok := b.(*ai.ToolCall); ok && tc.PartialJSON != "" {
				t.Fatalf("partial JSON left in %+v", tc)
			}
		}
	})
}
