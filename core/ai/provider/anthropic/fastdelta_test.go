package anthropic

import (
	"encoding/json"
	"testing"
)

// FuzzFastDeltaMatchesUnmarshal holds the hand-written delta reader equal
// to the general decoder: whenever fastDelta accepts an event, json.Unmarshal
// reads the same type, index and text from it.
func FuzzFastDeltaMatchesUnmarshal(f *testing.F) {
	for _, s := range []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`,
		`{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"a\nb\t\"c\\ d\/e"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"hm\r\b\f"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"caf\u00e9"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"naïve 日本"}}`,
		`{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}} `,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{"}}`,
		"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\xff\"}}",
		"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\x01\"}}",
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x\"}}`,
		`{"delta":{"text":"a\nb","type":"text_delta"},"index":2,"type":"content_block_delta"}`,
		`{"delta":{"thinking":"hm","type":"thinking_delta"},"index":0,"type":"content_block_delta"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		index, text, thinking, ok := fastDelta(data)
		if !ok {
			return
		}
		var ev wireEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			t.Fatalf("fast path accepted %q, the decoder refuses it: %v", data, err)
		}
		if ev.Type != "content_block_delta" || ev.Delta == nil || ev.Index != index {
			t.Fatalf("%q: fast path read index %d, the decoder %+v", data, index, ev)
		}
		want, wantType := ev.Delta.Text, "text_delta"
		if thinking {
			want, wantType = ev.Delta.Thinking, "thinking_delta"
		}
		if ev.Delta.Type != wantType || text != want {
			t.Fatalf("%q: fast path read %q (thinking %v), the decoder %q of %s", data, text, thinking, want, ev.Delta.Type)
		}
	})
}

// TestFastDeltaTakesTheUsualShapes checks that the common spellings take
// the fast path at all (the fuzz target alone would pass if it never did).
func TestFastDeltaTakesTheUsualShapes(t *testing.T) {
	for _, c := range []struct {
		data, text string
		thinking   bool
	}{
		{`{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"Hello"}}`, "Hello", false},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\nb \"q\""}}`, "a\nb \"q\"", false},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"日本"}}`, "日本", true},
		{`{"delta":{"text":"a\nb","type":"text_delta"},"index":2,"type":"content_block_delta"}`, "a\nb", false},
		{`{"delta":{"thinking":"x","type":"thinking_delta"},"index":0,"type":"content_block_delta"}`, "x", true},
	} {
		_, text, thinking, ok := fastDelta([]byte(c.data))
		if !ok || text != c.text || thinking != c.thinking {
			t.Errorf("%s: got %q %v %v", c.data, text, thinking, ok)
		}
	}
	if _, _, _, ok := fastDelta([]byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"caf\u00e9"}}`)); ok {
		t.Error("a \\u escape took the fast path")
	}
}
