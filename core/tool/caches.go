package tool

import (
	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index"
)

// Caches are the engine caches one session's tools share: directory
// scans, the text of searched files and parsed syntax trees. Whoever
// builds the session builds them (CachesFrom) and closes them when the
// session ends; the tools pass them to the engines in their options and
// invalidate them after writing files. Two sessions with their own Caches
// do not see each other's entries or settings.
//
// A nil *Caches, or a nil field, is a cache that is off: the engines then
// walk and parse afresh on every call. Every method accepts one.
type Caches struct {
	Scan    *fscache.Cache     // directory scans: find, ast_grep, ast_edit, read's path suggestions
	Content *grep.ContentCache // file text the search tool keeps (grep.Options.ContentCache)
	Parse   *ast.ParseCache    // parsed trees: ast_grep, ast_edit, read's summaries
	// Index finds the persistent search index (gopi index) of a
	// directory the search tool searches, and watches the trees it
	// finds indexed so their indexes stay fresh; nil: always walk.
	Index *index.Finder
}

// CachesFrom builds the caches of a session from the configuration: the
// scan cache's policy (ScanCachePolicy), the budgets of the content
// cache (PI_GREP_CONTENT_CACHE_MB) and the parse cache
// (PI_AST_PARSE_CACHE_MB): 0 the engine's default, negative off; and
// where the search indexes live (Index).
func CachesFrom(c *config.Config) *Caches {
	budgets := c.CacheBudgets()
	finder := index.NewFinder(c.Index().Dir)
	finder.Watch = true // the session's watchers keep its trees' indexes fresh
	return &Caches{
		Scan:    fscache.New(c.ScanCachePolicy()),
		Content: grep.NewContentCache(budgets.GrepContent),
		Parse:   ast.NewParseCache(budgets.ASTParse),
		Index:   finder,
	}
}

// IndexFinder returns the index finder, nil when there is none.
func (c *Caches) IndexFinder() *index.Finder {
	if c == nil {
		return nil
	}
	return c.Index
}

// Scanner returns the scan cache as the engines' options take it: nil
// (walk afresh) when there is none.
func (c *Caches) Scanner() fscache.Scanner {
	if c == nil || c.Scan == nil {
		return nil
	}
	return c.Scan
}

// ScanCache returns the scan cache, nil when there is none.
func (c *Caches) ScanCache() *fscache.Cache {
	if c == nil {
		return nil
	}
	return c.Scan
}

// ContentCache returns the content cache, nil when there is none.
func (c *Caches) ContentCache() *grep.ContentCache {
	if c == nil {
		return nil
	}
	return c.Content
}

// ParseCache returns the parse cache, nil when there is none.
func (c *Caches) ParseCache() *ast.ParseCache {
	if c == nil {
		return nil
	}
	return c.Parse
}

// Invalidate drops what the caches hold for path and everything under it,
// after path was written, created or deleted (both sides of a rename).
// The content cache needs no call: it checks every file it serves.
func (c *Caches) Invalidate(path string) {
	if c == nil {
		return
	}
	if c.Scan != nil {
		c.Scan.Invalidate(path)
	}
	c.Parse.Invalidate(path)
}

// Close frees the content cache's watches and the parse cache's native
// memory, and stops the index watchers the session started; the scan
// cache is plain memory. The tools must be done with the
// caches (the session closes them after its tools and jobs).
func (c *Caches) Close() error {
	if c == nil {
		return nil
	}
	c.Parse.Close()
	c.Index.Close()
	return c.Content.Close()
}
