package agent

import (
	"encoding/json"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
)

// Event is one step of a run. Its JSON form (MarshalJSON) is the object
// omp emits for it, with a "type" field naming it.
type Event interface {
	// EventType returns the event's "type" value, e.g. "turn_start".
	EventType() string
}

// Event type names.
const (
	TypeAgentStart          = "agent_start"
	TypeAgentEnd            = "agent_end"
	TypeTurnStart           = "turn_start"
	TypeTurnEnd             = "turn_end"
	TypeMessageStart        = "message_start"
	TypeMessageUpdate       = "message_update"
	TypeMessageEnd          = "message_end"
	TypeToolExecutionStart  = "tool_execution_start"
	TypeToolExecutionUpdate = "tool_execution_update"
	TypeToolExecutionEnd    = "tool_execution_end"
	TypeAutoRetryStart      = "auto_retry_start"
	TypeAutoRetryEnd        = "auto_retry_end"
	TypeHookError           = "extension_error"
)

// AgentStart opens a run.
type AgentStart struct{}

// AgentEnd closes a run; Messages are the messages the run added, in order.
type AgentEnd struct {
	Messages []ai.Message `json:"messages"`
}

// TurnStart opens a turn; TurnIndex counts turns within the run from 0.
type TurnStart struct {
	TurnIndex int   `json:"turnIndex"`
	Timestamp int64 `json:"timestamp"` // Unix milliseconds
}

// TurnEnd closes a turn with its assistant message and tool results.
type TurnEnd struct {
	TurnIndex   int                     `json:"turnIndex"`
	Message     ai.Message              `json:"message"`
	ToolResults []*ai.ToolResultMessage `json:"toolResults"`
}

// MessageStart announces a message: a prompt, a queued message, the
// assistant message beginning to stream, or a tool result.
type MessageStart struct {
	Message ai.Message `json:"message"`
}

// MessageUpdate is one stream event of the assistant message; Message is
// the partial message after it.
type MessageUpdate struct {
	Message               *ai.AssistantMessage
	AssistantMessageEvent ai.Event
}

// MessageEnd announces that a message is complete (and may be stored).
type MessageEnd struct {
	Message ai.Message `json:"message"`
}

// ToolExecutionStart announces that a call starts (after scheduling).
type ToolExecutionStart struct {
	ToolCallID string         `json:"toolCallId"`
	ToolName   string         `json:"toolName"`
	Args       map[string]any `json:"args"`
	Intent     string         `json:"intent,omitempty"`
}

// ToolExecutionUpdate carries a partial result of a running call.
type ToolExecutionUpdate struct {
	ToolCallID    string         `json:"toolCallId"`
	ToolName      string         `json:"toolName"`
	Args          map[string]any `json:"args"`
	PartialResult *tool.Result   `json:"partialResult"`
}

// ToolExecutionEnd carries a call's final result.
type ToolExecutionEnd struct {
	ToolCallID string       `json:"toolCallId"`
	ToolName   string       `json:"toolName"`
	Result     *tool.Result `json:"result"`
	IsError    bool         `json:"isError"`
}

// AutoRetryStart announces a retry of a failed provider call after DelayMs.
type AutoRetryStart struct {
	Attempt      int    `json:"attempt"`
	MaxAttempts  int    `json:"maxAttempts"`
	DelayMs      int64  `json:"delayMs"`
	ErrorMessage string `json:"errorMessage"`
}

// AutoRetryEnd closes a series of retries.
type AutoRetryEnd struct {
	Success    bool   `json:"success"`
	Attempt    int    `json:"attempt"`
	FinalError string `json:"finalError,omitempty"`
}

// HookError reports a hook that failed (returned an error or panicked);
// the loop carried on. Its JSON is omp's extension_error frame.
type HookError struct {
	Hook  string `json:"extensionPath"` // the hook's name
	Event string `json:"event"`         // the hook point, e.g. "tool_result"
	Error string `json:"error"`         // what went wrong
}

// EventType implementations.
func (AgentStart) EventType() string          { return TypeAgentStart }
func (AgentEnd) EventType() string            { return TypeAgentEnd }
func (TurnStart) EventType() string           { return TypeTurnStart }
func (TurnEnd) EventType() string             { return TypeTurnEnd }
func (MessageStart) EventType() string        { return TypeMessageStart }
func (MessageUpdate) EventType() string       { return TypeMessageUpdate }
func (MessageEnd) EventType() string          { return TypeMessageEnd }
func (ToolExecutionStart) EventType() string  { return TypeToolExecutionStart }
func (ToolExecutionUpdate) EventType() string { return TypeToolExecutionUpdate }
func (ToolExecutionEnd) EventType() string    { return TypeToolExecutionEnd }
func (AutoRetryStart) EventType() string      { return TypeAutoRetryStart }
func (AutoRetryEnd) EventType() string        { return TypeAutoRetryEnd }
func (HookError) EventType() string           { return TypeHookError }

