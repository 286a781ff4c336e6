package openaicompletions

import (
	"bytes"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

// FuzzChunks feeds arbitrary chunk lines (one JSON chunk per line) to the
// chunk state machine: it must never panic, and the events it produces
// must keep the streaming contract.
func FuzzChunks(f *testing.F) {
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"content":"hi"}}]}` + "\n" + `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`))
	f.Add([]byte(`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"x","arguments":"{\"a\":"}}]}}]}` + "\n" +
		`{"choices":[{"delta":{"reasoning_content":"hm","tool_calls":[{"index":1,"function":{"arguments":"1}"}}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		model := &ai.Model{ID: "m", API: ai.APIOpenAICompletions}
		em, stream := ai.NewEmitter(model)
		em.Start()
		st := &state{em: em, tools: map[int]int{}}
		var failed error
		for _, line := range bytes.Split(data, []byte("\n")) {
			if err := st.chunk(line); err != nil {
				failed = err
				break
			}
		}
		if failed != nil {
			em.Fail(nil, model, failed)
		} else {
			em.EndOpenBlocks()
			st.applyStop()
			em.Done(model)
		}
		evs, final := stream.Collect()
		llmtest.CheckInvariants(t, evs, final)
	})
}
