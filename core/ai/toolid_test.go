package ai

import (
	"strings"
	"testing"
)

func TestNormalizeToolCallID(t *testing.T) {
	for in, want := range map[string]string{
		"toolu_01A-b":           "toolu_01A-b",
		"call_1|fc_2":           "call_1_fc_2",
		"":                      "toolu_unknown",
		strings.Repeat("x", 70): strings.Repeat("x", 64),
		"functions.read:0":      "functions_read_0",
	} {
		if got := NormalizeToolCallID(in); got != want {
			t.Errorf("NormalizeToolCallID(%q) = %q, want %q", in, got, want)
		}
	}
}
