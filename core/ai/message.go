package ai

import (
	"encoding/json"
	"fmt"
)

// Role names a message's author.
type Role string

// Message roles, as they appear in JSON.
const (
	RoleUser       Role = "user"       // *UserMessage
	RoleAssistant  Role = "assistant"  // *AssistantMessage
	RoleToolResult Role = "toolResult" // *ToolResultMessage
)

// Message is one conversation entry: *UserMessage, *AssistantMessage or
// *ToolResultMessage.
type Message interface {
	// MessageRole returns the message's role.
	MessageRole() Role
}

// StopReason says why an assistant message ended.
type StopReason string

// Stop reasons. Done events carry stop, length or toolUse; error events carry
// error or aborted.
const (
	StopReasonStop    StopReason = "stop"    // the model finished its turn
	StopReasonLength  StopReason = "length"  // the output token limit was reached
	StopReasonToolUse StopReason = "toolUse" // the model wants tool results
	StopReasonError   StopReason = "error"   // the provider or transport failed, or a safety stop
	StopReasonAborted StopReason = "aborted" // the caller cancelled the request
)

// UserMessage is input from the user (or a template acting as the user).
type UserMessage struct {
	Content     ContentList // text and image blocks
	Synthetic   bool        // injected by the agent (e.g. an automatic "continue"), not typed by the user
	Attribution string      // who initiated it: "user" or "agent" ("" when unknown)
	Timestamp   int64       // Unix milliseconds
}

// MessageRole returns "user".
func (*UserMessage) MessageRole() Role { return RoleUser }

// MarshalJSON encodes {"role":"user","content":[…],"timestamp":…}.
func (m *UserMessage) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Role        Role        `json:"role"`
		Content     ContentList `json:"content"`
		Synthetic   bool        `json:"synthetic,omitempty"`
		Attribution string      `json:"attribution,omitempty"`
		Timestamp   int64       `json:"timestamp"`
	}{RoleUser, nonNilContent(m.Content), m.Synthetic, m.Attribution, m.Timestamp})
}

