package config

import (
	"strings"
	"time"
)

// Typed accessors for the settings the agent loop and the tools read. Each
// returns the merged value or the schema default; the key is named in the
// comment.

// Queue delivery modes (steeringMode, followUpMode).
const (
	QueueOneAtATime = "one-at-a-time" // one queued message per turn (default)
	QueueAll        = "all"           // every queued message at once
)

// Interrupt modes (interruptMode).
const (
	InterruptImmediate = "immediate" // steering is checked between tool calls (default)
	InterruptWait      = "wait"      // steering waits for the end of the turn
)

// SteeringMode is steeringMode: QueueOneAtATime or QueueAll.
func (s *Settings) SteeringMode() string { return s.String("steeringMode") }

// FollowUpMode is followUpMode: QueueOneAtATime or QueueAll.
func (s *Settings) FollowUpMode() string { return s.String("followUpMode") }

// InterruptMode is interruptMode: InterruptImmediate or InterruptWait.
func (s *Settings) InterruptMode() string { return s.String("interruptMode") }

// Retry is the retry.* group.
type Retry struct {
	Enabled    bool          // retry.enabled: retry a failed request (default true)
	MaxRetries int           // retry.maxRetries (default 3)
	BaseDelay  time.Duration // retry.baseDelayMs (default 2s)
}

// Retry returns the retry.* settings.
func (s *Settings) Retry() Retry {
	return Retry{
		Enabled:    s.Bool("retry.enabled"),
		MaxRetries: s.Int("retry.maxRetries"),
		BaseDelay:  time.Duration(s.Float("retry.baseDelayMs") * float64(time.Millisecond)),
	}
}

// Compaction is the compaction.* group.
type Compaction struct {
	Enabled             bool          // compaction.enabled (default true)
	Strategy            string        // compaction.strategy: context-full (default), handoff, off
	ThresholdPercent    float64       // compaction.thresholdPercent; -1 (default) leaves it to the reserve
	ThresholdTokens     int           // compaction.thresholdTokens; -1 (default) leaves it to the reserve
	ReserveTokens       int           // compaction.reserveTokens (default 16384)
	KeepRecentTokens    int           // compaction.keepRecentTokens (default 20000)
	AutoContinue        bool          // compaction.autoContinue (default true)
	HandoffSaveToDisk   bool          // compaction.handoffSaveToDisk (default false)
	RemoteEnabled       bool          // compaction.remoteEnabled (default true)
	RemoteEndpoint      string        // compaction.remoteEndpoint (default unset)
	IdleEnabled         bool          // compaction.idleEnabled (default true)
	IdleThresholdTokens int           // compaction.idleThresholdTokens (default 200000)
	IdleTimeout         time.Duration // compaction.idleTimeoutSeconds (default 300s)
}

// Compaction returns the compaction.* settings.
func (s *Settings) Compaction() Compaction {
	return Compaction{
		Enabled:             s.Bool("compaction.enabled"),
		Strategy:            s.String("compaction.strategy"),
		ThresholdPercent:    s.Float("compaction.thresholdPercent"),
		ThresholdTokens:     s.Int("compaction.thresholdTokens"),
		ReserveTokens:       s.Int("compaction.reserveTokens"),
		KeepRecentTokens:    s.Int("compaction.keepRecentTokens"),
		AutoContinue:        s.Bool("compaction.autoContinue"),
		HandoffSaveToDisk:   s.Bool("compaction.handoffSaveToDisk"),
		RemoteEnabled:       s.Bool("compaction.remoteEnabled"),
		RemoteEndpoint:      s.String("compaction.remoteEndpoint"),
		IdleEnabled:         s.Bool("compaction.idleEnabled"),
		IdleThresholdTokens: s.Int("compaction.idleThresholdTokens"),
		IdleTimeout:         time.Duration(s.Float("compaction.idleTimeoutSeconds") * float64(time.Second)),
	}
}

// EditMode is edit.mode (PI_EDIT_VARIANT forces it through the env
// layer): apply_patch, hashline (default), patch, replace or vim.
func (s *Settings) EditMode() string { return s.String("edit.mode") }

// EditModeFor is the edit mode for a model: the first edit.modelVariants
// entry whose pattern the model id contains (patterns in sorted order),
// else EditMode.
func (s *Settings) EditModeFor(model string) string {
	if model != "" {
		variants, _ := s.value("edit.modelVariants").(map[string]any)
		for _, pattern := range sortedKeys(variants) {
			if v, ok := variants[pattern].(string); ok && strings.Contains(model, pattern) {
				if m, ok := ParseEditMode(v); ok {
					return m
				}
			}
		}
	}
	return s.EditMode()
}

