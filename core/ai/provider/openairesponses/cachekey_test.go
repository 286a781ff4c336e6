package openairesponses

import (
	"strings"
	"testing"
)

func TestPromptCacheKey(t *testing.T) {
	short := strings.Repeat("é", 64)
	if PromptCacheKey(short) != short || PromptCacheKey("") != "" {
		t.Error("keys up to 64 characters must pass unchanged")
	}
	long := PromptCacheKey(strings.Repeat("s", 65))
	if !strings.HasPrefix(long, "pc_") || len(long) > 64 || long != PromptCacheKey(strings.Repeat("s", 65)) || long == PromptCacheKey(strings.Repeat("t", 65)) {
		t.Errorf("long key = %q", long)
	}
}
