package openairesponses

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
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

// A service tier (/fast) is sent as service_tier; none sends nothing.
func TestServiceTier(t *testing.T) {
	req := &ai.Request{Model: &ai.Model{ID: "gpt-5"}, ServiceTier: "priority"}
	if p := BuildPayload(req); p["service_tier"] != "priority" {
		t.Errorf("payload %v", p)
	}
	req.ServiceTier = ""
	if _, ok := BuildPayload(req)["service_tier"]; ok {
		t.Error("service_tier sent without a tier")
	}
}
