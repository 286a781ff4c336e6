package message

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
)

// Content is the content of a custom message: a plain string or a list of
// text and image blocks. Plain remembers which of the two forms the message
// had, so it is written back the same way.
type Content struct {
	Blocks ai.ContentList // the blocks; a plain string is one text block
	Plain  bool           // written as a JSON string (only when Blocks is one text block)
}

// PlainText returns content written as a plain string.
func PlainText(s string) Content { return Content{Blocks: ai.ContentList{ai.Text(s)}, Plain: true} }

// Text returns the concatenated text blocks.
func (c Content) Text() string {
	var b []byte
	for _, blk := range c.Blocks {
		if t, ok := blk.(*ai.TextContent); ok {
			b = append(b, t.Text...)
		}
	}
	return string(b)
}

// MarshalJSON writes a string when Plain and the content is one text block,
// an array of blocks otherwise.
func (c Content) MarshalJSON() ([]byte, error) {
	if c.Plain && len(c.Blocks) == 1 {
		if t, ok := c.Blocks[0].(*ai.TextContent); ok {
			return marshalNoEscape(t.Text)
		}
	}
	if c.Plain && len(c.Blocks) == 0 {
		return []byte(`""`), nil
	}
	blocks := c.Blocks
	if blocks == nil {
		blocks = ai.ContentList{}
	}
	return json.Marshal(blocks)
}

// UnmarshalJSON reads a string or an array of blocks.
func (c *Content) UnmarshalJSON(data []byte) error {
	var l ai.ContentList
	if err := l.UnmarshalJSON(data); err != nil {
		return err
	}
	d := bytes.TrimLeft(data, " \t\r\n")
	*c = Content{Blocks: l, Plain: len(d) > 0 && d[0] == '"'}
	return nil
}

// marshalNoEscape encodes v without HTML escaping, as JSON.stringify does.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
