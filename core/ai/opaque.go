package ai

import (
	"encoding/json"
)

// OpaqueMessage is a message whose role this version does not know: one
// written by a newer gopi or omp, or an agent-level role (custom,
// bashExecution, …) decoded without the package that owns it. It keeps its
// JSON unchanged so a session holding it loads, and rewrites of the session
// file write it back byte for byte. Providers never see it: converting the
// conversation for a model drops it.
type OpaqueMessage struct {
	Role Role            // the "role" field as found
	Raw  json.RawMessage // the whole message object
}

// MessageRole returns the role as found in the JSON.
func (m *OpaqueMessage) MessageRole() Role { return m.Role }

// MarshalJSON returns the original JSON.
func (m *OpaqueMessage) MarshalJSON() ([]byte, error) {
	if len(m.Raw) == 0 {
		return json.Marshal(struct {
			Role Role `json:"role"`
		}{m.Role})
	}
	return m.Raw, nil
}

// OpaqueContent is a content block whose type this version does not know.
// It keeps its JSON unchanged for the same reasons as OpaqueMessage;
// providers skip it.
type OpaqueContent struct {
	Type string          // the "type" field as found
	Raw  json.RawMessage // the whole block object
}

// ContentType returns the type as found in the JSON.
func (c *OpaqueContent) ContentType() string { return c.Type }

// MarshalJSON returns the original JSON.
func (c *OpaqueContent) MarshalJSON() ([]byte, error) {
	if len(c.Raw) == 0 {
		return json.Marshal(struct {
			Type string `json:"type"`
		}{c.Type})
	}
	return c.Raw, nil
}

// cloneRaw copies data so a kept RawMessage never aliases a decoder's buffer.
func cloneRaw(data []byte) json.RawMessage {
	return append(json.RawMessage(nil), data...)
}
