package mockllm

import "fmt"

// responsesWriter numbers Responses events: every event carries a rising
// sequence_number.
type responsesWriter struct {
	s   *streamWriter
	seq int
}

func (w *responsesWriter) emit(typ string, fields map[string]any) {
	fields["type"] = typ
	fields["sequence_number"] = w.seq
	w.seq++
	w.s.event(typ, fields)
}

// emitDelta is emit for a frame carrying content.
func (w *responsesWriter) emitDelta(typ string, fields map[string]any) {
	fields["type"] = typ
	fields["sequence_number"] = w.seq
	w.seq++
	w.s.delta(typ, fields)
}

// playResponses streams a turn as Responses API events: response.created,
// response.in_progress, then one output item per block (reasoning with a
// summary part, message with an output_text — or refusal — content part,
// function_call with argument deltas), and a terminal response.completed,
// response.incomplete (length) or response.failed (stream error). RawStop
// is the response status, or an incomplete_details.reason
// ("max_output_tokens", "content_filter") that implies status incomplete.
func playResponses(s *streamWriter, t *Turn, model string, index int) {
	w := &responsesWriter{s: s}
	respID := fmt.Sprintf("resp_mock_%d", index+1)
	created := 1700000000 + index
	response := func(status string, output []any) map[string]any {
		return map[string]any{
			"id": respID, "object": "response", "created_at": created, "status": status,
			"model": model, "output": output, "usage": nil, "error": nil, "incomplete_details": nil,
		}
	}
	w.emit("response.created", map[string]any{"response": response("in_progress", []any{})})
	w.emit("response.in_progress", map[string]any{"response": response("in_progress", []any{})})
	refusal := t.stop() == StopRefusal
	var output []any
	for i, b := range t.Blocks {
		if b.Type == BlockRedactedThinking {
			continue // no equivalent in this format
		}
		var done map[string]any
		switch b.Type {
		case BlockThinking:
			itemID := fmt.Sprintf("rs_mock_%d_%d", index+1, i)
			w.emit("response.output_item.added", map[string]any{"output_index": i,
				"item": map[string]any{"id": itemID, "type": "reasoning", "summary": []any{}}})
			part := func(text string) map[string]any { return map[string]any{"type": "summary_text", "text": text} }
			w.emit("response.reasoning_summary_part.added", map[string]any{"item_id": itemID, "output_index": i, "summary_index": 0, "part": part("")})
			for _, p := range t.chunk(b.Text) {
				w.emitDelta("response.reasoning_summary_text.delta", map[string]any{"item_id": itemID, "output_index": i, "summary_index": 0, "delta": p})
			}
			w.emit("response.reasoning_summary_text.done", map[string]any{"item_id": itemID, "output_index": i, "summary_index": 0, "text": b.Text})
			w.emit("response.reasoning_summary_part.done", map[string]any{"item_id": itemID, "output_index": i, "summary_index": 0, "part": part(b.Text)})
			done = map[string]any{"id": itemID, "type": "reasoning", "summary": []any{part(b.Text)}}
			if b.Signature != "" {
				done["encrypted_content"] = b.Signature
			}
		case BlockText:
			itemID := fmt.Sprintf("msg_mock_%d_%d", index+1, i)
			w.emit("response.output_item.added", map[string]any{"output_index": i,
				"item": map[string]any{"id": itemID, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}})
			part := func(text string) map[string]any {
				if refusal {
					return map[string]any{"type": "refusal", "refusal": text}
				}
				return map[string]any{"type": "output_text", "annotations": []any{}, "text": text}
			}
			w.emit("response.content_part.added", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "part": part("")})
			if refusal {
				for _, p := range t.chunk(b.Text) {
					w.emitDelta("response.refusal.delta", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "delta": p})
				}
				w.emit("response.refusal.done", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "refusal": b.Text})
			} else {
				for _, p := range t.chunk(b.Text) {
					w.emitDelta("response.output_text.delta", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "delta": p, "logprobs": []any{}})
				}
				w.emit("response.output_text.done", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "text": b.Text, "logprobs": []any{}})
			}
			w.emit("response.content_part.done", map[string]any{"item_id": itemID, "output_index": i, "content_index": 0, "part": part(b.Text)})
			done = map[string]any{"id": itemID, "type": "message", "status": "completed", "role": "assistant", "content": []any{part(b.Text)}}
		case BlockToolCall:
			itemID := fmt.Sprintf("fc_mock_%d_%d", index+1, i)
			callID := b.ID
			if callID == "" {
				callID = fmt.Sprintf("call_mock_%d_%d", index+1, i)
			}
			item := func(status, args string) map[string]any {
				return map[string]any{"id": itemID, "type": "function_call", "status": status, "call_id": callID, "name": b.Name, "arguments": args}
			}
			w.emit("response.output_item.added", map[string]any{"output_index": i, "item": item("in_progress", "")})
			for _, p := range t.chunk(b.Arguments) {
				w.emitDelta("response.function_call_arguments.delta", map[string]any{"item_id": itemID, "output_index": i, "delta": p})
			}
			w.emit("response.function_call_arguments.done", map[string]any{"item_id": itemID, "output_index": i, "name": b.Name, "arguments": b.Arguments})
			done = item("completed", b.Arguments)
		}
		w.emit("response.output_item.done", map[string]any{"output_index": i, "item": done})
		output = append(output, done)
	}
	if output == nil {
		output = []any{}
	}
	if t.StreamError {
		msg := t.ErrorMessage
		if msg == "" {
			msg = "The server had an error while processing your request."
		}
		r := response("failed", output)
		r["error"] = map[string]any{"code": "server_error", "message": msg}
		w.emit("response.failed", map[string]any{"response": r})
		return
	}
	u := t.usage()
	status, reason := "completed", "max_output_tokens"
	switch {
	case t.RawStop == "max_output_tokens" || t.RawStop == "content_filter":
		// An incomplete_details.reason: the status is implied.
		status, reason = "incomplete", t.RawStop
	case t.RawStop != "":
		status = t.RawStop
	case t.stop() == StopLength:
		status = "incomplete"
	}
	event := "response.completed"
	r := response(status, output)
	switch status {
	case "incomplete":
		event = "response.incomplete"
		r["incomplete_details"] = map[string]any{"reason": reason}
	case "failed":
		event = "response.failed"
	}
	if !t.NoUsage { // else it stays null
		r["usage"] = map[string]any{
			"input_tokens":          u.Input + u.CacheRead,
			"input_tokens_details":  map[string]any{"cached_tokens": u.CacheRead},
			"output_tokens":         u.Output,
			"output_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
			"total_tokens":          u.Input + u.CacheRead + u.Output,
		}
	}
	w.emit(event, map[string]any{"response": r})
}
