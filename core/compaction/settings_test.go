package compaction

import (
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

func TestThreshold(t *testing.T) {
	def := Settings{Enabled: true, Strategy: StrategyContextFull, ThresholdPercent: -1, ThresholdTokens: -1, ReserveTokens: 16384, KeepRecentTokens: 20000}
	with := func(f func(*Settings)) Settings { s := def; f(&s); return s }
	for _, tc := range []struct {
		name   string
		window int
		s      Settings
		want   int
	}{
		{"defaults: 15% of a large window", 200000, def, 170000},
		{"defaults: the reserve floor on a small window", 32768, def, 32768 - 16384},
		{"a larger reserve setting", 200000, with(func(s *Settings) { s.ReserveTokens = 50000 }), 150000},
		{"percent", 200000, with(func(s *Settings) { s.ThresholdPercent = 50 }), 100000},
		{"percent clamped to 99", 200000, with(func(s *Settings) { s.ThresholdPercent = 150 }), 198000},
		{"percent clamped to 1", 200000, with(func(s *Settings) { s.ThresholdPercent = 0.2 }), 2000},
		{"tokens win over percent", 200000, with(func(s *Settings) { s.ThresholdTokens = 64000; s.ThresholdPercent = 50 }), 64000},
		{"tokens clamped below the window", 200000, with(func(s *Settings) { s.ThresholdTokens = 500000 }), 199999},
		{"zero means unset", 200000, with(func(s *Settings) { s.ThresholdTokens = 0; s.ThresholdPercent = 0 }), 170000},
	} {
		if got := Threshold(tc.window, tc.s); got != tc.want {
			t.Errorf("%s: Threshold = %d, want %d", tc.name, got, tc.want)
		}
	}
	if !ShouldCompact(170001, 200000, def) || ShouldCompact(170000, 200000, def) {
		t.Error("ShouldCompact is not strictly over the threshold")
	}
	if ShouldCompact(1e6, 200000, with(func(s *Settings) { s.Enabled = false })) ||
		ShouldCompact(1e6, 200000, with(func(s *Settings) { s.Strategy = StrategyOff })) ||
		ShouldCompact(1e6, 0, def) {
		t.Error("compacts while disabled, off, or without a window")
	}
}

func TestUsageTokens(t *testing.T) {
	u := ai.Usage{Input: 10, Output: 5, CacheRead: 100, CacheWrite: 20}
	if ContextTokens(u) != 135 || PromptTokens(u) != 130 {
		t.Errorf("context %d prompt %d", ContextTokens(u), PromptTokens(u))
	}
	u.TotalTokens = 999
	if ContextTokens(u) != 999 {
		t.Error("the provider's total is not preferred")
	}
	if PromptTokens(ai.Usage{TotalTokens: 7}) != 7 {
		t.Error("a total without parts is not the prompt size")
	}
	for _, stop := range []ai.StopReason{ai.StopReasonAborted, ai.StopReasonError} {
		if _, ok := UsableUsage(&ai.AssistantMessage{StopReason: stop}); ok {
			t.Errorf("usage of a %s message is used", stop)
		}
	}
}
