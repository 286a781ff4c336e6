package ai

// EventType names a stream event.
type EventType string

// Stream event types.
const (
	EventStart         EventType = "start"          // the response began; Partial is the empty message
	EventTextStart     EventType = "text_start"     // a text block opened at ContentIndex
	EventTextDelta     EventType = "text_delta"     // Delta was appended to the text block
	EventTextEnd       EventType = "text_end"       // the text block closed; Content is its text
	EventThinkingStart EventType = "thinking_start" // a thinking block opened at ContentIndex
	EventThinkingDelta EventType = "thinking_delta" // Delta was appended to the thinking block
	EventThinkingEnd   EventType = "thinking_end"   // the thinking block closed; Content is its text
	EventToolCallStart EventType = "toolcall_start" // a tool-call block opened at ContentIndex
	EventToolCallDelta EventType = "toolcall_delta" // Delta (argument JSON text) was appended
	EventToolCallEnd   EventType = "toolcall_end"   // the call closed; ToolCall holds the final arguments
	EventDone          EventType = "done"           // terminal: Reason is stop, length or toolUse; Message is final
	EventError         EventType = "error"          // terminal: Reason is error or aborted; Message is final
)

// IsDelta reports whether events of this type are throttled and merged.
func (t EventType) IsDelta() bool {
	return t == EventTextDelta || t == EventThinkingDelta || t == EventToolCallDelta
}

// IsTerminal reports whether the type ends a stream.
func (t EventType) IsTerminal() bool { return t == EventDone || t == EventError }

// Event is one step of a streamed response. Fields not meaningful for the
// type are zero.
type Event struct {
	Type         EventType         `json:"type"`               // what happened
	ContentIndex int               `json:"contentIndex"`       // block index for block events
	Delta        string            `json:"delta,omitempty"`    // appended text for *_delta
	Content      string            `json:"content,omitempty"`  // whole block text for text_end / thinking_end
	ToolCall     *ToolCall         `json:"toolCall,omitempty"` // the finished call for toolcall_end
	Reason       StopReason        `json:"reason,omitempty"`   // stop reason for done / error
	Partial      *AssistantMessage `json:"partial,omitempty"`  // snapshot of the message so far (not for terminal events)
	Message      *AssistantMessage `json:"message,omitempty"`  // final message for done / error
}
