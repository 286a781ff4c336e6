package geminicli

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/google"
)

// minOutputTokens is the room kept for the answer when a thinking budget
// has to shrink to fit the output limit.
const minOutputTokens = 1024

// isClaude reports a Claude model behind Cloud Code Assist.
func isClaude(id string) bool { return strings.Contains(strings.ToLower(id), "claude") }

// buildRequest wraps the generateContent body in Code Assist's envelope
// {"project","model","request"} and applies what differs from the Gemini
// API (see the package comment); requestID makes Antigravity's requestId.
func buildRequest(req *ai.Request, project string, antigravity bool, requestID func() string) map[string]any {
	m := req.Model
	claudeIDs := strings.HasPrefix(m.ID, "claude-")
	opts := google.PayloadOptions{CallIDs: claudeIDs, SameProvider: true, CallSignature: google.SkipSignatureValidator}
	switch {
	case claudeIDs:
		opts.Parameters = claudeSchema
	case antigravity:
		opts.Parameters = sanitizeSchema
	}
	inner := google.BuildPayload(req, opts)
	gen, _ := inner["generationConfig"].(map[string]any)
	adjustThinking(req, gen)
	if antigravity {
		inner["sessionId"] = sessionID(req)
		if isClaude(m.ID) {
			inner["toolConfig"] = map[string]any{"functionCallingConfig": map[string]any{"mode": "VALIDATED"}}
		} else {
			delete(gen, "maxOutputTokens")
		}
		if isClaude(m.ID) || strings.Contains(strings.ToLower(m.ID), "gemini-3-pro-high") {
			parts := []any{
				map[string]any{"text": antigravityIdentity},
				map[string]any{"text": "Please ignore following [ignore]" + antigravityIdentity + "[/ignore]"},
			}
			if si, ok := inner["systemInstruction"].(map[string]any); ok {
				old, _ := si["parts"].([]any)
				parts = append(parts, old...)
			}
			inner["systemInstruction"] = map[string]any{"role": "user", "parts": parts}
		}
	}
	if len(gen) == 0 {
		delete(inner, "generationConfig")
	}
	body := map[string]any{"project": project, "model": m.ID, "request": inner}
	if antigravity {
		body["requestType"] = "agent"
		body["userAgent"] = "antigravity"
		body["requestId"] = requestID()
	}
	return body
}

// adjustThinking makes the Gemini API's thinkingConfig what Code Assist
// takes: none at all when thinking is off (the service then decides),
// levels in upper case, and a token budget that fits under the output
// limit — the limit grows by the budget up to the model's maximum, and a
// budget that still does not fit shrinks to leave minOutputTokens (or
// thinking is dropped).
func adjustThinking(req *ai.Request, gen map[string]any) {
	tc, ok := gen["thinkingConfig"].(map[string]any)
	if !ok {
		return
	}
	if req.Thinking == "" || req.Thinking == ai.ThinkingOff {
		delete(gen, "thinkingConfig")
		return
	}
	if lvl, ok := tc["thinkingLevel"].(string); ok {
		tc["thinkingLevel"] = strings.ToUpper(lvl)
	}
	budget, ok := tc["thinkingBudget"].(int)
	if !ok || budget <= 0 {
		return
	}
	limit, _ := gen["maxOutputTokens"].(int)
	limit += budget
	if mx := req.Model.MaxTokens; mx > 0 && limit > mx {
		limit = mx
	}
	if limit <= budget {
		budget = limit - minOutputTokens
	}
	if budget <= 0 {
		delete(gen, "thinkingConfig")
		return
	}
	tc["thinkingBudget"] = budget
	gen["maxOutputTokens"] = limit
}

// sessionID is Antigravity's session id: a negative decimal derived from
// the first user text (the first 8 bytes of its SHA-256 as a 63-bit
// number), so one conversation keeps one id; random without such a text.
func sessionID(req *ai.Request) string {
	var n uint64
	if text := firstUserText(req); strings.TrimSpace(text) != "" {
		sum := sha256.Sum256([]byte(text))
		n = binary.BigEndian.Uint64(sum[:8]) & (1<<63 - 1)
	} else {
		const bound = 9_000_000_000_000_000_000
		for {
			var b [8]byte
			_, _ = rand.Read(b[:])
			if n = binary.BigEndian.Uint64(b[:]) & (1<<63 - 1); n < bound {
				break
			}
		}
	}
	return "-" + strconv.FormatUint(n, 10)
}

// firstUserText is the first text block of the first user message.
func firstUserText(req *ai.Request) string {
	for _, msg := range req.Messages {
		u, ok := msg.(*ai.UserMessage)
		if !ok {
			continue
		}
		for _, b := range u.Content {
			if t, ok := b.(*ai.TextContent); ok {
				return t.Text
			}
		}
		return ""
	}
	return ""
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
