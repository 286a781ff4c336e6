package geminicli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/google"
	"github.com/gopi-agent/gopi/internal/mockllm/llmtest"
)

// FuzzCodeAssistChunks feeds arbitrary SSE data lines through the envelope
// and the Gemini decoder: no panic, and the events keep the contract.
func FuzzCodeAssistChunks(f *testing.F) {
	f.Add([]byte(`{"response":{"candidates":[{"content":{"parts":[{"text":"hm","thought":true},{"text":"hi"}]}}]},"traceId":"t"}` + "\n" +
		`{"response":{"candidates":[{"content":{"parts":[{"functionCall":{"name":"x","args":{}}}]},"finishReason":"STOP"}]}}`))
	f.Add([]byte(`{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}`))
	f.Add([]byte(`{"traceId":"only"}` + "\n" + `{"response":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		model := &ai.Model{ID: "m", API: ai.APIGoogleGeminiCLI}
		em, stream := ai.NewEmitter(model)
		dec := google.NewEnvelopeDecoder(em, "r")
		var failed error
		for _, line := range bytes.Split(data, []byte("\n")) {
			if err := dec.Chunk(line); err != nil {
				failed = err
				break
			}
		}
		if failed == nil {
			failed = dec.Finish()
		}
		if failed != nil {
			em.Fail(nil, model, failed)
		} else {
			em.Done(model)
		}
		evs, final := stream.Collect()
		llmtest.CheckInvariants(t, evs, final)
	})
}

// FuzzParseCredentials: any key either parses to a token and a project or
// fails with a message that does not echo the key.
func FuzzParseCredentials(f *testing.F) {
	f.Add(testKey)
	f.Add(`{"token":"t","project_id":"p","expires":1767225600}`)
	f.Add(`{"token":"t","projectId":"p","expiresAt":1e300}`)
	f.Fuzz(func(t *testing.T, key string) {
		c, err := ParseCredentials(key, "google-gemini-cli")
		if err != nil {
			if len(key) > 8 && bytes.Contains([]byte(err.Error()), []byte(key)) {
				t.Errorf("error echoes the key: %v", err)
			}
			return
		}
		if c.Token == "" || c.ProjectID == "" {
			t.Errorf("accepted %q without token or project", key)
		}
	})
}

// FuzzRetryHint: any error body yields a delay between 0 and maxHint.
func FuzzRetryHint(f *testing.F) {
	f.Add([]byte("Your quota will reset after 18h31m10s."), "1700000030", "7")
	f.Add([]byte(`{"error":{"details":[{"retryDelay":"34.5s"}]}}`), "", "")
	f.Add([]byte("Please retry in 250ms"), "x", "-1")
	f.Fuzz(func(t *testing.T, body []byte, reset, after string) {
		h := http.Header{}
		h.Set("x-ratelimit-reset", reset)
		h.Set("x-ratelimit-reset-after", after)
		if d := retryHint(h, body, time.Unix(1_700_000_000, 0)); d < 0 || d > maxHint {
			t.Errorf("hint %v out of range", d)
		}
	})
}

// FuzzSanitizeSchema: any schema becomes JSON that, sanitized again, stays
// the same, and the Claude form holds no union.
func FuzzSanitizeSchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"anyOf":[{"const":1},{"const":"x"}]},"b":{"type":["null","integer"]}}}`))
	f.Add([]byte(`{"oneOf":[{"type":"string"},{"type":"null"}],"const":null}`))
	f.Add([]byte(`[{"$ref":"#"}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		once, err := json.Marshal(sanitizeSchema(raw))
		if err != nil {
			t.Fatalf("sanitized schema does not marshal: %v", err)
		}
		twice, _ := json.Marshal(sanitizeSchema(once))
		if !bytes.Equal(once, twice) {
			t.Errorf("not stable:\n%s\n%s", once, twice)
		}
		if hasUnion(claudeSchema(raw), 0) {
			t.Errorf("Claude schema keeps a union: %s", raw)
		}
	})
}