// UnmarshalJSON decodes a user message; content may be a plain string.
func (m *UserMessage) UnmarshalJSON(data []byte) error {
	var v struct {
		Content     ContentList `json:"content"`
		Synthetic   bool        `json:"synthetic"`
		Attribution string      `json:"attribution"`
		Timestamp   int64       `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode user message: %w", err)
	}
	*m = UserMessage{Content: v.Content, Synthetic: v.Synthetic, Attribution: v.Attribution, Timestamp: v.Timestamp}
	return nil
}

// AssistantMessage is one model response, complete or in progress.
type AssistantMessage struct {
	Content      ContentList `json:"content"`                // text, thinking and tool-call blocks in stream order
	API          API         `json:"api"`                    // wire API that produced it
	Provider     string      `json:"provider"`               // provider name, e.g. "anthropic"
	Model        string      `json:"model"`                  // model id
	Usage        Usage       `json:"usage"`                  // tokens and cost
	StopReason   StopReason  `json:"stopReason"`             // why it ended
	ErrorMessage string      `json:"errorMessage,omitempty"` // set when StopReason is error or aborted
	ResponseID   string      `json:"responseId,omitempty"`   // provider's message/response id, if given
	Timestamp    int64       `json:"timestamp"`              // Unix milliseconds when the request started
	Duration     int64       `json:"duration,omitempty"`     // request duration in milliseconds, when measured
	TTFT         int64       `json:"ttft,omitempty"`         // time to the first streamed token in milliseconds, when measured
}

// MessageRole returns "assistant".
func (*AssistantMessage) MessageRole() Role { return RoleAssistant }

// MarshalJSON adds "role":"assistant".
func (m *AssistantMessage) MarshalJSON() ([]byte, error) {
	type plain AssistantMessage
	c := *m
	c.Content = nonNilContent(c.Content)
	return json.Marshal(struct {
		Role Role `json:"role"`
		*plain
	}{RoleAssistant, (*plain)(&c)})
}

// UnmarshalJSON decodes an assistant message.
func (m *AssistantMessage) UnmarshalJSON(data []byte) error {
	type plain AssistantMessage
	var v plain
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode assistant message: %w", err)
	}
	*m = AssistantMessage(v)
	return nil
}

// Clone returns a copy whose block list and blocks can be changed without
// touching m (tool-call argument maps are shared; they are replaced, never
// mutated, while streaming).
func (m *AssistantMessage) Clone() *AssistantMessage {
	c := *m
	c.Content = make(ContentList, len(m.Content))
	for i, b := range m.Content {
		switch b := b.(type) {
		case *TextContent:
			x := *b
			c.Content[i] = &x
		case *ThinkingContent:
			x := *b
			c.Content[i] = &x
		case *ToolCall:
			x := *b
			c.Content[i] = &x
		case *ImageContent:
			x := *b
			c.Content[i] = &x
		default:
			c.Content[i] = b
		}
	}
	return &c
}

// Text returns the concatenated text blocks.
func (m *AssistantMessage) Text() string {
	var s string
	for _, b := range m.Content {
		if t, ok := b.(*TextContent); ok {
			s += t.Text
		}
	}
	return s
}

// ToolCalls returns the tool-call blocks in order.
func (m *AssistantMessage) ToolCalls() []*ToolCall {
	var out []*ToolCall
	for _, b := range m.Content {
		if t, ok := b.(*ToolCall); ok {
			out = append(out, t)
		}
	}
	return out
}

// ToolResultMessage carries a tool's answer back to the model.
type ToolResultMessage struct {
	ToolCallID  string      `json:"toolCallId"`            // id of the ToolCall it answers
	ToolName    string      `json:"toolName"`              // name of the tool
	Content     ContentList `json:"content"`               // text and image blocks
	Details     any         `json:"details,omitempty"`     // structured details for renderers (not sent to the model)
	IsError     bool        `json:"isError"`               // the call failed
	Attribution string      `json:"attribution,omitempty"` // who initiated it ("" when unknown)
	PrunedAt    int64       `json:"prunedAt,omitempty"`    // Unix ms when its output was pruned from the context; 0 if never
	Timestamp   int64       `json:"timestamp"`             // Unix milliseconds
}

// MessageRole returns "toolResult".
func (*ToolResultMessage) MessageRole() Role { return RoleToolResult }

// MarshalJSON adds "role":"toolResult".
func (m *ToolResultMessage) MarshalJSON() ([]byte, error) {
	type plain ToolResultMessage
	c := *m
	c.Content = nonNilContent(c.Content)
	return json.Marshal(struct {
		Role Role `json:"role"`
		*plain
	}{RoleToolResult, (*plain)(&c)})
}

// UnmarshalJSON decodes a tool result message.
func (m *ToolResultMessage) UnmarshalJSON(data []byte) error {
	type plain ToolResultMessage
	var v plain
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode tool result message: %w", err)
	}
	*m = ToolResultMessage(v)
	return nil
}

// UnmarshalMessage decodes one message by its "role" field. A role this
// version does not know decodes to an *OpaqueMessage that keeps the JSON.
func UnmarshalMessage(data []byte) (Message, error) {
	var head struct {
		Role Role `json:"role"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decode message: %w", err)
	}
	var m Message
	switch head.Role {
	case RoleUser:
		m = &UserMessage{}
	case RoleAssistant:
		m = &AssistantMessage{}
	case RoleToolResult:
		m = &ToolResultMessage{}
	default:
		if !json.Valid(data) {
			return nil, fmt.Errorf("decode message: invalid JSON")
		}
		return &OpaqueMessage{Role: head.Role, Raw: cloneRaw(data)}, nil
	}
	if err := json.Unmarshal(data, m); err != nil {
		return nil, err
	}
	return m, nil
}

func nonNilContent(c ContentList) ContentList {
	if c == nil {
		return ContentList{}
	}
	return c
}
