package agentsession

import (
	"sort"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// ModelUsage is what one model used in this session (/usage).
type ModelUsage struct {
	Model    string   `json:"model"`    // provider/id as the answers name it
	Requests int      `json:"requests"` // answers received
	Tokens   ai.Usage `json:"tokens"`   // summed usage; Cost in dollars from the model's prices
}

// UsageByModel sums the usage of every answer stored in the session file,
// per model, the most expensive first (ties: the most tokens, then the
// name). Answers on branches the conversation has left count too: they
// were paid for. Summaries and handoffs written for compaction are not
// stored as answers and do not count.
func (c *Conversation) UsageByModel() []ModelUsage {
	s := c.s
	by := map[string]*ModelUsage{}
	for _, e := range s.Store().Entries() {
		if e.Type != session.TypeMessage {
			continue
		}
		a, ok := e.Message.(*ai.AssistantMessage)
		if !ok {
			continue
		}
		name := a.Provider + "/" + a.Model
		if a.Provider == "" {
			name = a.Model
		}
		mu := by[name]
		if mu == nil {
			mu = &ModelUsage{Model: name}
			by[name] = mu
		}
		mu.Requests++
		addUsage(&mu.Tokens, a.Usage)
	}
	out := make([]ModelUsage, 0, len(by))
	for _, mu := range by {
		out = append(out, *mu)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Tokens.Cost.Total != b.Tokens.Cost.Total {
			return a.Tokens.Cost.Total > b.Tokens.Cost.Total
		}
		if a.Tokens.TotalTokens != b.Tokens.TotalTokens {
			return a.Tokens.TotalTokens > b.Tokens.TotalTokens
		}
		return a.Model < b.Model
	})
	return out
}

// addUsage adds u to sum.
func addUsage(sum *ai.Usage, u ai.Usage) {
	sum.Input += u.Input
	sum.Output += u.Output
	sum.CacheRead += u.CacheRead
	sum.CacheWrite += u.CacheWrite
	sum.TotalTokens += u.Input + u.Output + u.CacheRead + u.CacheWrite
	sum.Cost.Input += u.Cost.Input
	sum.Cost.Output += u.Cost.Output
	sum.Cost.CacheRead += u.Cost.CacheRead
	sum.Cost.CacheWrite += u.Cost.CacheWrite
	sum.Cost.Total += u.Cost.Total
	sum.Estimated = sum.Estimated || u.Estimated
}
