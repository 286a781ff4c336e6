package secrets

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/config"
)

// fuzzSecret says whether the fuzzer's secret is one the obfuscator is
// meant for: at least 8 characters (as the environment's), valid UTF-8,
// no placeholder delimiter.
func fuzzSecret(s string) bool {
	return utf8.RuneCountInString(s) >= 8 && utf8.ValidString(s) && !strings.Contains(s, "#")
}

// FuzzObfuscateRestore: in obfuscate mode, restoring what Obfuscate made
// gives back the text exactly (text without '#', which placeholders use),
// and the result holds neither the plain secret nor a match of the
// pattern.
func FuzzObfuscateRestore(f *testing.F) {
	f.Add("token abcdefgh12 and AKIAABCDEFGHIJKLMNOP", "abcdefgh12")
	f.Add(`{"password":"pa\"ss\\word"}`, `pa"ss\word`)
	f.Add("aaaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaa")
	f.Add("data:text/plain;base64,xx s3cr3tvalue", "s3cr3tvalue")
	f.Fuzz(func(t *testing.T, text, secret string) {
		if !fuzzSecret(secret) || strings.Contains(text, "#") || !utf8.ValidString(text) {
			return
		}
		o, errs := New([]config.SecretEntry{
			{Type: config.SecretPlain, Content: secret},
			{Type: config.SecretRegex, Content: `AKIA[0-9A-Z]{16}`},
		})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		out := o.Obfuscate(text)
		if strings.Contains(out, secret) {
			t.Fatalf("secret left in %q", out)
		}
		if m := akia.FindString(out); m != "" {
			t.Fatalf("pattern match %q left in %q", m, out)
		}
		if back := o.Restore(out); back != text {
			t.Fatalf("round trip: %q -> %q -> %q", text, out, back)
		}
	})
}

var akia = regexp.MustCompile(`AKIA[0-9A-Z]{16}`)

// FuzzNoSecretInPayload: whatever the text, wherever it sits in a request
// body of any provider shape (system prompt, user blocks cut at any
// point, tool results, tool call arguments as objects and as JSON
// strings, thinking, tool names and schemas), no decoded string of the
// obfuscated body, nor the joined text of adjacent text blocks, holds the
// secret; image bytes and signatures come through unchanged.
func FuzzNoSecretInPayload(f *testing.F) {
	f.Add("before abcdefgh12 after", "abcdefgh12", 9)
	f.Add("data:text/plain;base64,xxabcdefgh12", "abcdefgh12", 0)
	f.Add(`pa"ss\word<1>`, `pa"ss\word<1>`, 3)
	f.Fuzz(func(t *testing.T, text, secret string, cut int) {
		if !fuzzSecret(secret) || !utf8.ValidString(text) {
			return
		}
		o, errs := New([]config.SecretEntry{{Type: config.SecretPlain, Content: secret}})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		full := text + " " + secret + " " + text
		if cut < 0 {
			cut = -cut
		}
		cut %= len(full) + 1
		for !utf8.ValidString(full[:cut]) {
			cut--
		}
		a, b := full[:cut], full[cut:]
		args, _ := json.Marshal(map[string]string{"command": full})
		img := map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": pngB64}}
		bodies := []any{
			map[string]any{ // Anthropic
				"system": []any{map[string]any{"type": "text", "text": full}},
				"tools":  []any{map[string]any{"name": secret, "description": full, "input_schema": map[string]any{"properties": map[string]any{"signature": map[string]any{"description": full}}}}},
				"messages": []any{
					map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": a}, map[string]any{"type": "text", "text": b}, img}},
					map[string]any{"role": "assistant", "content": []any{
						map[string]any{"type": "thinking", "thinking": full, "signature": "c2ln"},
						map[string]any{"type": "tool_use", "id": "t", "name": "bash", "input": map[string]any{"command": full, "data": full, "mimeType": "image/png"}}}},
					map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": []any{
						map[string]any{"type": "text", "text": a}, map[string]any{"type": "text", "text": b}}}}},
				},
			},
			map[string]any{ // OpenAI chat completions
				"messages": []any{
					map[string]any{"role": "system", "content": full},
					map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": a}, map[string]any{"type": "text", "text": b},
						map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64," + pngB64}}}},
					map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "c", "type": "function", "function": map[string]any{"name": "bash", "arguments": string(args)}}}},
					map[string]any{"role": "tool", "tool_call_id": "c", "content": "data:text/plain;base64," + full},
				},
			},
			map[string]any{ // OpenAI responses
				"instructions": full,
				"input": []any{
					map[string]any{"role": "user", "content": []any{map[string]any{"type": "input_text", "text": a}, map[string]any{"type": "input_text", "text": b},
						map[string]any{"type": "input_image", "detail": "auto", "image_url": "data:image/png;base64," + pngB64}}},
					map[string]any{"type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": full}}, "encrypted_content": "ZW5j"},
					map[string]any{"type": "function_call", "call_id": "c", "name": "bash", "arguments": string(args)},
					map[string]any{"type": "function_call_output", "call_id": "c", "output": full},
				},
			},
			map[string]any{ // Gemini
				"systemInstruction": map[string]any{"parts": []any{map[string]any{"text": full}}},
				"contents": []any{
					map[string]any{"role": "user", "parts": []any{map[string]any{"text": a}, map[string]any{"text": b}, map[string]any{"inlineData": map[string]any{"mimeType": "image/png", "data": pngB64}}}},
					map[string]any{"role": "model", "parts": []any{map[string]any{"text": full, "thought": true, "thoughtSignature": "c2ln"},
						map[string]any{"functionCall": map[string]any{"name": "bash", "args": map[string]any{"command": full}}}}},
					map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{"name": "bash", "response": map[string]any{"output": full}}}}},
				},
			},
		}
		for i, body := range bodies {
			doc, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			out := o.ObfuscateJSON(doc)
			var v any
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatalf("body %d: invalid JSON after obfuscation: %v", i, err)
			}
			checkNoSecret(t, v, secret, o, i)
			if !strings.Contains(string(out), pngB64) {
				t.Fatalf("body %d: the image bytes changed: %s", i, out)
			}
		}
	})
}

// checkNoSecret fails when a decoded string, or the joined text of
// adjacent text blocks, holds the secret (or its JSON-escaped form inside
// a string that is JSON).
func checkNoSecret(t *testing.T, v any, secret string, o *Obfuscator, body int) {
	t.Helper()
	switch x := v.(type) {
	case string:
		if strings.Contains(x, secret) && !strings.Contains(pngB64, secret) {
			t.Fatalf("body %d: the secret was sent in %q", body, x)
		}
		var inner any
		if json.Unmarshal([]byte(x), &inner) == nil {
			checkNoSecret(t, inner, secret, o, body)
		}
	case map[string]any:
		for k, e := range x {
			checkNoSecret(t, k, secret, o, body)
			checkNoSecret(t, e, secret, o, body)
		}
	case []any:
		var joined strings.Builder
		for _, e := range x {
			if s, ok := textBlock(e); ok {
				joined.WriteString(s)
			} else {
				joined.WriteString("\x00")
			}
			checkNoSecret(t, e, secret, o, body)
		}
		if strings.Contains(joined.String(), secret) {
			t.Fatalf("body %d: the secret was sent across blocks: %q", body, joined.String())
		}
	}
}