// withType marshals v (a struct with json tags) with "type" first.
func withType(typ string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	head := `{"type":` + quote(typ)
	if string(body) == "{}" {
		return []byte(head + "}"), nil
	}
	return append([]byte(head+","), body[1:]...), nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// MarshalJSON implementations: the struct's fields plus "type".
func (e AgentStart) MarshalJSON() ([]byte, error) { return withType(TypeAgentStart, struct{}{}) }

// MarshalJSON encodes {"type":"agent_end","messages":[…]}.
func (e AgentEnd) MarshalJSON() ([]byte, error) {
	type plain AgentEnd
	if e.Messages == nil {
		e.Messages = []ai.Message{}
	}
	return withType(TypeAgentEnd, plain(e))
}

// MarshalJSON encodes {"type":"turn_start","turnIndex":…,"timestamp":…}.
func (e TurnStart) MarshalJSON() ([]byte, error) {
	type plain TurnStart
	return withType(TypeTurnStart, plain(e))
}

// MarshalJSON encodes {"type":"turn_end","turnIndex":…,"message":…,"toolResults":[…]}.
func (e TurnEnd) MarshalJSON() ([]byte, error) {
	type plain TurnEnd
	if e.ToolResults == nil {
		e.ToolResults = []*ai.ToolResultMessage{}
	}
	return withType(TypeTurnEnd, plain(e))
}

// MarshalJSON encodes {"type":"message_start","message":…}.
func (e MessageStart) MarshalJSON() ([]byte, error) {
	type plain MessageStart
	return withType(TypeMessageStart, plain(e))
}

// MarshalJSON encodes {"type":"message_update","assistantMessageEvent":…,"message":…}.
func (e MessageUpdate) MarshalJSON() ([]byte, error) {
	return withType(TypeMessageUpdate, struct {
		AssistantMessageEvent json.RawMessage      `json:"assistantMessageEvent"`
		Message               *ai.AssistantMessage `json:"message"`
	}{assistantEventJSON(e.AssistantMessageEvent), e.Message})
}

// MarshalJSON encodes {"type":"message_end","message":…}.
func (e MessageEnd) MarshalJSON() ([]byte, error) {
	type plain MessageEnd
	return withType(TypeMessageEnd, plain(e))
}

// MarshalJSON encodes the tool_execution_start object.
func (e ToolExecutionStart) MarshalJSON() ([]byte, error) {
	type plain ToolExecutionStart
	if e.Args == nil {
		e.Args = map[string]any{}
	}
	return withType(TypeToolExecutionStart, plain(e))
}

// MarshalJSON encodes the tool_execution_update object.
func (e ToolExecutionUpdate) MarshalJSON() ([]byte, error) {
	type plain ToolExecutionUpdate
	if e.Args == nil {
		e.Args = map[string]any{}
	}
	return withType(TypeToolExecutionUpdate, plain(e))
}

// MarshalJSON encodes the tool_execution_end object.
func (e ToolExecutionEnd) MarshalJSON() ([]byte, error) {
	type plain ToolExecutionEnd
	return withType(TypeToolExecutionEnd, plain(e))
}

// MarshalJSON encodes the auto_retry_start object.
func (e AutoRetryStart) MarshalJSON() ([]byte, error) {
	type plain AutoRetryStart
	return withType(TypeAutoRetryStart, plain(e))
}

// MarshalJSON encodes the auto_retry_end object.
func (e AutoRetryEnd) MarshalJSON() ([]byte, error) {
	type plain AutoRetryEnd
	return withType(TypeAutoRetryEnd, plain(e))
}

// MarshalJSON encodes the extension_error object.
func (e HookError) MarshalJSON() ([]byte, error) {
	type plain HookError
	return withType(TypeHookError, plain(e))
}

// assistantEventJSON renders a stream event as omp's AssistantMessageEvent:
// block events carry contentIndex and their partial message; "done" carries
// reason and message; "error" carries reason and the failed message under
// "error".
func assistantEventJSON(ev ai.Event) json.RawMessage {
	var v any
	switch {
	case ev.Type == ai.EventDone:
		v = struct {
			Type    ai.EventType         `json:"type"`
			Reason  ai.StopReason        `json:"reason"`
			Message *ai.AssistantMessage `json:"message"`
		}{ev.Type, ev.Reason, ev.Message}
	case ev.Type == ai.EventError:
		v = struct {
			Type   ai.EventType         `json:"type"`
			Reason ai.StopReason        `json:"reason"`
			Error  *ai.AssistantMessage `json:"error"`
		}{ev.Type, ev.Reason, ev.Message}
	case ev.Type == ai.EventStart:
		v = struct {
			Type    ai.EventType         `json:"type"`
			Partial *ai.AssistantMessage `json:"partial"`
		}{ev.Type, ev.Partial}
	default:
		v = struct {
			Type         ai.EventType         `json:"type"`
			ContentIndex int                  `json:"contentIndex"`
			Delta        *string              `json:"delta,omitempty"`
			Content      *string              `json:"content,omitempty"`
			ToolCall     *ai.ToolCall         `json:"toolCall,omitempty"`
			Partial      *ai.AssistantMessage `json:"partial"`
		}{ev.Type, ev.ContentIndex, deltaField(ev), contentField(ev), ev.ToolCall, ev.Partial}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{"type":` + quote(string(ev.Type)) + `}`)
	}
	return data
}

func deltaField(ev ai.Event) *string {
	if ev.Type.IsDelta() {
		return &ev.Delta
	}
	return nil
}

func contentField(ev ai.Event) *string {
	if ev.Type == ai.EventTextEnd || ev.Type == ai.EventThinkingEnd {
		return &ev.Content
	}
	return nil
}
