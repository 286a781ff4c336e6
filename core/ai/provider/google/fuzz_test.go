package google

import (
	"bytes"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

// FuzzChunks feeds arbitrary chunks (one JSON GenerateContentResponse per
// line) to the Gemini state machine: it must never panic, and the events it
// produces must keep the streaming contract.
func FuzzChunks(f *testing.F) {
	f.Add([]byte(`{"candidates":[{"content":{"parts":[{"text":"hm","thought":true},{"text":"hi","thoughtSignature":"s"}]}}]}` + "\n" +
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"x","args":{"a":1}}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3}}`))
	f.Add([]byte(`{"promptFeedback":{"blockReason":"SAFETY"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		model := &ai.Model{ID: "m", API: ai.APIGoogleGenerativeAI}
		em, stream := ai.NewEmitter(model)
		em.Start()
		st := &state{em: em, reqID: "r"}
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
			st.closeOpen()
			st.applyStop()
			em.Done(model)
		}
		evs, final := stream.Collect()
		llmtest.CheckInvariants(t, evs, final)
	})
}
