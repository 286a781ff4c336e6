package inbound

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzParseHead decodes arbitrary lines as a host's frame head and checks
// the decision: a head comes back only from a JSON object, with a type
// and an id that is nil or valid UTF-8 JSON (so the response echoing it
// is valid JSON); a refusal always says why; an object whose "type" is a
// non-empty string is never refused.
func FuzzParseHead(f *testing.F) {
	for _, s := range []string{
		`{"id":"1","type":"get_state"}`, `{"type":"set_thinking_level","level":"high","id":7}`,
		`{"type":"host_tool_result","id":"h1","toolCallId":"nope","result":{"content":[]}}`,
		`{"id":{"a":[1,2]},"type":"get_state"}`, `[1]`, `"x"`, `{}`, `{"type":1}`, `{"type":""}`,
		`{"type":"get_state"} trailing`, "{\"id\":\"\xff\",\"type\":\"get_state\"}", `{"TYPE":"get_state"}`,
		"  {\"type\":\"get_state\"}\r", `{"type":"a","type":"b"}`, `{"id":1e999,"type":"x"}`, ``, `nul`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		head, err := ParseHead(line)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: refused without a reason", line)
			}
			var probe struct {
				Type any `json:"type"`
			}
			if json.Unmarshal(line, &probe) == nil {
				if s, ok := probe.Type.(string); ok && s != "" {
					t.Fatalf("%q: an object with type %q refused: %v", line, s, err)
				}
			}
			return
		}
		trimmed := bytes.TrimSpace(line)
		if !json.Valid(line) || len(trimmed) == 0 || trimmed[0] != '{' {
			t.Fatalf("%q: accepted, but it is not a JSON object", line)
		}
		if head.Type == "" {
			t.Fatalf("%q: accepted without a type", line)
		}
		if head.ID != nil && (!json.Valid(head.ID) || !utf8.Valid(head.ID)) {
			t.Fatalf("%q: id %q cannot be echoed", line, head.ID)
		}
		if _, err := json.Marshal(struct {
			ID json.RawMessage `json:"id,omitempty"`
		}{head.ID}); err != nil {
			t.Fatalf("%q: echoing id %q: %v", line, head.ID, err)
		}
	})
}
