package config

import (
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

// Environment variables the engines' values come from. The engines
// themselves never read them: cmd/gopi and the session pass the values
// down.
const (
	EnvScanCacheTTL      = "FS_SCAN_CACHE_TTL_MS"      // scan cache TTL in ms (0 disables caching)
	EnvScanEmptyRecheck  = "FS_SCAN_EMPTY_RECHECK_MS"  // age in ms after which an empty result is rechecked
	EnvScanCacheEntries  = "FS_SCAN_CACHE_MAX_ENTRIES" // cached scans kept (at least 1)
	EnvMaxASTFiles       = "PI_MAX_AST_FILES"          // files one AST rewrite may change
	EnvASTParseCacheMB   = "PI_AST_PARSE_CACHE_MB"     // parse cache budget of the AST tools in MiB (0 turns it off)
	EnvGrepContentMB     = "PI_GREP_CONTENT_CACHE_MB"  // file-content cache budget of the search tool in MiB (0 turns it off)
	EnvHashlineSeparator = "PI_HL_SEP"                 // prefix of hashline edit payload lines
	EnvNoTitle           = "PI_NO_TITLE"               // any value turns off session title generation
	EnvNullPrompt        = "NULL_PROMPT"               // "true": requests carry no system prompt
)

// maxEnvMillis keeps durations far from time.Duration overflow (about 292
// years fit; a million hours is plenty).
const maxEnvMillis = int64(1e6 * 3600 * 1000)

// ScanCachePolicy is the directory scan cache's policy: fscache's defaults
// with FS_SCAN_CACHE_TTL_MS and FS_SCAN_EMPTY_RECHECK_MS (milliseconds, 0
// allowed) and FS_SCAN_CACHE_MAX_ENTRIES (at least 1) applied when they are
// decimal integers in range, and the user's global git excludes file
// (found from the home directory and XDG_CONFIG_HOME).
func (c *Config) ScanCachePolicy() fscache.Policy {
	p := fscache.DefaultPolicy
	if ms, ok := envInt(c.Env, EnvScanCacheTTL, 0); ok {
		p.TTL = time.Duration(ms) * time.Millisecond
	}
	if ms, ok := envInt(c.Env, EnvScanEmptyRecheck, 0); ok {
		p.EmptyRecheck = time.Duration(ms) * time.Millisecond
	}
	if n, ok := envInt(c.Env, EnvScanCacheEntries, 1); ok {
		p.MaxEntries = int(n)
	}
	p.ExcludesFile = fscache.GlobalExcludesPath(c.Home, c.Env.Get("XDG_CONFIG_HOME"))
	return p
}

// envInt parses a decimal variable that must be at least lowest (and at
// most maxEnvMillis).
func envInt(env Env, name string, lowest int64) (int64, bool) {
	v := env.Get(name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lowest || n > maxEnvMillis {
		return 0, false
	}
	return n, true
}

// ASTMaxFiles is PI_MAX_AST_FILES when it is a positive integer, else 0
// (the AST engine's own default applies).
func (c *Config) ASTMaxFiles() int {
	if n, err := strconv.Atoi(strings.TrimSpace(c.Env.Get(EnvMaxASTFiles))); err == nil && n > 0 {
		return n
	}
	return 0
}

// CacheBudgets are the byte budgets of the engines' caches, each 0 when
// its variable is unset or invalid (the engine's default applies), -1 when
// set to 0 (cache off), else the bytes.
type CacheBudgets struct {
	ASTParse    int64 // the AST tools' parse cache: PI_AST_PARSE_CACHE_MB (MiB)
	GrepContent int64 // the search tool's file-content cache: PI_GREP_CONTENT_CACHE_MB (MiB)
}

// CacheBudgets returns the engines' cache budgets from the environment.
func (c *Config) CacheBudgets() CacheBudgets {
	return CacheBudgets{ASTParse: c.cacheBudget(EnvASTParseCacheMB), GrepContent: c.cacheBudget(EnvGrepContentMB)}
}

// cacheBudget reads a cache budget in MiB from the variable name: 0 when
// unset or invalid, -1 when set to 0 (cache off), else the bytes.
func (c *Config) cacheBudget(name string) int64 {
	v := strings.TrimSpace(c.Env.Get(name))
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err != nil || n < 0 || n > 1<<30:
		return 0
	case n == 0:
		return -1
	}
	return n << 20
}

// HashlineSeparator is PI_HL_SEP, or "" when unset (the hashline default,
// "~", applies).
func (c *Config) HashlineSeparator() string { return c.Env.Get(EnvHashlineSeparator) }

// TitleGeneration reports whether sessions get an automatic title from
// the first user message: on unless PI_NO_TITLE is set to anything.
func (c *Config) TitleGeneration() bool { return c.Env.Get(EnvNoTitle) == "" }

// NullPrompt reports whether the system prompt is left out of every request:
// NULL_PROMPT set to exactly "true", as the reference tests it (a prompt
// given with --system-prompt or --append-system-prompt is left out too).
func (c *Config) NullPrompt() bool { return c.Env.Get(EnvNullPrompt) == "true" }
