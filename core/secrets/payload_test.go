package secrets

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

// A real PNG's first bytes, base64: what an image block carries.
const pngB64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// strings returns every string of a decoded JSON document (keys too).
func allStrings(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case map[string]any:
		for k, e := range x {
			*out = append(*out, k)
			allStrings(e, out)
		}
	case []any:
		for _, e := range x {
			allStrings(e, out)
		}
	}
}

// TestDataURLTextIsObfuscated: text that merely starts like a data: URL
// (a tool output, a user message) is text, and its secrets are hidden in
// every provider's shape. It used to be skipped whole.
func TestDataURLTextIsObfuscated(t *testing.T) {
	const secret = "s3cr3t-value-42"
	o := newObf(t, config.SecretEntry{Type: config.SecretPlain, Content: secret})
	text := "data:text/plain;base64,xx then the key " + secret
	for name, doc := range map[string]any{
		"anthropic tool result": map[string]any{"messages": []any{map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": []any{map[string]any{"type": "text", "text": text}}}}}}},
		"openai responses output": map[string]any{"input": []any{map[string]any{"type": "function_call_output", "call_id": "c", "output": text}}},
		"openai chat tool":        map[string]any{"messages": []any{map[string]any{"role": "tool", "content": text}}},
		"google function":         map[string]any{"contents": []any{map[string]any{"parts": []any{map[string]any{"functionResponse": map[string]any{"name": "bash", "response": map[string]any{"output": text}}}}}}},
		"bare string":             text,
		"image url that is text":  map[string]any{"type": "input_image", "image_url": "data:image/png;base64,not base64 " + secret},
		"chat image url text":     map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64," + secret}},
	} {
		in, _ := json.Marshal(doc)
		out := o.ObfuscateJSON(in)
		if strings.Contains(string(out), secret) {
			t.Errorf("%s: the secret was sent: %s", name, out)
		}
	}
}

// TestOnlyImagePayloadsAreSkipped: the bytes of real image blocks and the
// opaque reasoning signatures are left alone (a pattern must not corrupt
// them), but the same keys anywhere else — tool schemas, tool call
// inputs, objects that only look like image blocks — are obfuscated.
func TestOnlyImagePayloadsAreSkipped(t *testing.T) {
	// The pattern matches inside the PNG's base64 and inside the secret.
	o := newObf(t,
		config.SecretEntry{Type: config.SecretRegex, Content: `AAAA[A-Za-z0-9]{4}`},
		config.SecretEntry{Type: config.SecretPlain, Content: "hunter2hunter2"},
	)
	keep := []string{
		// Anthropic image block (in a message and in a tool result).
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + pngB64 + `"}}`,
		// OpenAI chat image part.
		`{"type":"image_url","image_url":{"url":"data:image/png;base64,` + pngB64 + `"}}`,
		// OpenAI responses input image.
		`{"type":"input_image","detail":"auto","image_url":"data:image/png;base64,` + pngB64 + `"}`,
		// Gemini inline data.
		`{"inlineData":{"mimeType":"image/png","data":"` + pngB64 + `"}}`,
		// Reasoning replay: Anthropic signature and redacted thinking,
		// Gemini thought signature, OpenAI encrypted reasoning.
		`{"type":"thinking","thinking":"plan","signature":"AAAAxyzw"}`,
		`{"type":"redacted_thinking","data":"AAAAxyzw"}`,
		`{"text":"plan","thought":true,"thoughtSignature":"AAAAxyzw"}`,
		`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"AAAAxyzw"}`,
	}
	for _, doc := range keep {
		if got := o.ObfuscateJSON([]byte(doc)); string(got) != doc {
			t.Errorf("opaque data was rewritten:\n in  %s\n out %s", doc, got)
		}
	}
	leak := []string{
		// A tool's schema with a property named like an opaque key.
		`{"tools":[{"name":"sign","input_schema":{"type":"object","properties":{"signature":{"type":"string","description":"use hunter2hunter2"}}}}]}`,
		// A tool call's input shaped like an image source or a signature.
		`{"type":"tool_use","id":"t","name":"write","input":{"data":"hunter2hunter2","mimeType":"text/plain"}}`,
		`{"type":"tool_use","id":"t","name":"x","input":{"signature":"hunter2hunter2"}}`,
		`{"type":"tool_use","id":"t","name":"x","input":{"type":"redacted_thinking","data":"hunter2hunter2","more":1}}`,
		// An image source whose data is not base64, or whose type is not an image.
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"hunter2hunter2 !"}}`,
		`{"type":"document","source":{"type":"base64","media_type":"text/plain","data":"hunter2hunter2"}}`,
		`{"inlineData":{"mimeType":"text/plain","data":"hunter2hunter2"}}`,
		// A data: URL outside an image part.
		`{"type":"text","text":"data:image/png;base64,hunter2hunter2"}`,
	}
	for _, doc := range leak {
		got := string(o.ObfuscateJSON([]byte(doc)))
		if strings.Contains(got, "hunter2hunter2") {
			t.Errorf("a secret outside an image payload was sent:\n in  %s\n out %s", doc, got)
		}
	}
}

// TestSecretSplitOverBlocks: a secret cut in two by adjacent text blocks
// (an MCP tool's content items, a user message's parts) reaches the model
// as one string; it must be hidden as if it were written whole.
func TestSecretSplitOverBlocks(t *testing.T) {
	const secret = "sk-live-0123456789"
	o := newObf(t,
		config.SecretEntry{Type: config.SecretPlain, Content: secret},
		config.SecretEntry{Type: config.SecretRegex, Content: `AKIA[0-9A-Z]{16}`},
	)
	ph := o.Obfuscate(secret)
	for name, doc := range map[string]string{
		"anthropic": `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[` +
			`{"type":"text","text":"key sk-live-01234"},{"type":"text","text":"56789 and AKIA0123"},{"type":"text","text":"456789ABCDEF end"},` +
			`{"type":"text","text":"separate","cache_control":{"type":"ephemeral"}}]}]}]}`,
		"openai responses": `{"input":[{"role":"user","content":[{"type":"input_text","text":"key sk-live-01234"},{"type":"input_text","text":"56789 and AKIA0123"},{"type":"input_text","text":"456789ABCDEF end"}]}]}`,
		"google":           `{"contents":[{"role":"user","parts":[{"text":"key sk-live-01234"},{"text":"56789 and AKIA0123"},{"text":"456789ABCDEF end"}]}]}`,
	} {
		out := o.ObfuscateJSON([]byte(doc))
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("%s: invalid JSON %s", name, out)
		}
		var all []string
		allStrings(v, &all)
		joined := strings.Join(all, "")
		for _, part := range []string{"sk-live", "56789", "AKIA0123", "456789ABCDEF"} {
			if strings.Contains(joined, part) {
				t.Errorf("%s: part %q of a split secret was sent: %s", name, part, out)
			}
		}
		if !strings.Contains(joined, "key "+ph+" and ") || !strings.Contains(joined, " end") {
			t.Errorf("%s: the merged text is wrong: %s", name, out)
		}
		if name == "anthropic" && (!strings.Contains(string(out), `"separate"`) || !strings.Contains(string(out), "ephemeral")) {
			t.Errorf("%s: an unrelated block or its cache marker was lost: %s", name, out)
		}
	}
	// Blocks that do not cut a secret are left as they are.
	doc := `{"content":[{"type":"text","text":"sk-live-0"},{"type":"text","text":"nothing"}]}`
	if got := o.ObfuscateJSON([]byte(doc)); string(got) != doc {
		t.Errorf("unsplit blocks changed: %s", got)
	}
}

// TestEscapedSecretIsHidden: a plain secret with characters JSON escapes
// (a quote, a backslash) is hidden where it appears escaped inside a
// string that is itself JSON, as OpenAI's tool call arguments are.
func TestEscapedSecretIsHidden(t *testing.T) {
	const secret = `pa"ss\word<1>`
	o := newObf(t, config.SecretEntry{Type: config.SecretPlain, Content: secret})
	args, _ := json.Marshal(map[string]string{"command": "login " + secret})
	doc, _ := json.Marshal(map[string]any{"messages": []any{map[string]any{"role": "assistant", "tool_calls": []any{
		map[string]any{"id": "c", "type": "function", "function": map[string]any{"name": "bash", "arguments": string(args)}}}}}})
	out := o.ObfuscateJSON(doc)
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	var all []string
	allStrings(v, &all)
	for _, s := range all {
		var inner map[string]string
		if json.Unmarshal([]byte(s), &inner) == nil && strings.Contains(inner["command"], secret) {
			t.Fatalf("the escaped secret was sent: %s", out)
		}
	}
	// The placeholder gives back the text as it was written (escaped), so
	// a tool call the model copies it into restores to the same bytes.
	var back struct {
		Messages []struct {
			ToolCalls []struct {
				Function struct{ Arguments string } `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if got := o.Restore(back.Messages[0].ToolCalls[0].Function.Arguments); got != string(args) {
		t.Errorf("restore:\n got %s\nwant %s", got, args)
	}
}
