package config

import (
	"strconv"
	"strings"
)

// Environment variables that force a setting. They form the env layer,
// above the project files and below runtime overrides (a CLI flag such as
// --smol still wins over PI_SMOL_MODEL).
const (
	EnvEditVariant  = "PI_EDIT_VARIANT"            // edit.mode when it names a mode
	EnvSmolModel    = "PI_SMOL_MODEL"              // modelRoles.smol
	EnvSlowModel    = "PI_SLOW_MODEL"              // modelRoles.slow
	EnvPlanModel    = "PI_PLAN_MODEL"              // modelRoles.plan
	EnvReadLimit    = "GOPI_READ_DEFAULT_LIMIT"    // read.defaultLimit (a non-negative integer)
	EnvSearchBefore = "GOPI_SEARCH_CONTEXT_BEFORE" // search.contextBefore (a non-negative integer)
	EnvSearchAfter  = "GOPI_SEARCH_CONTEXT_AFTER"  // search.contextAfter (a non-negative integer)
)

// envLayer collects the settings environment variables force. Values that
// do not fit (an unknown edit mode, a negative count) are ignored, as the
// reference ignores them.
func envLayer(env Env) map[string]any {
	m := map[string]any{}
	if mode, ok := ParseEditMode(env.Get(EnvEditVariant)); ok {
		setPath(m, splitKey("edit.mode"), mode)
	}
	for role, name := range map[string]string{"smol": EnvSmolModel, "slow": EnvSlowModel, "plan": EnvPlanModel} {
		if v := strings.TrimSpace(env.Get(name)); v != "" {
			setPath(m, []string{"modelRoles", role}, v)
		}
	}
	for key, name := range map[string]string{"read.defaultLimit": EnvReadLimit, "search.contextBefore": EnvSearchBefore, "search.contextAfter": EnvSearchAfter} {
		if n, err := strconv.Atoi(strings.TrimSpace(env.Get(name))); err == nil && n >= 0 {
			setPath(m, splitKey(key), n)
		}
	}
	return m
}

// ParseEditMode recognises an edit mode name (case and surrounding space
// ignored): apply_patch, hashline, patch, replace or vim; the retired
// "atom" is hashline.
func ParseEditMode(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "atom" {
		return "hashline", true
	}
	d, _ := Lookup("edit.mode")
	for _, m := range d.Values {
		if m == s {
			return s, true
		}
	}
	return "", false
}
