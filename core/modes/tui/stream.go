package tui

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// stream follows the assistant message being streamed and hands out the
// parts that are complete, to be rendered once and printed: whole blocks
// once a later block started, and within the text block still growing
// every paragraph up to the last blank line outside a code fence (or a
// code block once its fence closes). Each update looks only at the lines
// added since the last one, so a long answer costs the same per delta at
// its end as at its start.
type stream struct {
	block   int  // index of the first content block not wholly handed out
	offset  int  // bytes of that block's text already handed out
	scanPos int  // bytes of that block's text already scanned (a line start)
	fence   bool // a code fence is open at scanPos
	cut     int  // end of the last complete paragraph found (≥ offset)
	wrap    tailWrap
}

// piece is a complete part of a streamed message (possibly blank: the
// printer skips those).
type piece struct {
	text     string // Markdown text, or the thinking text
	thinking bool
}

// advance returns the pieces of m that became complete. With final (the
// message ended) everything left is complete.
func (s *stream) advance(m *ai.AssistantMessage, final bool) []piece {
	var out []piece
	for s.block < len(m.Content) {
		last := s.block == len(m.Content)-1
		switch c := m.Content[s.block].(type) {
		case *ai.TextContent:
			if !last || final {
				if rest := c.Text[min(s.offset, len(c.Text)):]; rest != "" {
					out = append(out, piece{text: rest})
				}
				s.next()
				continue
			}
			s.scan(c.Text)
			if s.cut > s.offset {
				out = append(out, piece{text: c.Text[s.offset:s.cut]})
				s.offset = s.cut
			}
			return out
		case *ai.ThinkingContent:
			if !last || final {
				out = append(out, piece{text: c.Thinking, thinking: true})
				s.next()
				continue
			}
			return out
		default:
			s.next() // tool calls are drawn as cards when they run
		}
	}
	return out
}

// next moves to the following block.
func (s *stream) next() { *s = stream{block: s.block + 1} }

// scan looks at the complete lines added since the last call and records
// where the latest complete paragraph ends.
func (s *stream) scan(text string) {
	for s.scanPos < len(text) {
		nl := strings.IndexByte(text[s.scanPos:], '\n')
		if nl < 0 {
			return
		}
		line := strings.TrimSpace(text[s.scanPos : s.scanPos+nl])
		end := s.scanPos + nl + 1
		switch {
		case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
			s.fence = !s.fence
			if !s.fence {
				s.cut = end // a closed code block is complete
			}
		case line == "" && !s.fence:
			s.cut = end
		}
		s.scanPos = end
	}
}

// tail returns the part of m not handed out yet: the text of the block
// still growing, for the live view. thinking says it is thinking text.
func (s *stream) tail(m *ai.AssistantMessage) (text string, thinking bool) {
	if m == nil || s.block >= len(m.Content) {
		return "", false
	}
	switch c := m.Content[s.block].(type) {
	case *ai.TextContent:
		return c.Text[min(s.offset, len(c.Text)):], false
	case *ai.ThinkingContent:
		return c.Thinking, true
	}
	return "", false
}

// tailRows returns the last n rows of the tail wrapped at width, kept
// from the last call (tailwrap.go), so a frame costs the same at the end
// of a long paragraph as at its start. thinking says it is thinking text.
func (s *stream) tailRows(m *ai.AssistantMessage, width, n int) (rows []string, thinking bool) {
	text, thinking := s.tail(m)
	if text == "" {
		return nil, thinking
	}
	return s.wrap.update([2]int{s.block, s.offset}, text, width, n), thinking
}
