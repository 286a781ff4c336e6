package config

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
	Scoping      string   // hindsight.scoping (HINDSIGHT_SCOPING): global, per-project or per-project-tagged

	Auto   HindsightAuto   // automatic recall before a run and retain after runs
	Models HindsightModels // mental models
}

// HindsightAuto is what the hindsight backend does on its own around the
// agent's runs.
type HindsightAuto struct {
	Recall             bool   // hindsight.autoRecall (HINDSIGHT_AUTO_RECALL): recall before the first run
	Retain             bool   // hindsight.autoRetain (HINDSIGHT_AUTO_RETAIN): retain the transcript every few user turns
	RetainMode         string // hindsight.retainMode (HINDSIGHT_RETAIN_MODE): full-session or last-turn
	RetainEveryN       int    // hindsight.retainEveryNTurns (HINDSIGHT_RETAIN_EVERY_N_TURNS)
	RetainOverlap      int    // hindsight.retainOverlapTurns: turns a last-turn window repeats
	RecallContextTurns int    // hindsight.recallContextTurns (HINDSIGHT_RECALL_CONTEXT_TURNS): turns in the recall query
	RecallMaxChars     int    // hindsight.recallMaxQueryChars (HINDSIGHT_RECALL_MAX_QUERY_CHARS)
}

// HindsightModels configures the bank's mental models (server-side
// summaries shown to the model in a <mental_models> block).
type HindsightModels struct {
	Enabled  bool          // hindsight.mentalModelsEnabled
	AutoSeed bool          // hindsight.mentalModelAutoSeed: create the built-in models a bank lacks
	Refresh  time.Duration // hindsight.mentalModelRefreshIntervalMs: how old the block may get
	MaxChars int           // hindsight.mentalModelMaxRenderChars: the block's size bound
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
		Scoping:      oneOf(pick("HINDSIGHT_SCOPING", "hindsight.scoping"), "per-project-tagged", "global", "per-project"),
	}
	if b := oneOf(strings.TrimSpace(c.Env.Get("HINDSIGHT_RECALL_BUDGET")), "", "low", "mid", "high"); b != "" {
		h.RecallBudget = b
	}
	envInt := func(env, key string) int {
		if n, err := strconv.Atoi(strings.TrimSpace(c.Env.Get(env))); err == nil {
			return n
		}
		return s.Int(key)
	}
	envBool := func(env, key string) bool {
		switch strings.ToLower(strings.TrimSpace(c.Env.Get(env))) {
		case "":
			return s.Bool(key)
		case "true", "1", "yes":
			return true
		}
		return false
	}
	h.RecallMax = envInt("HINDSIGHT_RECALL_MAX_TOKENS", "hindsight.recallMaxTokens")
	h.Auto = HindsightAuto{
		Recall:             envBool("HINDSIGHT_AUTO_RECALL", "hindsight.autoRecall"),
		Retain:             envBool("HINDSIGHT_AUTO_RETAIN", "hindsight.autoRetain"),
		RetainMode:         oneOf(pick("HINDSIGHT_RETAIN_MODE", "hindsight.retainMode"), "full-session", "last-turn"),
		RetainEveryN:       envInt("HINDSIGHT_RETAIN_EVERY_N_TURNS", "hindsight.retainEveryNTurns"),
		RetainOverlap:      s.Int("hindsight.retainOverlapTurns"),
		RecallContextTurns: envInt("HINDSIGHT_RECALL_CONTEXT_TURNS", "hindsight.recallContextTurns"),
		RecallMaxChars:     envInt("HINDSIGHT_RECALL_MAX_QUERY_CHARS", "hindsight.recallMaxQueryChars"),
	}
	h.Models = HindsightModels{
		Enabled:  s.Bool("hindsight.mentalModelsEnabled"),
		AutoSeed: s.Bool("hindsight.mentalModelAutoSeed"),
		Refresh:  time.Duration(s.Int("hindsight.mentalModelRefreshIntervalMs")) * time.Millisecond,
		MaxChars: s.Int("hindsight.mentalModelMaxRenderChars"),
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
	switch h.Scoping {
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

// oneOf returns v when it is one of allowed, else def (a value the
// setting does not know falls back to its default, as omp's does).
func oneOf(v, def string, allowed ...string) string {
	if v == def {
		return v
	}
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	return def
}