// Read is what the read tool shows.
type Read struct {
	DefaultLimit int  // read.defaultLimit: lines of an open-ended read (default 500)
	HashLines    bool // readHashLines: hashline anchors in hashline mode (default true)
	LineNumbers  bool // readLineNumbers: plain line numbers otherwise (default false)
	Summarize    bool // read.summarize.enabled: structural summaries of long source files (default true)
	MinBodyLines int  // read.summarize.minBodyLines: shortest function body a summary elides (default 4)
	// MinCommentLines is read.summarize.minCommentLines: the shortest run
	// of comment lines a summary shortens to its first line (default 6).
	MinCommentLines int
	// SQLiteTimeout is read.sqlite.timeoutMs: how long one SQLite read
	// may run before it is interrupted (DefaultSQLiteTimeout unless set
	// to a positive value).
	SQLiteTimeout time.Duration
}

// DefaultSQLiteTimeout is how long one SQLite read may run when
// read.sqlite.timeoutMs does not say otherwise.
const DefaultSQLiteTimeout = 30 * time.Second

// Read returns the read tool's settings.
func (s *Settings) Read() Read {
	return Read{
		DefaultLimit:    s.Int("read.defaultLimit"),
		HashLines:       s.Bool("readHashLines"),
		LineNumbers:     s.Bool("readLineNumbers"),
		Summarize:       s.Bool("read.summarize.enabled"),
		MinBodyLines:    s.Int("read.summarize.minBodyLines"),
		MinCommentLines: s.Int("read.summarize.minCommentLines"),
		SQLiteTimeout:   positiveMillis(s.Float("read.sqlite.timeoutMs"), DefaultSQLiteTimeout),
	}
}

// DefaultExtensionToolTimeout is how long one call of an extension's tool
// may run when tools.extensionTimeoutMs does not say otherwise.
const DefaultExtensionToolTimeout = 2 * time.Minute

// ExtensionToolTimeout returns tools.extensionTimeoutMs: how long one call
// of a tool an extension or custom tool module provides may run before it
// is cancelled (DefaultExtensionToolTimeout unless set to a positive
// value).
func (s *Settings) ExtensionToolTimeout() time.Duration {
	return positiveMillis(s.Float("tools.extensionTimeoutMs"), DefaultExtensionToolTimeout)
}

// positiveMillis is ms milliseconds, or def when ms is not positive.
func positiveMillis(ms float64, def time.Duration) time.Duration {
	if ms <= 0 {
		return def
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// SearchContext returns search.contextBefore and search.contextAfter
// (defaults 1 and 3).
func (s *Settings) SearchContext() (before, after int) {
	return s.Int("search.contextBefore"), s.Int("search.contextAfter")
}

// Model roles of modelRoles.
const (
	RoleDefault = "default" // the main model
	RoleSmol    = "smol"    // small and fast (PI_SMOL_MODEL)
	RoleSlow    = "slow"    // large and thorough (PI_SLOW_MODEL)
	RolePlan    = "plan"    // planning (PI_PLAN_MODEL)
	RoleVision  = "vision"  // image input
)

// ModelRoles returns modelRoles: role name → model ("provider/id",
// optionally with ":thinking"); PI_SMOL_MODEL, PI_SLOW_MODEL and
// PI_PLAN_MODEL override their roles. Never nil.
func (s *Settings) ModelRoles() map[string]string { return s.StringMap("modelRoles") }

// ModelRole returns one role's model, "" when the role is not assigned.
func (s *Settings) ModelRole(role string) string { return s.ModelRoles()[role] }

// DefaultThinkingLevel is defaultThinkingLevel: minimal, low, medium, high
// (default) or xhigh.
func (s *Settings) DefaultThinkingLevel() string { return s.String("defaultThinkingLevel") }

// A front end whose calls may need the user's approval, as named in its
// <front end>.requirePermission setting.
const (
	// PermissionACP is `gopi acp`: it asks the editor (by default "*",
	// every call that may change files or run programs).
	PermissionACP = "acp"
	// PermissionRPC is --mode rpc: it asks the host through an extension
	// UI select dialog (none by default).
	PermissionRPC = "rpc"
	// PermissionTUI is the interactive mode: it asks the user (none by
	// default).
	PermissionTUI = "tui"
)

// RequirePermission returns the permission patterns of a front end
// (PermissionACP, PermissionRPC or PermissionTUI): the calls it asks to
// have approved first (its <front end>.requirePermission setting).
func (s *Settings) RequirePermission(frontEnd string) []string {
	return s.Strings(frontEnd + ".requirePermission")
}
