package message

import (
	"encoding/json"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
)

// Agent-level roles, as they appear in JSON.
const (
	RoleCustom            ai.Role = "custom"            // *Custom
	RoleHookMessage       ai.Role = "hookMessage"       // legacy name of custom; decodes to *Custom
	RoleBranchSummary     ai.Role = "branchSummary"     // *BranchSummary
	RoleCompactionSummary ai.Role = "compactionSummary" // *CompactionSummary
	RoleBashExecution     ai.Role = "bashExecution"     // *BashExecution
	RolePythonExecution   ai.Role = "pythonExecution"   // *PythonExecution
	RoleFileMention       ai.Role = "fileMention"       // *FileMention
)

// Custom is a message an extension put into the conversation. Providers see
// its content as a user message; Display says whether the UI shows it.
type Custom struct {
	CustomType  string          // the extension's identifier for this kind of message
	Content     Content         // string or text/image blocks
	Display     bool            // shown in the UI (false: hidden, still sent to the model)
	Details     json.RawMessage // extension metadata, never sent to the model; nil when absent
	Attribution string          // who initiated it: "user" or "agent" ("" when unknown)
	Timestamp   int64           // Unix milliseconds
}

// MessageRole returns "custom".
func (*Custom) MessageRole() ai.Role { return RoleCustom }

// MarshalJSON encodes {"role":"custom","customType":…,"content":…,"display":…,…}.
func (m *Custom) MarshalJSON() ([]byte, error) {
	content, err := m.Content.MarshalJSON()
	if err != nil {
		return nil, err
	}
	o := newObject().add("role", RoleCustom).add("customType", m.CustomType).raw("content", content).add("display", m.Display)
	if len(m.Details) > 0 {
		o.raw("details", m.Details)
	}
	return o.opt(m.Attribution == "", "attribution", m.Attribution).add("timestamp", m.Timestamp).bytes()
}

// UnmarshalJSON decodes a custom (or legacy hookMessage) message.
func (m *Custom) UnmarshalJSON(data []byte) error {
	var v struct {
		CustomType  string          `json:"customType"`
		Content     Content         `json:"content"`
		Display     bool            `json:"display"`
		Details     json.RawMessage `json:"details"`
		Attribution string          `json:"attribution"`
		Timestamp   int64           `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode custom message: %w", err)
	}
	*m = Custom(v)
	return nil
}
