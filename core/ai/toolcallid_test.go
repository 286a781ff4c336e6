package ai

import (
	"strings"
	"testing"
)

func TestCleanToolCallID(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "",
		"toolu_01-ab":           "toolu_01-ab",
		"call_1|fc_2":           "call_1_fc_2",
		strings.Repeat("a", 70): strings.Repeat("a", 64),
	} {
		if got := CleanToolCallID(in); got != want {
			t.Errorf("CleanToolCallID(%q) = %q, want %q", in, got, want)
		}
	}
}
