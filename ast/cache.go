package ast

import (
	"path/filepath"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// DefaultParseCacheBytes is the parse cache budget when the configuration
// sets none.
const DefaultParseCacheBytes = 256 << 20

// ParseCache keeps the parsed trees of the files searches read (see
// astgrep.ParseCache), for a long-lived owner such as an agent session:
// the owner builds one, hands it to its searches and edits (Scope's
// ParseCache) and to the read tool's outlines, invalidates it after
// writing files and closes it at the end. Caches are independent values;
// a nil cache is off and every method accepts one.
type ParseCache struct {
	native *astgrep.ParseCache
}

// NewParseCache returns an empty cache of budget bytes: 0 is
// DefaultParseCacheBytes; a negative budget turns the cache off and
// returns nil.
func NewParseCache(budget int64) *ParseCache {
	switch {
	case budget < 0:
		return nil
	case budget == 0:
		budget = DefaultParseCacheBytes
	}
	return &ParseCache{native: astgrep.NewParseCache(budget)}
}

// Native returns the native cache, for the calls that take one
// (astgrep.Options.Cache, outline.BodiesOf); nil for a nil cache.
func (c *ParseCache) Native() *astgrep.ParseCache {
	if c == nil {
		return nil
	}
	return c.native
}

// Stats returns the cache's counters (zero for a nil cache).
func (c *ParseCache) Stats() astgrep.CacheStats { return c.Native().Stats() }

// Close frees the cache; searches given it afterwards parse afresh.
func (c *ParseCache) Close() { c.Native().Close() }

// Invalidate drops the cached trees of path (and everything under it)
// under both its absolute and its symlink-free spelling: the cache is
// keyed by the paths searches used, which come from the scan cache's
// canonical roots or from the caller. When path no longer exists its
// parent is resolved instead. "" drops everything.
func (c *ParseCache) Invalidate(path string) {
	n := c.Native()
	if n == nil {
		return
	}
	if path == "" {
		n.Invalidate("")
		return
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		n.Invalidate("")
		return
	}
	n.Invalidate(abs)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			real = filepath.Join(dir, filepath.Base(abs))
		} else {
			return
		}
	}
	if real != abs {
		n.Invalidate(real)
	}
}
