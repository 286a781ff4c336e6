package grep

import (
	"container/list"
	"sync"
	"time"
)

// DefaultContentCacheBytes is the content cache's budget when its owner
// asks for the default (NewContentCache(0)).
const DefaultContentCacheBytes = 256 << 20

// racyWindow: a file whose status changed this recently is not cached.
// File times come from a coarse clock (a few milliseconds on Linux, a
// second or two on some file systems), so a write right after the stat
// could leave size and times as they were; git calls such entries racily
// clean. A file left alone for longer than the tick gets new times from
// any write.
const racyWindow = 2 * time.Second

// contentFileLimit is the largest file the cache keeps; larger ones are
// read in blocks on every search.
const contentFileLimit = 16 << 20

// contentOverhead is what one cached file costs besides its text (map
// entry, list element, path), counted against the budget.
const contentOverhead = 160

// fileKey identifies one version of a file: any write changes the
// modification or status-change time (and usually the size), a rename
// over it changes the inode.
type fileKey struct {
	size, mtime, ctime int64 // bytes; nanoseconds since the epoch
	ino, dev           uint64
	links              uint64 // hard links: a file with several may change through another directory
}

// dirWatch is a directory the cache watches for changes (see watcher):
// its identity when the watch was added, and the search that last
// confirmed the path still names that directory.
type dirWatch struct {
	path     string
	wd       int32
	dev, ino uint64
	checked  uint64 // generation of the last identity check
	alive    bool   // false once the directory went away, was replaced or the queue was lost
	// changed is the generation whose start drained an event for a name in
	// this directory. A file read by an earlier search may predate that
	// change without its entry having existed to be dropped, so such a
	// search stores it without trusting the watch (see put).
	changed uint64
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
	// dir is the watch of the file's directory, set before the file was
	// read when one could be added (nil otherwise): while it is alive and
	// reported no change of this name, the file needs no stat.
	dir *dirWatch
}

// cost is what the entry counts against the budget.
func (f *cachedFile) cost() int64 { return contentCost(f.path, f.text) }

// ContentCache keeps the text of searched files between searches (the
// agent's search tool: one cache per session, built by whoever builds the
// session and handed to its searches in Options.ContentCache), so that a repeated search costs one
// stat per file instead of an open, a read and a close. Every use checks
// the file's size, times, inode and device first: a file changed in any
// way since it was cached is read again. Eviction is least recently used,
// except that entries used by the current or the previous search are
// never evicted for new ones (a tree larger than the budget then keeps a
// stable part cached instead of evicting everything on every pass), and a
// search admits files only within the allowance of its scope (see
// contentscope.go), so a search of a huge tree does not fill the budget.
// Caches are independent values; all methods are safe for concurrent use,
// and a nil cache is off.
type ContentCache struct {
	mu      sync.Mutex
	budget  int64
	used    int64
	gen     uint64
	hits    uint64 // searches of a file served from memory, for tests and stats
	trusted uint64 // of those, served without a stat (watched directory)
	files   map[string]*cachedFile
	lru     list.List // of *cachedFile, most recent first

	watch     *watcher // nil until the first watch, or when inotify is unavailable
	noWatch   bool     // inotify refused once: do not try again; also set by tests
	dirs      map[string]*dirWatch
	watchLost uint64 // times the event queue was lost (overflow)

	scopes     map[string]int64 // cache cost of the files of each scope a search went through (contentscope.go)
	scopeOrder []string         // keys of scopes, oldest recorded first

	now func() time.Time // the clock the racy check reads: time.Now; tests move it
}

// NewContentCache returns an empty cache with budget bytes: 0 is
// DefaultContentCacheBytes; a negative budget turns the cache off and
// returns nil (searches given nil use no cache). Close it when done.
func NewContentCache(budget int64) *ContentCache {
	if budget < 0 {
		return nil
	}
	if budget == 0 {
		budget = DefaultContentCacheBytes
	}
	return &ContentCache{budget: budget, files: map[string]*cachedFile{}, dirs: map[string]*dirWatch{}, scopes: map[string]int64{}, now: time.Now}
}

// SetBudget changes the budget (0: DefaultContentCacheBytes; negative:
// off, and everything cached is freed). Entries over a smaller budget
// are dropped at once.
func (c *ContentCache) SetBudget(budget int64) {
	if budget == 0 {
		budget = DefaultContentCacheBytes
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = max(budget, 0)
	for c.used > c.budget {
		c.dropLocked(c.lru.Back().Value.(*cachedFile))
	}
	if c.budget == 0 {
		clear(c.scopes)
		c.scopeOrder = nil
		if c.watch != nil {
			c.forgetDirsLocked()
		}
	}
}

// Stats reports the cache's use: files held and bytes counted against
// the budget (zero for a nil cache).
func (c *ContentCache) Stats() (files int, bytes int64) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.files), c.used
}

