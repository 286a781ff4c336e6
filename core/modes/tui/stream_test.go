package tui

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// Streaming a text in random deltas hands out pieces that, with what is
// left at the end, make up the text exactly; no piece but the last ends
// inside a code fence; paragraphs come out before the message ends.
func TestStreamPiecesCoverTheText(t *testing.T) {
	t.Parallel()
	paras := []string{"Intro line.\n", "\n", "- item one\n- item two\n", "\n", "```go\nfunc f() {\n\n\treturn\n}\n```\n", "After the code.\n", "\n", "~~~\nraw\n\n~~~\n", "Last words\n"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		var full strings.Builder
		for range 1 + rng.IntN(12) {
			full.WriteString(paras[rng.IntN(len(paras))])
		}
		text := full.String()
		var s stream
		m := &ai.AssistantMessage{Content: ai.ContentList{&ai.TextContent{}}}
		var got strings.Builder
		early := 0
		for pos := 0; pos < len(text); {
			n := min(len(text)-pos, 1+rng.IntN(7))
			pos += n
			m.Content[0].(*ai.TextContent).Text = text[:pos]
			for _, p := range s.advance(m, false) {
				if strings.Count(p.text, "```")%2 != 0 || strings.Count(p.text, "~~~")%2 != 0 {
					t.Fatalf("round %d: a piece ends inside a fence: %q", round, p.text)
				}
				got.WriteString(p.text)
				early++
			}
			if tail, _ := s.tail(m); got.String()+tail != text[:pos] {
				t.Fatalf("round %d: pieces %q + tail %q != %q", round, got.String(), tail, text[:pos])
			}
		}
		for _, p := range s.advance(m, true) {
			got.WriteString(p.text)
		}
		if strings.TrimSpace(got.String()) != strings.TrimSpace(text) {
			t.Fatalf("round %d: got %q, want %q", round, got.String(), text)
		}
		if strings.Contains(strings.TrimRight(text, "\n"), "\n\n") && !strings.HasPrefix(strings.TrimLeft(text, "\n"), "```") && early == 0 && strings.Count(text, "```") == 0 && strings.Count(text, "~~~") == 0 {
			t.Fatalf("round %d: nothing was handed out before the end of %q", round, text)
		}
	}
}

// A block is complete once the next one starts; thinking is handed out
// as thinking; tool calls are skipped.
func TestStreamBlocks(t *testing.T) {
	t.Parallel()
	var s stream
	m := &ai.AssistantMessage{Content: ai.ContentList{&ai.ThinkingContent{Thinking: "hmm"}}}
	if ps := s.advance(m, false); len(ps) != 0 {
		t.Fatalf("thinking handed out while growing: %v", ps)
	}
	if tail, thinking := s.tail(m); tail != "hmm" || !thinking {
		t.Fatalf("tail %q %v", tail, thinking)
	}
	m.Content = append(m.Content, &ai.TextContent{Text: "partial"})
	ps := s.advance(m, false)
	if len(ps) != 1 || !ps[0].thinking || ps[0].text != "hmm" {
		t.Fatalf("pieces %v", ps)
	}
	m.Content = append(m.Content, &ai.ToolCall{ID: "c", Name: "read"}, &ai.TextContent{Text: "after"})
	ps = s.advance(m, true)
	if len(ps) != 2 || ps[0].text != "partial" || ps[1].text != "after" {
		t.Fatalf("pieces %v", ps)
	}
}
