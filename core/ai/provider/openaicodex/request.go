package openaicodex

import (
	"strings"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/openairesponses"
)

// orphanOutputLimit caps the text of a tool output replayed as assistant
// text because its call is missing from the input.
const orphanOutputLimit = 16000

// buildPayload renders a request as the ChatGPT backend's Responses body
// (see the package doc for how it differs from the public API's).
func buildPayload(req *ai.Request) map[string]any {
	m := req.Model
	noSystem := *req
	noSystem.SystemPrompt = "" // sent as instructions
	p := map[string]any{
		"model":   m.ID,
		"input":   backendInput(openairesponses.ConvertInput(&noSystem), toolNames(req)),
		"stream":  true,
		"store":   false,
		"text":    map[string]any{"verbosity": "low"},
		"include": []string{"reasoning.encrypted_content"},
	}
	if req.SystemPrompt != "" {
		p["instructions"] = req.SystemPrompt
	}
	if key := openairesponses.PromptCacheKey(req.SessionID); key != "" {
		p["prompt_cache_key"] = key
	}
	if req.ServiceTier != "" {
		p["service_tier"] = req.ServiceTier
	}
	if req.Temperature != nil {
		p["temperature"] = *req.Temperature
	}
	if len(req.Tools) > 0 {
		p["tools"] = openairesponses.Tools(req.Tools)
		if tc := openairesponses.ToolChoice(req.ToolChoice); tc != nil {
			p["tool_choice"] = tc
		}
	}
	if m.Reasoning && req.Thinking != "" && req.Thinking != ai.ThinkingOff {
		p["reasoning"] = map[string]any{"effort": string(req.Thinking), "summary": "auto"}
	}
	return p
}

// backendInput adapts Responses input items to a backend that stores
// nothing: item ids and item references are dropped (they would name
// items the backend never kept), and a function_call_output whose call is
// not in the input becomes assistant text (the backend refuses it).
func backendInput(items []any, names map[string]string) []any {
	calls := map[string]bool{}
	for _, it := range items {
		if m, ok := it.(map[string]any); ok && m["type"] == "function_call" {
			if id, ok := m["call_id"].(string); ok {
				calls[id] = true
			}
		}
	}
	out := make([]any, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			out = append(out, it)
			continue
		}
		if m["type"] == "item_reference" {
			continue
		}
		if id, _ := m["call_id"].(string); m["type"] == "function_call_output" && !calls[id] {
			out = append(out, orphanOutput(id, names[id], m["output"]))
			continue
		}
		if _, has := m["id"]; has {
			c := make(map[string]any, len(m))
			for k, v := range m {
				if k != "id" {
					c[k] = v
				}
			}
			m = c
		}
		out = append(out, m)
	}
	return out
}

// orphanOutput renders a tool output without its call as assistant text.
func orphanOutput(callID, name string, output any) map[string]any {
	text, _ := output.(string)
	if len(text) > orphanOutputLimit {
		cut := orphanOutputLimit
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "\n…(truncated)"
	}
	if name == "" {
		name = "tool"
	}
	return map[string]any{
		"type": "message", "role": "assistant",
		"content": "(output of an earlier " + name + " call, call_id " + callID + ")\n" + text,
	}
}

// toolNames maps the call ids of the conversation's tool results to their
// tool names.
func toolNames(req *ai.Request) map[string]string {
	out := map[string]string{}
	for _, msg := range req.Messages {
		if tr, ok := msg.(*ai.ToolResultMessage); ok {
			id, _, _ := strings.Cut(tr.ToolCallID, "|")
			out[id] = tr.ToolName
		}
	}
	return out
}
