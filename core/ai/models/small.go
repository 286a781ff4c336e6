package models

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// smallHints are parts of the ids of a provider's small, fast models, in
// order of preference.
var smallHints = []string{"haiku", "flash-lite", "mini", "nano", "flash"}

// SmallModel returns a small, fast model of provider (Claude Haiku, Gemini
// Flash-Lite, GPT mini or nano, …) for light work such as titles and
// commit messages; nil when the catalogue has none.
func (r *Registry) SmallModel(provider string) *ai.Model {
	models := r.Models()
	for _, hint := range smallHints {
		for _, m := range models {
			if m.Provider == provider && strings.Contains(m.ID, hint) {
				return m
			}
		}
	}
	return nil
}
