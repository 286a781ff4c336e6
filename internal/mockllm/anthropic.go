package mockllm

import "fmt"

// anthropicStop renders a normalized stop reason as Anthropic's stop_reason.
func anthropicStop(t *Turn) string {
	if t.RawStop != "" {
		return t.RawStop
	}
	switch t.stop() {
	case StopLength:
		return "max_tokens"
	case StopToolUse:
		return "tool_use"
	case StopRefusal:
		return "refusal"
	}
	return "end_turn"
}

// playAnthropic streams a turn as Messages API server-sent events:
// message_start, ping, per block content_block_start / _delta… / _stop,
// then message_delta (stop_reason, usage) and message_stop. With NoUsage
// both usage objects are left out.
func playAnthropic(s *streamWriter, t *Turn, model string, index int) {
	u := t.usage()
	msg := map[string]any{
		"id": fmt.Sprintf("msg_mock_%d", index+1), "type": "message", "role": "assistant",
		"model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
	}
	if !t.NoUsage {
		msg["usage"] = map[string]any{
			"input_tokens": u.Input, "cache_creation_input_tokens": u.CacheWrite,
			"cache_read_input_tokens": u.CacheRead, "output_tokens": 1,
		}
	}
	s.event("message_start", map[string]any{"type": "message_start", "message": msg})
	s.event("ping", map[string]any{"type": "ping"})
	for i, b := range t.Blocks {
		var start map[string]any
		switch b.Type {
		case BlockText:
			start = map[string]any{"type": "text", "text": ""}
		case BlockThinking:
			start = map[string]any{"type": "thinking", "thinking": "", "signature": ""}
		case BlockRedactedThinking:
			start = map[string]any{"type": "redacted_thinking", "data": b.Signature}
		case BlockToolCall:
			id := b.ID
			if id == "" {
				id = fmt.Sprintf("toolu_mock_%d_%d", index+1, i)
			}
			start = map[string]any{"type": "tool_use", "id": id, "name": b.Name, "input": map[string]any{}}
		}
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start})
		delta := func(d map[string]any) {
			s.delta("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
		}
		switch b.Type {
		case BlockText:
			for _, p := range t.chunk(b.Text) {
				delta(map[string]any{"type": "text_delta", "text": p})
			}
		case BlockThinking:
			for _, p := range t.chunk(b.Text) {
				delta(map[string]any{"type": "thinking_delta", "thinking": p})
			}
			if b.Signature != "" {
				s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "signature_delta", "signature": b.Signature}})
			}
		case BlockToolCall:
			for _, p := range t.chunk(b.Arguments) {
				delta(map[string]any{"type": "input_json_delta", "partial_json": p})
			}
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	if t.StreamError {
		msg := t.ErrorMessage
		if msg == "" {
			msg = "Overloaded"
		}
		s.event("error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": msg}})
		return
	}
	delta := map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": anthropicStop(t), "stop_sequence": nil},
	}
	if !t.NoUsage {
		delta["usage"] = map[string]any{
			"input_tokens": u.Input, "cache_creation_input_tokens": u.CacheWrite,
			"cache_read_input_tokens": u.CacheRead, "output_tokens": u.Output,
		}
	}
	s.event("message_delta", delta)
	s.event("message_stop", map[string]any{"type": "message_stop"})
}