// Close frees what the cache holds and its directory watches (an inotify
// instance on Linux). Searches may still be given it afterwards: they
// then use no cache. A nil cache is fine.
func (c *ContentCache) Close() error {
	if c == nil {
		return nil
	}
	c.SetBudget(-1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watch != nil {
		c.watch.close()
		c.watch = nil
	}
	c.noWatch = true
	return nil
}

// begin starts a search of the scope key (contentScopeKey): it returns
// the generation that marks what this search uses and the scope it
// charges its files to, or 0 and nil when the cache is off. A search that
// began calls end when it is over.
func (c *ContentCache) begin(key string) (uint64, *contentScope) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.budget <= 0 {
		return 0, nil
	}
	c.gen++
	if c.watch != nil {
		c.watch.drain(func(d *dirWatch, name string, created bool) {
			d.changed = c.gen
			path := d.path + "/" + name
			if f := c.files[path]; f != nil {
				c.dropLocked(f)
			}
			if created {
				c.dropOtherLinksLocked(path)
			}
		}, func(d *dirWatch) {
			d.alive = false
			if c.dirs[d.path] == d {
				delete(c.dirs, d.path)
			}
		}, func() {
			c.watchLost++
			c.forgetDirsLocked()
		})
	}
	return c.gen, &contentScope{cache: c, key: key, allowance: c.allowanceLocked(key), budget: c.budget}
}

// dropOtherLinksLocked drops the cached files that path is a new hard link
// of: a write through the new name is reported to its directory, not to
// theirs. (A link made from a directory the cache does not watch is not
// seen; such files change unnoticed until their own directory reports a
// change.) c.mu is held.
func (c *ContentCache) dropOtherLinksLocked(path string) {
	key, ok := statKey(path)
	if !ok || key.links < 2 {
		return
	}
	for _, f := range c.files {
		if f.key.ino == key.ino && f.key.dev == key.dev {
			c.dropLocked(f)
		}
	}
}

// forgetDirsLocked stops trusting any watch; c.mu is held.
func (c *ContentCache) forgetDirsLocked() {
	for _, d := range c.dirs {
		d.alive = false
	}
	clear(c.dirs)
	c.watch.forget()
}

// watchDir returns the live watch of dir, adding one if it can; nil when
// the directory cannot be watched. Call it before reading a file of dir.
func (c *ContentCache) watchDir(dir string, gen uint64) *dirWatch {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := c.dirs[dir]; d != nil && d.alive {
		return d
	}
	if c.watch == nil {
		if c.noWatch {
			return nil
		}
		if c.watch = newWatcher(); c.watch == nil {
			c.noWatch = true
			return nil
		}
	}
	d := c.watch.add(dir)
	if d == nil {
		return nil
	}
	d.checked = gen
	c.dirs[dir] = d
	return d
}

// getTrusted returns the cached text of path without a stat of the file:
// only when its directory's watch is alive, reported no change of it
// since it was cached, and the directory path still names the watched
// directory (one stat per directory and search). size is the file's.
func (c *ContentCache) getTrusted(path string, gen uint64, needText bool) (text []byte, nul int, size int64, ok bool) {
	c.mu.Lock()
	f := c.files[path]
	if f == nil || f.dir == nil || !f.dir.alive || f.key.links != 1 || (f.text == nil && needText && f.nul >= 0) {
		c.mu.Unlock()
		return nil, 0, 0, false
	}
	d := f.dir
	if d.checked != gen {
		c.mu.Unlock()
		dev, ino, found := dirIdentity(d.path)
		c.mu.Lock()
		if d.checked != gen && d.alive {
			if found && dev == d.dev && ino == d.ino {
				d.checked = gen
			} else {
				d.alive = false
				if c.dirs[d.path] == d {
					delete(c.dirs, d.path)
				}
			}
		}
		// f may have been dropped meanwhile: look again.
		if c.files[path] != f || !d.alive {
			c.mu.Unlock()
			return nil, 0, 0, false
		}
	}
	defer c.mu.Unlock()
	f.lastGen = gen
	c.hits++
	c.trusted++
	c.lru.MoveToFront(f.elem)
	return f.text, f.nul, f.key.size, true
}

// holds reports whether path is cached (in whatever version).
func (c *ContentCache) holds(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.files[path] != nil
}

// get returns the cached text of path and its NUL offset when the file is
// still the version key describes. needText asks for the text of a binary
// file too (which is not kept: the answer is then a miss).
func (c *ContentCache) get(path string, key fileKey, gen uint64, needText bool) (text []byte, nul int, ok bool) {
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
func (c *ContentCache) put(path string, key fileKey, gen uint64, text []byte, nul int, dir *dirWatch) {
	if c.now().Add(-racyWindow).UnixNano() <= max(key.ctime, key.mtime) {
		return // changed too recently to trust its times: read it again next time
	}
	f := &cachedFile{path: path, key: key, nul: nul, lastGen: gen, dir: dir}
	if nul < 0 {
		f.text = text // replaced by a copy once admitted
	}
	need := f.cost()
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.files[path]; old != nil {
		c.dropLocked(old)
	}
	if dir != nil && (!dir.alive || dir.changed > gen) {
		// The directory went away, or a later search drained a change in
		// it while this one read the file: the text may be older than the
		// change, so it is checked with a stat next time.
		f.dir = nil
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
func (c *ContentCache) dropLocked(f *cachedFile) {
	c.lru.Remove(f.elem)
	delete(c.files, f.path)
	c.used -= f.cost()
}
