package mockllm

import (
	"testing"
)

// FuzzParseScript checks that any input either parses into turns that
// validate, or fails with an error — never a panic.
func FuzzParseScript(f *testing.F) {
	f.Add([]byte(`{"turns":[{"blocks":[{"type":"text","text":"hi"}]}]}`))
	f.Add([]byte(`{"turns":[{"blocks":[{"type":"toolCall","name":"x","arguments":{"a":[1,{"b":null}]}}],"chunkDelay":"1ms"}]}`))
	f.Add([]byte(`{"turns":[{"status":429,"retryAfter":"1"},{"streamError":true,"disconnectAfter":2}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		turns, err := ParseScript(data)
		if err != nil {
			return
		}
		for i := range turns {
			if err := turns[i].Validate(); err != nil {
				t.Fatalf("parsed turn %d does not validate: %v", i, err)
			}
		}
	})
}
