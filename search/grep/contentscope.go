package grep

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// A search of a tree far larger than the content cache's budget (the
// agent's search tool over /) would fill the whole budget with files no
// later search asks for again, and a Go heap holding that much live text
// grows to about twice it before a collection: 256 MiB of cached text
// made a search of / peak at 640 MB. So the cache admits a search's files
// by what it knows of the search's tree:
//
//   - every search adds up what its files would cost in the cache (cached
//     or not), and a search that went through all of them records that
//     total as the size of its scope (contentScopeKey: the path and the
//     options that choose files);
//   - a search admits files only while that running total is within its
//     allowance: the recorded size and a share of the budget
//     (budget/contentProbationShare) when the scope fits the budget, the
//     share alone when the scope was not measured yet, nothing when it is
//     known not to fit.
//
// A project that fits is cached in part by its first search and whole from
// its second; a tree that does not fit keeps what its first search took,
// the same files every time, and no search of it fills the cache. (Two
// workers charge files in nearly but not exactly path order, so a search
// of a tree still admitting could take a file past the boundary another
// search left out; a tree that does not fit admits nothing more, so its
// cached part cannot creep.)

// contentProbationShare: a search may fill at most budget/share of the
// cache with files of a scope not known to fit (its first search, or a
// tree larger than the budget).
const contentProbationShare = 8

// maxContentScopes bounds the scope sizes remembered; the oldest
// recorded is forgotten first.
const maxContentScopes = 64

// contentScope is one search's use of the content cache.
type contentScope struct {
	cache     *ContentCache // the cache the search uses
	key       string
	allowance int64        // admit while seen is at most this
	budget    int64        // the cache's budget when the search began
	seen      atomic.Int64 // cache cost of every file the search went through the cache for
}

// charge counts a file of cache cost n that the search went through and
// reports whether the cache may still admit it.
func (s *contentScope) charge(n int64) bool { return s.seen.Add(n) <= s.allowance }

// room reports whether a file of size bytes at path would still be
// admitted, without counting it.
func (s *contentScope) room(path string, size int64) bool {
	return s.seen.Load()+contentCost(path, nil)+size <= s.allowance
}

// pastBudget reports whether the search went through more than the whole
// budget: its scope does not fit, and it admits nothing more.
func (s *contentScope) pastBudget() bool { return s.seen.Load() > s.budget }

// contentCost is what a file with text costs against the budget (text nil:
// a binary file's verdict).
func contentCost(path string, text []byte) int64 {
	return int64(len(text)+len(path)) + contentOverhead
}

// contentScopeKey names the set of files a search with opts goes through:
// its path and every option that chooses files. Searches with the same key
// read the same tree, whatever their patterns.
func contentScopeKey(opts *Options) string {
	var b strings.Builder
	root := opts.Path
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	fmt.Fprintf(&b, "%q %q %q %v %v %v %v %v %v %v %d %d %q %q",
		root, opts.Glob, opts.Overrides, opts.OverrideFold, opts.Hidden, opts.Gitignore,
		opts.NodeModules, opts.Follow, opts.Binary, opts.Text, opts.MaxDepth, opts.MaxFileSize,
		opts.Types, opts.TypesNot)
	if opts.Files != nil {
		h := fnv.New64a()
		for _, f := range opts.Files {
			h.Write([]byte(f.Path))
			h.Write([]byte{0})
		}
		fmt.Fprintf(&b, " files %d %x", len(opts.Files), h.Sum64())
	}
	return b.String()
}

// allowanceLocked is what a search of key may go through while admitting
// files; c.mu is held.
func (c *ContentCache) allowanceLocked(key string) int64 {
	share := c.budget / contentProbationShare
	size, measured := c.scopes[key]
	switch {
	case !measured:
		return share
	case size > c.budget:
		return 0
	}
	return min(size+share, c.budget)
}

// end closes a search's use of the cache: a search that went through every
// file of its scope (complete), or through more than the budget, records
// the scope's size.
func (c *ContentCache) end(s *contentScope, complete bool) {
	seen := s.seen.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.budget <= 0 || !complete && seen <= c.budget {
		return
	}
	if _, ok := c.scopes[s.key]; ok {
		c.scopeOrder = slices.DeleteFunc(c.scopeOrder, func(k string) bool { return k == s.key })
	}
	c.scopes[s.key] = seen
	c.scopeOrder = append(c.scopeOrder, s.key)
	if len(c.scopeOrder) > maxContentScopes {
		delete(c.scopes, c.scopeOrder[0])
		c.scopeOrder = slices.Delete(c.scopeOrder, 0, 1)
	}
}
