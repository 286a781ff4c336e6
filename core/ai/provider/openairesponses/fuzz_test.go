package openairesponses

import (
	"bytes"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

// FuzzEvents feeds arbitrary event payloads (one JSON event per line) to the
// Responses state machine: it must never panic, and the events it produces
// must keep the streaming contract.
func FuzzEvents(f *testing.F) {
	f.Add([]byte(`{"type":"response.output_item.added","item":{"type":"message","id":"m1"}}` + "\n" +
		`{"type":"response.output_text.delta","item_id":"m1","delta":"hi"}` + "\n" +
		`{"type":"response.completed","response":{"status":"completed"}}`))
	f.Add([]byte(`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc","call_id":"c","name":"x"}}` + "\n" +
		`{"type":"response.function_call_arguments.delta","item_id":"fc","delta":"{\"a\":"}` + "\n" +
		`{"type":"response.output_item.done","item":{"type":"function_call","id":"fc","arguments":"{\"a\":1}"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		model := &ai.Model{ID: "m", API: ai.APIOpenAIResponses}
		em, stream := ai.NewEmitter(model)
		em.Start()
		st := NewDecoder(em)
		var failed error
		for _, line := range bytes.Split(data, []byte("\n")) {
			if err := st.Event(line); err != nil {
				failed = err
				break
			}
		}
		if failed != nil {
			em.Fail(nil, model, failed)
		} else {
			st.finish(nil)
			em.Done(model)
		}
		evs, final := stream.Collect()
		llmtest.CheckInvariants(t, evs, final)
	})
}
