package ast

import (
	"path/filepath"
	"sync/atomic"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// DefaultParseCacheBytes is the parse cache budget when the configuration
// sets none.
const DefaultParseCacheBytes = 256 << 20

// cacheBudget is the budget last handed to the native cache (-1: never).
var cacheBudget atomic.Int64

func init() {
	cacheBudget.Store(-1)
	// Every tool that writes files reports it to the scan cache; the trees
	// of those files must go too.
	fscache.OnInvalidate(invalidateParseCache)
}

// ConfigureParseCache sets the budget of the process-wide parse cache that
// requests with Cache set use (0: DefaultParseCacheBytes; below 0: off).
// Cheap when the budget is unchanged, so callers may apply their setting
// before every request.
func ConfigureParseCache(budget int64) {
	switch {
	case budget == 0:
		budget = DefaultParseCacheBytes
	case budget < 0:
		budget = 0
	}
	if cacheBudget.Swap(budget) != budget {
		astgrep.SetParseCache(budget)
	}
}

// ParseCacheStats returns the parse cache's counters.
func ParseCacheStats() astgrep.CacheStats { return astgrep.ParseCacheStats() }

// invalidateParseCache drops the cached trees of path (and everything
// under it) under both its absolute and its symlink-free spelling: the
// cache is keyed by the paths searches used, which come from the scan
// cache's canonical roots or from the caller. When path no longer exists
// its parent is resolved instead.
func invalidateParseCache(path string) {
	if path == "" {
		astgrep.InvalidateParseCache("")
		return
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		astgrep.InvalidateParseCache("")
		return
	}
	astgrep.InvalidateParseCache(abs)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			real = filepath.Join(dir, filepath.Base(abs))
		} else {
			return
		}
	}
	if real != abs {
		astgrep.InvalidateParseCache(real)
	}
}
