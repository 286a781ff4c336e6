package config

import (
	"path/filepath"
	"time"
)

// GitHub is the github.* group: the github tool and the issue:// and
// pr:// reads, which both run the GitHub CLI (gh).
type GitHub struct {
	Enabled      bool          // github.enabled: offer the github tool (when gh is on PATH)
	CacheEnabled bool          // github.cache.enabled: keep issue:// and pr:// views on disk
	SoftTTL      time.Duration // github.cache.softTtlSec: a younger view is served as it is; an older one is served and refreshed
	HardTTL      time.Duration // github.cache.hardTtlSec: an older view is never served
	CacheDir     string        // where the views are kept: <agent dir>/cache/github; "" keeps none on disk
	WorktreesDir string        // where pr_checkout puts PR worktrees: the agent dir's parent's wt/ (~/.gopi/wt)
}

// gitHub returns the github.* settings with the cache under the agent
// directory.
func (c *Config) gitHub() GitHub {
	g := GitHubSettings(c.Settings)
	if c.AgentDir != "" {
		g.CacheDir = filepath.Join(c.AgentDir, "cache", "github")
		g.WorktreesDir = filepath.Join(filepath.Dir(c.AgentDir), "wt")
	}
	return g
}

// GitHubSettings returns the github.* settings of s alone (no cache
// directory).
func GitHubSettings(s *Settings) GitHub {
	return GitHub{
		Enabled:      s.Bool("github.enabled"),
		CacheEnabled: s.Bool("github.cache.enabled"),
		SoftTTL:      time.Duration(max(s.Int("github.cache.softTtlSec"), 0)) * time.Second,
		HardTTL:      time.Duration(max(s.Int("github.cache.hardTtlSec"), 0)) * time.Second,
	}
}
