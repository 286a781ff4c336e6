package config

import (
	"path/filepath"
	"strings"
)

// Memory backends (memory.backend).
const (
	MemoryOff       = "off"
	MemoryLocal     = "local"
	MemoryHindsight = "hindsight"
)

// Hindsight is the hindsight memory backend's configuration: its server,
// the bank the session writes to and reads from, and the recall options.
type Hindsight struct {
	Enabled      bool     // memory.backend is hindsight: recall, retain and reflect are offered
	APIURL       string   // HINDSIGHT_API_URL, else hindsight.apiUrl
	APIToken     string   // HINDSIGHT_API_TOKEN, else hindsight.apiToken: sent as a Bearer token
	BankID       string   // the bank, after scoping (see HindsightConfig)
	RetainTags   []string // tags put on retained memories (per-project-tagged scoping)
	RecallTags   []string // tags recall and reflect filter on, matched "any"
	RetainCtx    string   // hindsight.retainContext: the context of items without their own
	BankMission  string   // HINDSIGHT_BANK_MISSION, else hindsight.bankMission: set once before the first write
	RetainMisson string   // hindsight.retainMission
	RecallBudget string   // hindsight.recallBudget: low, mid or high
	RecallMax    int      // hindsight.recallMaxTokens
	RecallTypes  []string // hindsight.recallTypes
}

// HindsightConfig returns the hindsight backend's configuration for a
// session in cwd. The bank is hindsight.bankId (HINDSIGHT_BANK_ID; "omp"
// when unset, after hindsight.bankIdPrefix and a dash when set); with
// hindsight.scoping per-project the working directory's name is appended
// to it, with per-project-tagged (the default) memories are tagged
// project:<name> instead.
func HindsightConfig(c *Config, cwd string) Hindsight {
	s := c.Settings
	pick := func(env, key string) string {
		if v := strings.TrimSpace(c.Env.Get(env)); v != "" {
			return v
		}
		return strings.TrimSpace(s.String(key))
	}
	h := Hindsight{
		Enabled:      s.String("memory.backend") == MemoryHindsight,
		APIURL:       strings.TrimRight(pick("HINDSIGHT_API_URL", "hindsight.apiUrl"), "/"),
		APIToken:     pick("HINDSIGHT_API_TOKEN", "hindsight.apiToken"),
		RetainCtx:    s.String("hindsight.retainContext"),
		BankMission:  pick("HINDSIGHT_BANK_MISSION", "hindsight.bankMission"),
		RetainMisson: strings.TrimSpace(s.String("hindsight.retainMission")),
		RecallBudget: s.String("hindsight.recallBudget"),
		RecallMax:    s.Int("hindsight.recallMaxTokens"),
		RecallTypes:  s.Strings("hindsight.recallTypes"),
	}
	bank := pick("HINDSIGHT_BANK_ID", "hindsight.bankId")
	if bank == "" {
		bank = "omp"
	}
	if p := strings.TrimSpace(s.String("hindsight.bankIdPrefix")); p != "" {
		bank = p + "-" + bank
	}
	project := filepath.Base(cwd)
	if cwd == "" || project == "." || project == string(filepath.Separator) {
		project = "unknown"
	}
	switch s.String("hindsight.scoping") {
	case "global":
	case "per-project":
		bank += "-" + project
	default:
		h.RetainTags = []string{"project:" + project}
		h.RecallTags = h.RetainTags
	}
	h.BankID = bank
	return h
}
