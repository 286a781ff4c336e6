package mockllm

import (
	"encoding/json"
	"fmt"
)

// geminiStop renders a normalized stop reason as a Gemini finishReason.
func geminiStop(t *Turn) string {
	if t.RawStop != "" {
		return t.RawStop
	}
	switch t.stop() {
	case StopLength:
		return "MAX_TOKENS"
	case StopRefusal:
		return "SAFETY"
	}
	return "STOP" // Gemini ends tool-calling turns with STOP too
}

// playGemini streams a turn as streamGenerateContent?alt=sse chunks: each
// text or thought delta is one chunk holding one part; a function call is
// one chunk with the whole call; the last chunk carries finishReason and the
// final usageMetadata. Every chunk carries usageMetadata with the prompt
// count, as the service does; with NoUsage none does.
func playGemini(s *streamWriter, t *Turn, model string, index int) {
	playGeminiChunks(s, t, model, index, nil)
}

// playGeminiChunks is playGemini with every chunk passed through wrap
// (Code Assist's envelope); nil wrap sends chunks as they are.
func playGeminiChunks(s *streamWriter, t *Turn, model string, index int, wrap func(map[string]any) any) {
	send := func(c map[string]any) any {
		if wrap == nil {
			return c
		}
		return wrap(c)
	}
	u := t.usage()
	respID := fmt.Sprintf("mockresp%d", index+1)
	type part = map[string]any
	var parts []part
	for _, b := range t.Blocks {
		if b.Type == BlockRedactedThinking {
			continue // no equivalent in this format
		}
		var bp []part
		switch b.Type {
		case BlockText:
			for _, p := range t.chunk(b.Text) {
				bp = append(bp, part{"text": p})
			}
		case BlockThinking:
			for _, p := range t.chunk(b.Text) {
				bp = append(bp, part{"text": p, "thought": true})
			}
		case BlockToolCall:
			var args any = map[string]any{}
			var parsed map[string]any
			if json.Unmarshal([]byte(b.Arguments), &parsed) == nil && parsed != nil {
				args = parsed
			}
			call := map[string]any{"name": b.Name, "args": args}
			if b.ID != "" {
				call["id"] = b.ID
			}
			bp = append(bp, part{"functionCall": call})
		}
		if len(bp) == 0 {
			bp = append(bp, part{"text": ""})
		}
		if b.Signature != "" {
			bp[len(bp)-1]["thoughtSignature"] = b.Signature
		}
		parts = append(parts, bp...)
	}
	prompt := u.Input + u.CacheRead
	running := map[string]any{"promptTokenCount": prompt, "totalTokenCount": prompt}
	if u.CacheRead > 0 {
		running["cachedContentTokenCount"] = u.CacheRead
	}
	chunk := func(p []part, finish string, usage map[string]any) map[string]any {
		cand := map[string]any{"index": 0}
		if p != nil {
			cand["content"] = map[string]any{"role": "model", "parts": p}
		}
		if finish != "" {
			cand["finishReason"] = finish
			if finish == "SAFETY" {
				cand["safetyRatings"] = []any{map[string]any{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": true}}
			}
		}
		c := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": respID}
		if !t.NoUsage {
			c["usageMetadata"] = usage
		}
		return c
	}
	last := len(parts) - 1
	if t.StreamError {
		last = -1
	}
	for i, p := range parts {
		if i == last {
			break
		}
		s.delta("", send(chunk([]part{p}, "", running)))
	}
	if t.StreamError {
		msg := t.ErrorMessage
		if msg == "" {
			msg = "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
		}
		s.event("", send(map[string]any{"error": map[string]any{"code": 500, "message": msg, "status": "INTERNAL"}}))
		return
	}
	final := map[string]any{
		"promptTokenCount":     prompt,
		"candidatesTokenCount": u.Output - u.Reasoning,
		"totalTokenCount":      prompt + u.Output,
	}
	if u.Reasoning > 0 {
		final["thoughtsTokenCount"] = u.Reasoning
	}
	if u.CacheRead > 0 {
		final["cachedContentTokenCount"] = u.CacheRead
	}
	var lastParts []part
	if last >= 0 {
		lastParts = []part{parts[last]}
	}
	if lastParts != nil {
		s.delta("", send(chunk(lastParts, geminiStop(t), final)))
	} else {
		s.event("", send(chunk(nil, geminiStop(t), final)))
	}
}
