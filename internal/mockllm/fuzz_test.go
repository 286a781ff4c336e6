package mockllm

import (
	"strings"
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

// FuzzCodexToken checks the Codex double's token reading: any bearer value
// yields an account or "", never a panic, and an account only from a
// three-segment token.
func FuzzCodexToken(f *testing.F) {
	f.Add("eyJhbGciOiJSUzI1NiJ9.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdF8xIn19.c2ln")
	f.Add("a.b.c")
	f.Add("sk-proj-abc")
	f.Fuzz(func(t *testing.T, token string) {
		if jwtAccount(token) != "" && strings.Count(token, ".") != 2 {
			t.Fatalf("account read from %q", token)
		}
	})
}
