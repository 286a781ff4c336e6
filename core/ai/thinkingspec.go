package ai

// Thinking control modes: how a provider encodes the chosen level on the
// wire. They are omp's catalogue values, kept as strings so a catalogue
// update with a new mode still loads.
const (
	ThinkingModeEffort            = "effort"                  // a reasoning effort string (OpenAI-style)
	ThinkingModeBudget            = "budget"                  // a token budget (Anthropic, Gemini 2.5)
	ThinkingModeGoogleLevel       = "google-level"            // Gemini 3's thinkingLevel enum
	ThinkingModeAnthropicAdaptive = "anthropic-adaptive"      // Claude 4.6+: adaptive thinking with an effort
	ThinkingModeAnthropicEffort   = "anthropic-budget-effort" // Claude 4.5: a budget plus an effort
)

// ThinkingSpec says which thinking levels a model accepts and how they are
// sent. Levels, when set, is the exact set (it may have gaps, such as low
// and high without medium); otherwise every level from MinLevel to
// MaxLevel is accepted.
type ThinkingSpec struct {
	Mode     string          `json:"mode" yaml:"mode"`                         // one of the ThinkingMode constants
	MinLevel ThinkingLevel   `json:"minLevel" yaml:"minLevel"`                 // least effort accepted
	MaxLevel ThinkingLevel   `json:"maxLevel" yaml:"maxLevel"`                 // most effort accepted
	Levels   []ThinkingLevel `json:"levels,omitempty" yaml:"levels,omitempty"` // exact set when it has gaps
}

// Supported lists the accepted levels, least effort first (never "off").
// A malformed range yields nil.
func (s *ThinkingSpec) Supported() []ThinkingLevel {
	if s == nil {
		return nil
	}
	if len(s.Levels) > 0 {
		return s.Levels
	}
	lo, hi := levelIndex(s.MinLevel), levelIndex(s.MaxLevel)
	if lo <= 0 || hi < lo {
		return nil
	}
	return ThinkingLevels[lo : hi+1]
}

// Clamp maps a requested level onto the accepted set: the level itself when
// accepted, else the strongest accepted level below it, else the weakest
// accepted level. Off stays off; a spec that accepts nothing returns the
// request unchanged.
func (s *ThinkingSpec) Clamp(level ThinkingLevel) ThinkingLevel {
	levels := s.Supported()
	if level == ThinkingOff || len(levels) == 0 {
		return level
	}
	want := levelIndex(level)
	best := ThinkingLevel("")
	for _, l := range levels {
		if l == level {
			return l
		}
		if levelIndex(l) < want {
			best = l
		}
	}
	if best == "" {
		return levels[0]
	}
	return best
}

// levelIndex is the position of a level in ThinkingLevels, -1 if unknown.
func levelIndex(l ThinkingLevel) int {
	for i, x := range ThinkingLevels {
		if x == l {
			return i
		}
	}
	return -1
}
