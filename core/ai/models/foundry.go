package models

import (
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// Foundry mode routes the anthropic provider through an Azure Foundry or
// enterprise gateway: CLAUDE_CODE_USE_FOUNDRY enables it, FOUNDRY_BASE_URL
// replaces the base URL, ANTHROPIC_FOUNDRY_API_KEY comes first in the key
// chain and is sent as a bearer token, and ANTHROPIC_CUSTOM_HEADERS adds
// "name: value" headers separated by commas or newlines.
const (
	foundryEnable  = "CLAUDE_CODE_USE_FOUNDRY"
	foundryBaseURL = "FOUNDRY_BASE_URL"
	foundryKey     = "ANTHROPIC_FOUNDRY_API_KEY"
	customHeaders  = "ANTHROPIC_CUSTOM_HEADERS"
)

// foundryEnabled reports whether CLAUDE_CODE_USE_FOUNDRY is 1/true/yes/on.
func (r *Registry) foundryEnabled() bool {
	switch strings.ToLower(strings.TrimSpace(r.getenv(foundryEnable))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// applyFoundry adjusts an anthropic request in Foundry mode. It reports
// whether a Foundry key was used (the bearer header is then already set).
func (r *Registry) applyFoundry(req *ai.Request) bool {
	if req.Model.Provider != "anthropic" || !r.foundryEnabled() {
		return false
	}
	if u := strings.TrimSpace(r.getenv(foundryBaseURL)); u != "" && req.BaseURL == "" {
		req.BaseURL = u
	}
	h := map[string]string{}
	for k, v := range ParseHeaderList(r.getenv(customHeaders)) {
		h[k] = v
	}
	for k, v := range req.Headers {
		h[k] = v
	}
	used := false
	if req.APIKey == "" {
		if k := strings.TrimSpace(r.getenv(foundryKey)); k != "" {
			h["Authorization"] = "Bearer " + k
			used = true
		}
	}
	if len(h) > 0 {
		req.Headers = h
	}
	return used
}

// ParseHeaderList parses "name: value" pairs separated by commas or
// newlines; malformed entries are skipped.
func ParseHeaderList(s string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' }) {
		name, value, ok := strings.Cut(part, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if ok && name != "" {
			out[name] = value
		}
	}
	return out
}
