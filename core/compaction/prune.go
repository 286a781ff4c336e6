package compaction

import (
	"fmt"
	"slices"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

// PruneConfig says which old tool output may be replaced by a notice.
type PruneConfig struct {
	ProtectTokens  int      // the newest tool output kept whole, in tokens
	MinimumSavings int      // prune only when at least this many tokens are saved
	ProtectedTools []string // tools whose output is never pruned
}

// DefaultPruneConfig is omp's policy: keep the newest 40,000 tokens of tool
// output, prune only to save 20,000 or more, never prune read or skill
// output (the model re-reads those rather than re-running them).
var DefaultPruneConfig = PruneConfig{ProtectTokens: 40_000, MinimumSavings: 20_000, ProtectedTools: []string{"skill", "read"}}

// PrunedNotice is the text that replaces pruned output of n tokens.
func PrunedNotice(n int) string { return fmt.Sprintf("[Output truncated - %d tokens]", n) }

// PlanPrune chooses the tool results of a path to prune: walking back from
// the newest, tool output is kept until ProtectTokens of it have been seen
// (output of protected tools and output pruned before is kept and counts
// toward that); every older result is pruned, provided the notices save
// MinimumSavings tokens in all. Only results the model is still sent are
// considered: with a compaction on the path, those from the entry it keeps
// from (see sentFrom). Output the compaction summarised is left alone, and
// is never counted as saved, since dropping it would not shrink the
// request. It returns the prunes (PrunedAt = now, in Unix milliseconds)
// and the tokens saved; none when the saving is too small.
func PlanPrune(path []*session.Entry, cfg PruneConfig, c *Counter, now int64) ([]session.Prune, int) {
	acc, saved := 0, 0
	var out []session.Prune
	from := sentFrom(path)
	for i := len(path) - 1; i >= from; i-- {
		e := path[i]
		r, ok := e.Message.(*ai.ToolResultMessage)
		if !ok || e.Type != session.TypeMessage {
			continue
		}
		n := c.Count(r)
		if r.PrunedAt != 0 || acc < cfg.ProtectTokens || slices.Contains(cfg.ProtectedTools, r.ToolName) {
			acc += n
			continue
		}
		acc += n
		notice := PrunedNotice(n)
		saved += max(0, n-(len(notice)+3)/4)
		out = append(out, session.Prune{EntryID: e.ID, Text: notice, PrunedAt: now})
	}
	if len(out) == 0 || saved < cfg.MinimumSavings {
		return nil, 0
	}
	return out, saved
}

// sentFrom returns the index of the first entry of path whose message
// still goes to the model, by the rule session.BuildContext follows: 0
// without a compaction; with one, the latest compaction's first kept entry
// (searched before the compaction), or the entry right after the
// compaction when that entry is not there or a provider's replacement
// history stands for the kept part.
func sentFrom(path []*session.Entry) int {
	for i := len(path) - 1; i >= 0; i-- {
		c := path[i].Compaction
		if c == nil {
			continue
		}
		if replacesKept(c) {
			return i + 1
		}
		for j := range i {
			if path[j].ID == c.FirstKeptEntryID {
				return j
			}
		}
		return i + 1
	}
	return 0
}
