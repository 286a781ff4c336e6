package message

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gopi-agent/gopi/core/ai"
)

// Decode decodes one message by its "role": the agent roles of this package
// become their types (the legacy hookMessage becomes *Custom); every other
// role goes through ai.UnmarshalMessage, which keeps roles it does not know
// as *ai.OpaqueMessage.
func Decode(data []byte) (ai.Message, error) {
	var head struct {
		Role ai.Role `json:"role"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decode message: %w", err)
	}
	var m ai.Message
	switch head.Role {
	case RoleCustom, RoleHookMessage:
		m = &Custom{}
	case RoleBranchSummary:
		m = &BranchSummary{}
	case RoleCompactionSummary:
		m = &CompactionSummary{}
	case RoleBashExecution:
		m = &BashExecution{}
	case RolePythonExecution:
		m = &PythonExecution{}
	case RoleFileMention:
		m = &FileMention{}
	default:
		return ai.UnmarshalMessage(data)
	}
	if err := json.Unmarshal(data, m); err != nil {
		return nil, err
	}
	return m, nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
