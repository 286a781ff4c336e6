//go:build cgo

package astgrep

/*
#include "gopi_native.h"
*/
import "C"

import (
	"runtime"
	"sync"
)

// ParseCache is one native parse cache: the parsed trees of the files
// searches read from disk (and which files a pattern's literal filter
// ruled out), reused while a file's size, modification time and inode
// are unchanged (and, for a file modified just before it was cached, its
// content hash). Least recently used entries are evicted beyond the
// budget. Its owner (one per agent session) creates it, hands it to the
// searches and outlines that may use it (Options.Cache, Outline) and
// closes it when done; caches are independent of each other.
//
// Safe for concurrent use. Close waits for the searches using the cache
// to return; a search or outline given a closed cache runs without one.
type ParseCache struct {
	mu      sync.RWMutex // read-held while a native call uses p; Close takes it to free p
	p       *C.gopi_ast_cache
	cleanup runtime.Cleanup
}

// NewParseCache returns an empty cache holding at most budget bytes (an
// estimate: source bytes plus a per-node cost); 0 or less: off.
func NewParseCache(budget int64) *ParseCache {
	c := &ParseCache{p: C.gopi_ast_cache_new(C.uint64_t(max(budget, 0)))}
	c.cleanup = runtime.AddCleanup(c, func(p *C.gopi_ast_cache) { C.gopi_ast_cache_free(p) }, c.p)
	return c
}

// SetBudget changes the byte budget; entries over a smaller one are
// evicted at once, and 0 (or less) turns the cache off and empties it.
func (c *ParseCache) SetBudget(budget int64) {
	if p := c.acquire(); p != nil {
		C.gopi_ast_cache_set_budget(p, C.uint64_t(max(budget, 0)))
		c.mu.RUnlock()
	}
}

// Invalidate drops the cached trees of path and of every file under it
// (compared by path component); "" drops everything. Call it after
// writing files, with the same absolute path the searches used.
func (c *ParseCache) Invalidate(path string) {
	p := c.acquire()
	if p == nil {
		return
	}
	defer c.mu.RUnlock()
	b := []byte(path)
	bp, n := bytesArg(b)
	C.gopi_ast_cache_invalidate(p, bp, n)
	runtime.KeepAlive(b)
}

// Stats returns the cache's counters (zero once closed).
func (c *ParseCache) Stats() CacheStats {
	p := c.acquire()
	if p == nil {
		return CacheStats{}
	}
	defer c.mu.RUnlock()
	var e, b, h, m C.uint64_t
	C.gopi_ast_cache_stats(p, &e, &b, &h, &m)
	return CacheStats{Entries: int64(e), Bytes: int64(b), Hits: int64(h), Misses: int64(m)}
}

// Close frees the cache once no native call uses it. Later calls do
// nothing; a nil cache is fine.
func (c *ParseCache) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p != nil {
		c.cleanup.Stop()
		C.gopi_ast_cache_free(c.p)
		c.p = nil
	}
}

// acquire returns the native cache with c.mu read-held (the caller
// releases it), or nil, holding nothing, for a nil or closed cache.
func (c *ParseCache) acquire() *C.gopi_ast_cache {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	if c.p == nil {
		c.mu.RUnlock()
		return nil
	}
	return c.p
}
