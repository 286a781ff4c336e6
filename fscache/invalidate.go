package fscache

import (
	"os"
	"path/filepath"
	"strings"
)

// Invalidate drops every cached scan whose root contains path or lies under
// it, compared path component by component (/a/b covers /a/b/c but not
// /a/bc). Walks in progress for such roots still answer their callers but
// are not stored. A relative path is taken from the current directory; the
// path is canonicalized, and when it no longer exists (after a delete or a
// rename) its parent is canonicalized and the name re-attached. An empty
// path clears the whole cache.
func (c *Cache) Invalidate(path string) {
	if path == "" {
		c.Clear()
		return
	}
	target, ok := canonicalTarget(path)
	if !ok {
		c.Clear() // cannot tell what is affected: be safe
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.entries {
		if related(k.root, target) {
			delete(c.entries, k)
		}
	}
	for k, f := range c.flights {
		if related(k.root, target) {
			f.stale = true
			delete(c.flights, k)
		}
	}
}

// Clear drops every cached scan; walks in progress are not stored.
func (c *Cache) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	for k, f := range c.flights {
		f.stale = true
		delete(c.flights, k)
	}
}

// canonicalTarget resolves an invalidation path: absolute, symlinks
// evaluated, falling back to the canonical parent plus the base name when the
// path itself does not exist, and to the cleaned absolute path when neither
// does.
func canonicalTarget(path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, true
	}
	dir, base := filepath.Split(abs)
	if realDir, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(realDir, base), true
	}
	return abs, true
}

// related reports whether root and target are equal or one contains the
// other, component-wise.
func related(root, target string) bool {
	return within(target, root) || within(root, target)
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	if !strings.HasPrefix(path, dir) {
		return false
	}
	if len(path) == len(dir) || strings.HasSuffix(dir, string(os.PathSeparator)) {
		return true
	}
	return path[len(dir)] == os.PathSeparator
}
