package compaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// MaxToolResultChars is how much of one tool result a summary transcript
// keeps; the rest is replaced by a note of how much was left out.
const MaxToolResultChars = 2000

// Serialize renders a conversation as a plain-text transcript for the
// summarising model, so it reads the conversation as a document instead
// of continuing it. Agent-level messages are converted as the model would
// see them (message.ToLLM). Each message becomes a paragraph that starts
// with who speaks: "User:", "Assistant:", "Assistant (thinking):",
// "Assistant called:" (tool calls as name(arg=value, …)), "Tool result:"
// or "Tool error:"; images are left out and long tool results cut to
// MaxToolResultChars.
func Serialize(msgs []ai.Message) string {
	llm := message.ToLLM(msgs)
	var b strings.Builder
	b.Grow(transcriptSize(llm))
	para := func(label, text string) {
		if text == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(label)
		b.WriteByte(' ')
		b.WriteString(text)
	}
	for _, m := range llm {
		switch m := m.(type) {
		case *ai.UserMessage:
			para("User:", joinText(m.Content, ""))
		case *ai.AssistantMessage:
			var texts, thinking, calls []string
			for _, c := range m.Content {
				switch c := c.(type) {
				case *ai.TextContent:
					texts = append(texts, c.Text)
				case *ai.ThinkingContent:
					thinking = append(thinking, c.Thinking)
				case *ai.ToolCall:
					calls = append(calls, callText(c))
				}
			}
			para("Assistant (thinking):", strings.Join(thinking, "\n"))
			para("Assistant:", strings.Join(texts, "\n"))
			para("Assistant called:", strings.Join(calls, "; "))
		case *ai.ToolResultMessage:
			label := "Tool result:"
			if m.IsError {
				label = "Tool error:"
			}
			para(label, cut(joinText(m.Content, ""), MaxToolResultChars))
		}
	}
	return b.String()
}

// transcriptSize is about the size of Serialize's output, so its buffer
// is allocated once.
func transcriptSize(msgs []ai.Message) int {
	n := 0
	for _, m := range msgs {
		switch m := m.(type) {
		case *ai.ToolResultMessage:
			n += min(Size(m), MaxToolResultChars*4+64) + 32
		default:
			n += Size(m) + 32
		}
	}
	return n
}

func joinText(list ai.ContentList, sep string) string {
	var parts []string
	for _, c := range list {
		if t, ok := c.(*ai.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, sep)
}

// callText renders a tool call as name(key=value, …), keys sorted, values
// as JSON.
func callText(tc *ai.ToolCall) string {
	keys := make([]string, 0, len(tc.Arguments))
	for k := range tc.Arguments {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	args := make([]string, len(keys))
	for i, k := range keys {
		args[i] = k + "=" + jsonText(tc.Arguments[k])
	}
	return tc.Name + "(" + strings.Join(args, ", ") + ")"
}

// jsonText encodes v as compact JSON without HTML escaping ("<" stays
// "<"), as the model would write it.
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return `"?"`
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// cut keeps the first max characters of s and says how many were left out.
func cut(s string, max int) string {
	if len(s) <= max {
		return s // no more characters than bytes
	}
	n := 0
	for i := range s {
		if n == max {
			return fmt.Sprintf("%s\n\n[%d more characters left out]", s[:i], utf8.RuneCountInString(s[i:]))
		}
		n++
	}
	return s
}
