package message

import (
	"encoding/json"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
)

// BranchSummary summarises a branch of the conversation the user left by
// navigating back to an earlier entry (session branch_summary entries).
type BranchSummary struct {
	Summary   string // the summary text
	FromID    string // entry the branch was left from; "root" when from before the first entry
	Timestamp int64  // Unix milliseconds
}

// MessageRole returns "branchSummary".
func (*BranchSummary) MessageRole() ai.Role { return RoleBranchSummary }

// MarshalJSON encodes {"role":"branchSummary","summary":…,"fromId":…,"timestamp":…}.
func (m *BranchSummary) MarshalJSON() ([]byte, error) {
	return newObject().add("role", RoleBranchSummary).add("summary", m.Summary).add("fromId", m.FromID).add("timestamp", m.Timestamp).bytes()
}

// UnmarshalJSON decodes a branch summary message.
func (m *BranchSummary) UnmarshalJSON(data []byte) error {
	var v struct {
		Summary   string `json:"summary"`
		FromID    string `json:"fromId"`
		Timestamp int64  `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode branch summary message: %w", err)
	}
	*m = BranchSummary(v)
	return nil
}

// CompactionSummary stands for the compacted start of a conversation
// (session compaction entries). Fields this version does not model, such as
// omp's providerPayload, are kept in Extra and written back.
type CompactionSummary struct {
	Summary         string                     // the summary text
	ShortSummary    string                     // a one-line recap ("" when absent)
	TokensBefore    int                        // context tokens before compaction
	ProviderPayload json.RawMessage            // provider-native replacement history (omp's openaiResponsesHistory); nil when absent
	Timestamp       int64                      // Unix milliseconds
	Extra           map[string]json.RawMessage // other fields as found, written back unchanged
	extraOrder      []string
}

// MessageRole returns "compactionSummary".
func (*CompactionSummary) MessageRole() ai.Role { return RoleCompactionSummary }

// MarshalJSON encodes {"role":"compactionSummary","summary":…,"tokensBefore":…,…}.
func (m *CompactionSummary) MarshalJSON() ([]byte, error) {
	o := newObject().add("role", RoleCompactionSummary).add("summary", m.Summary).
		opt(m.ShortSummary == "", "shortSummary", m.ShortSummary).add("tokensBefore", m.TokensBefore)
	if len(m.ProviderPayload) > 0 {
		o.raw("providerPayload", m.ProviderPayload)
	}
	o.add("timestamp", m.Timestamp)
	order := m.extraOrder
	if len(order) != len(m.Extra) {
		order = sortedKeys(m.Extra)
	}
	return o.extra(m.Extra, order).bytes()
}

// UnmarshalJSON decodes a compaction summary message, keeping unknown fields.
func (m *CompactionSummary) UnmarshalJSON(data []byte) error {
	var v struct {
		Summary         string          `json:"summary"`
		ShortSummary    string          `json:"shortSummary"`
		TokensBefore    int             `json:"tokensBefore"`
		ProviderPayload json.RawMessage `json:"providerPayload"`
		Timestamp       int64           `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode compaction summary message: %w", err)
	}
	all, order, err := members(data)
	if err != nil {
		return fmt.Errorf("decode compaction summary message: %w", err)
	}
	*m = CompactionSummary{Summary: v.Summary, ShortSummary: v.ShortSummary, TokensBefore: v.TokensBefore,
		ProviderPayload: v.ProviderPayload, Timestamp: v.Timestamp}
	for _, k := range order {
		switch k {
		case "role", "summary", "shortSummary", "tokensBefore", "providerPayload", "timestamp":
			continue
		}
		if m.Extra == nil {
			m.Extra = map[string]json.RawMessage{}
		}
		m.Extra[k] = all[k]
		m.extraOrder = append(m.extraOrder, k)
	}
	return nil
}
