package grep

import (
	"container/list"
	"sync"
)

// DefaultContentCacheBytes is the content cache's budget until
// ConfigureContentCache says otherwise.
const DefaultContentCacheBytes = 256 << 20

// contentOverhead is what one cached file costs besides its text (map
// entry, list element, path), counted against the budget.
const contentOverhead = 160

// fileKey identifies one version of a file: any write changes the
// modification or status-change time (and usually the size), a rename
// over it changes the inode.
type fileKey struct {
	size, mtime, ctime int64 // bytes; nanoseconds since the epoch
	ino, dev           uint64
}

// cachedFile is one file's text as the search sees it (a UTF-8 BOM
// dropped, UTF-16 transcoded) with where its first NUL byte is (-1: none).
// A binary file keeps no text: only the verdict, which is all a directory
// search needs.
type cachedFile struct {
	path    string
	key     fileKey
	text    []byte // nil for a binary file
	nul     int
	lastGen uint64 // the search that last used it
	elem    *list.Element
}

// cost is what the entry counts against the budget.
func (f *cachedFile) cost() int64 { return int64(len(f.text)+len(f.path)) + contentOverhead }

// contentCache keeps the text of searched files between searches of one
// process (the agent's search tool), so that a repeated search costs one
// stat per file instead of an open, a read and a close. Every use checks
// the file's size, times, inode and device first: a file changed in any
// way since it was cached is read again. Eviction is least recently used,
// except that entries used by the current or the previous search are
// never evicted for new ones (a tree larger than the budget then keeps a
// stable part cached instead of evicting everything on every pass).
type contentCache struct {
	mu     sync.Mutex
	budget int64
	used   int64
	gen    uint64
	hits   uint64 // searches of a file served from memory, for tests and stats
	files  map[string]*cachedFile
	lru    list.List // of *cachedFile, most recent first
}

// contents is the process's content cache.
var contents = &contentCache{budget: DefaultContentCacheBytes, files: map[string]*cachedFile{}}

// ConfigureContentCache sets the budget of the content cache that searches
// with Options.ContentCache use: 0 keeps the default
// (DefaultContentCacheBytes), a negative value turns the cache off and
// frees it. Entries over a smaller budget are dropped at once.
func ConfigureContentCache(budget int64) {
	if budget == 0 {
		budget = DefaultContentCacheBytes
	}
	contents.mu.Lock()
	defer contents.mu.Unlock()
	contents.budget = max(budget, 0)
	for contents.used > contents.budget {
		contents.dropLocked(contents.lru.Back().Value.(*cachedFile))
	}
}

// ContentCacheStats reports the cache's use: files held and bytes counted
// against the budget.
func ContentCacheStats() (files int, bytes int64) {
	contents.mu.Lock()
	defer contents.mu.Unlock()
	return len(contents.files), contents.used
}

// begin starts a search: it returns the generation that marks what this
// search uses, or 0 when the cache is off.
func (c *contentCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.budget <= 0 {
		return 0
	}
	c.gen++
	return c.gen
}

// get returns the cached text of path and its NUL offset when the file is
// still the version key describes. needText asks for the text of a binary
// file too (which is not kept: the answer is then a miss).
func (c *contentCache) get(path string, key fileKey, gen uint64, needText bool) (text []byte, nul int, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.files[path]
	if f == nil {
		return nil, 0, false
	}
	if f.key != key {
		c.dropLocked(f)
		return nil, 0, false
	}
	if f.text == nil && needText && f.nul >= 0 {
		return nil, 0, false
	}
	f.lastGen = gen
	c.hits++
	c.lru.MoveToFront(f.elem)
	return f.text, f.nul, true
}

// put stores a file's text (copied) or, for a binary file, its verdict,
// if the budget has room or can make room from entries neither this nor
// the previous search used.
func (c *contentCache) put(path string, key fileKey, gen uint64, text []byte, nul int) {
	f := &cachedFile{path: path, key: key, nul: nul, lastGen: gen}
	if nul < 0 {
		f.text = text // replaced by a copy once admitted
	}
	need := f.cost()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.files[path]; old != nil {
		c.dropLocked(old)
	}
	for c.used+need > c.budget {
		back := c.lru.Back()
		if back == nil {
			return
		}
		victim := back.Value.(*cachedFile)
		if victim.lastGen+1 >= gen {
			return // everything left is in use: keep what is cached
		}
		c.dropLocked(victim)
	}
	if f.text != nil {
		f.text = append(make([]byte, 0, len(text)), text...)
	} else if nul < 0 {
		f.text = []byte{} // an empty file: text, not a binary verdict
	}
	f.elem = c.lru.PushFront(f)
	c.files[path] = f
	c.used += need
}

// dropLocked removes f; c.mu is held.
func (c *contentCache) dropLocked(f *cachedFile) {
	c.lru.Remove(f.elem)
	delete(c.files, f.path)
	c.used -= f.cost()
}
