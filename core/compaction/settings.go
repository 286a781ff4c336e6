package compaction

import (
	"math"

	"github.com/gopi-agent/gopi/core/ai"
)

// Strategies of compaction.strategy.
const (
	StrategyContextFull = "context-full" // summarise in place (the default)
	StrategyHandoff     = "handoff"      // hand the work to a new session (falls back to context-full)
	StrategyOff         = "off"          // never compact automatically
)

// Defaults of the compaction.* settings.
const (
	DefaultReserveTokens    = 16384
	DefaultKeepRecentTokens = 20000
)

// Settings are the compaction.* settings this package uses.
type Settings struct {
	Enabled          bool    // compaction.enabled: automatic compaction is on
	Strategy         string  // compaction.strategy: context-full, handoff or off
	ThresholdPercent float64 // compaction.thresholdPercent: ≤ 0 (default -1) leaves it to the reserve
	ThresholdTokens  int     // compaction.thresholdTokens: ≤ 0 (default -1) leaves it to the percent or the reserve
	ReserveTokens    int     // compaction.reserveTokens: room kept for the answer and the summary (default 16384)
	KeepRecentTokens int     // compaction.keepRecentTokens: newest tokens kept verbatim (default 20000)
}

// Auto reports whether automatic compaction is on (enabled, strategy not off).
func (s Settings) Auto() bool { return s.Enabled && s.Strategy != StrategyOff }

// reservePercent is the share of the window always kept free.
const reservePercent = 0.15

// Reserve returns the tokens kept free below the window: 15% of it, or
// reserveTokens when that is more.
func Reserve(contextWindow int, s Settings) int {
	return max(int(math.Floor(float64(contextWindow)*reservePercent)), s.ReserveTokens)
}

// Threshold returns the context size above which a session compacts:
// thresholdTokens when positive (clamped to 1 … window-1), else
// thresholdPercent of the window when positive (clamped to 1 … 99 %),
// else the window minus Reserve.
func Threshold(contextWindow int, s Settings) int {
	if s.ThresholdTokens > 0 {
		return min(contextWindow-1, max(1, s.ThresholdTokens))
	}
	if p := s.ThresholdPercent; p > 0 && !math.IsInf(p, 0) && !math.IsNaN(p) {
		p = min(99, max(1, p))
		return int(math.Floor(float64(contextWindow) * p / 100))
	}
	return contextWindow - Reserve(contextWindow, s)
}

// ShouldCompact reports whether a context of contextTokens must be
// compacted automatically: compaction is on, the window is known and the
// context is over Threshold.
func ShouldCompact(contextTokens, contextWindow int, s Settings) bool {
	if !s.Auto() || contextWindow <= 0 {
		return false
	}
	return contextTokens > Threshold(contextWindow, s)
}

// ContextTokens returns the size of the context a response saw and
// produced: the provider's total, else the sum of its parts.
func ContextTokens(u ai.Usage) int {
	if u.TotalTokens > 0 {
		return u.TotalTokens
	}
	return u.Input + u.Output + u.CacheRead + u.CacheWrite
}

// PromptTokens returns the prompt part of a usage (input, cache reads and
// writes), or ContextTokens when the provider did not split it.
func PromptTokens(u ai.Usage) int {
	if p := u.Input + u.CacheRead + u.CacheWrite; p > 0 {
		return p
	}
	return ContextTokens(u)
}

// UsableUsage returns the usage of an assistant message that completed
// (not aborted, not failed), or false.
func UsableUsage(m ai.Message) (ai.Usage, bool) {
	a, ok := m.(*ai.AssistantMessage)
	if !ok || a.StopReason == ai.StopReasonAborted || a.StopReason == ai.StopReasonError {
		return ai.Usage{}, false
	}
	return a.Usage, true
}
