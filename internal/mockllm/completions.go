package mockllm

import "fmt"

// completionsStop renders a normalized stop reason as a Chat Completions
// finish_reason.
func completionsStop(t *Turn) string {
	if t.RawStop != "" {
		return t.RawStop
	}
	switch t.stop() {
	case StopLength:
		return "length"
	case StopToolUse:
		return "tool_calls"
	case StopRefusal:
		return "content_filter"
	}
	return "stop"
}

// playCompletions streams a turn as Chat Completions chunks: a role chunk,
// content / reasoning / tool_calls deltas, a finish_reason chunk, the usage
// chunk (empty choices) when the request set stream_options.include_usage
// and the turn has usage (not NoUsage), and "data: [DONE]".
func playCompletions(s *streamWriter, t *Turn, model string, index int, withUsage bool) {
	id := fmt.Sprintf("chatcmpl-mock-%d", index+1)
	created := 1700000000 + index
	chunk := func(choice map[string]any, content bool) {
		c := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created,
			"model": model, "system_fingerprint": "fp_mock",
			"choices": []any{choice},
		}
		if withUsage {
			c["usage"] = nil
		}
		if content {
			s.delta("", c)
		} else {
			s.event("", c)
		}
	}
	delta := func(d map[string]any) {
		chunk(map[string]any{"index": 0, "delta": d, "logprobs": nil, "finish_reason": nil}, true)
	}
	chunk(map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": "", "refusal": nil}, "logprobs": nil, "finish_reason": nil}, false)
	reasoningField := t.ReasoningField
	if reasoningField == "" {
		reasoningField = "reasoning_content"
	}
	toolIndex := 0
	for i, b := range t.Blocks {
		if b.Type == BlockRedactedThinking {
			continue // no equivalent in this format
		}
		switch b.Type {
		case BlockText:
			for _, p := range t.chunk(b.Text) {
				delta(map[string]any{"content": p})
			}
		case BlockThinking:
			for _, p := range t.chunk(b.Text) {
				delta(map[string]any{reasoningField: p})
			}
		case BlockToolCall:
			callID := b.ID
			if callID == "" {
				callID = fmt.Sprintf("call_mock_%d_%d", index+1, i)
			}
			chunk(map[string]any{"index": 0, "logprobs": nil, "finish_reason": nil, "delta": map[string]any{"tool_calls": []any{map[string]any{
				"index": toolIndex, "id": callID, "type": "function",
				"function": map[string]any{"name": b.Name, "arguments": ""},
			}}}}, false)
			for _, p := range t.chunk(b.Arguments) {
				delta(map[string]any{"tool_calls": []any{map[string]any{
					"index": toolIndex, "function": map[string]any{"arguments": p},
				}}})
			}
			toolIndex++
		}
	}
	if t.StreamError {
		msg := t.ErrorMessage
		if msg == "" {
			msg = "The server had an error while processing your request."
		}
		s.event("", map[string]any{"error": map[string]any{"message": msg, "type": "server_error", "param": nil, "code": nil}})
		return
	}
	chunk(map[string]any{"index": 0, "delta": map[string]any{}, "logprobs": nil, "finish_reason": completionsStop(t)}, false)
	if withUsage && !t.NoUsage {
		u := t.usage()
		s.event("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created,
			"model": model, "system_fingerprint": "fp_mock", "choices": []any{},
			"usage": map[string]any{
				"prompt_tokens":             u.Input + u.CacheRead,
				"completion_tokens":         u.Output,
				"total_tokens":              u.Input + u.CacheRead + u.Output,
				"prompt_tokens_details":     map[string]any{"cached_tokens": u.CacheRead},
				"completion_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
			},
		})
	}
	s.frame("", "[DONE]")
}
