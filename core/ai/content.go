package ai

import (
	"encoding/json"
	"fmt"
)

// Content is one block of a message: *TextContent, *ThinkingContent,
// *ImageContent or *ToolCall.
type Content interface {
	// ContentType returns the block's JSON "type": "text", "thinking",
	// "image" or "toolCall".
	ContentType() string
}

// Content block type names, as they appear in JSON and in events.
const (
	ContentText     = "text"     // *TextContent
	ContentThinking = "thinking" // *ThinkingContent
	ContentImage    = "image"    // *ImageContent
	ContentToolCall = "toolCall" // *ToolCall
)

// TextContent is a block of visible text.
type TextContent struct {
	Text          string `json:"text"`                    // the text
	TextSignature string `json:"textSignature,omitempty"` // provider-specific id of the text item, if any
}

// ContentType returns "text".
func (*TextContent) ContentType() string { return ContentText }

// MarshalJSON encodes {"type":"text","text":…}.
func (c *TextContent) MarshalJSON() ([]byte, error) {
	type plain TextContent
	return json.Marshal(struct {
		Type string `json:"type"`
		*plain
	}{ContentText, (*plain)(c)})
}

// ThinkingContent is a block of model reasoning.
type ThinkingContent struct {
	Thinking          string `json:"thinking"`                    // the reasoning text (or summary)
	ThinkingSignature string `json:"thinkingSignature,omitempty"` // opaque signature to send back unchanged
	Redacted          bool   `json:"redacted,omitempty"`          // the provider hid the text; the signature carries it
}

// ContentType returns "thinking".
func (*ThinkingContent) ContentType() string { return ContentThinking }

// MarshalJSON encodes {"type":"thinking","thinking":…}.
func (c *ThinkingContent) MarshalJSON() ([]byte, error) {
	type plain ThinkingContent
	return json.Marshal(struct {
		Type string `json:"type"`
		*plain
	}{ContentThinking, (*plain)(c)})
}

// ImageContent is an inline image.
type ImageContent struct {
	Data     string `json:"data"`     // base64-encoded image bytes
	MIMEType string `json:"mimeType"` // e.g. "image/png"
}

// ContentType returns "image".
func (*ImageContent) ContentType() string { return ContentImage }

// MarshalJSON encodes {"type":"image","data":…,"mimeType":…}.
func (c *ImageContent) MarshalJSON() ([]byte, error) {
	type plain ImageContent
	return json.Marshal(struct {
		Type string `json:"type"`
		*plain
	}{ContentImage, (*plain)(c)})
}

// ToolCall is the model asking to run a tool.
type ToolCall struct {
	ID        string         `json:"id"`        // provider call id (OpenAI Responses: "<call_id>|<item_id>")
	Name      string         `json:"name"`      // tool name
	Arguments map[string]any `json:"arguments"` // parsed arguments; {} while unparseable
	// PartialJSON accumulates streamed argument text while the call is
	// open; the Emitter clears it at toolcall_end. Never persisted.
	PartialJSON string `json:"-"`
	// Incomplete is set when the streamed argument text ended before it was
	// complete JSON (a response cut off by its length limit or a failure):
	// Arguments hold only what a partial parse recovered, and the call must
	// not be run. Never persisted.
	Incomplete bool `json:"-"`
}

// ContentType returns "toolCall".
func (*ToolCall) ContentType() string { return ContentToolCall }

// MarshalJSON encodes {"type":"toolCall","id":…,"name":…,"arguments":…}.
func (c *ToolCall) MarshalJSON() ([]byte, error) {
	args := c.Arguments
	if args == nil {
		args = map[string]any{}
	}
	return json.Marshal(struct {
		Type      string         `json:"type"`
		ID        string         `json:"id"`
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}{ContentToolCall, c.ID, c.Name, args})
}

// Text returns a text block.
func Text(s string) *TextContent { return &TextContent{Text: s} }

// UnmarshalContent decodes one block by its "type" field. A type this
// version does not know decodes to an *OpaqueContent that keeps the JSON.
func UnmarshalContent(data []byte) (Content, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decode content block: %w", err)
	}
	var c Content
	switch head.Type {
	case ContentText:
		c = &TextContent{}
	case ContentThinking:
		c = &ThinkingContent{}
	case ContentImage:
		c = &ImageContent{}
	case ContentToolCall:
		c = &ToolCall{}
	default:
		if !json.Valid(data) {
			return nil, fmt.Errorf("decode content block: invalid JSON")
		}
		return &OpaqueContent{Type: head.Type, Raw: cloneRaw(data)}, nil
	}
	if err := json.Unmarshal(data, c); err != nil {
		return nil, fmt.Errorf("decode %s block: %w", head.Type, err)
	}
	if tc, ok := c.(*ToolCall); ok && tc.Arguments == nil {
		tc.Arguments = map[string]any{}
	}
	return c, nil
}

// ContentList is a list of blocks that decodes by each block's type; a JSON
// string decodes to one text block (user messages may be plain strings).
type ContentList []Content

// UnmarshalJSON decodes an array of blocks or a plain string.
func (l *ContentList) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*l = ContentList{Text(s)}
		return nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return fmt.Errorf("decode content: %w", err)
	}
	out := make(ContentList, 0, len(raws))
	for _, r := range raws {
		c, err := UnmarshalContent(r)
		if err != nil {
			return err
		}
		out = append(out, c)
	}
	*l = out
	return nil
}
