package index

import (
	"path/filepath"
	"strconv"
)

// DefaultMaxFileSize is the largest file whose text is indexed; larger
// ones are listed and always searched directly. Files above a few MiB
// are read in chunks (readLarge), so the limit bounds the time a build
// spends on one file, not its memory.
const DefaultMaxFileSize = 64 << 20

// Walk is the walk an index lists its files with; grep's Scope fields of
// the same names. A search uses the index only when its walk is this one.
type Walk struct {
	Hidden      bool // dot-files and dot-directories are listed
	Gitignore   bool // .gitignore, .ignore and git's exclude files are honoured
	NodeModules bool // node_modules is walked like any directory
}

// key is the walk as the index records it.
func (w Walk) key() string {
	b := func(v bool) string { return strconv.FormatBool(v) }
	return "hidden=" + b(w.Hidden) + " gitignore=" + b(w.Gitignore) + " node_modules=" + b(w.NodeModules)
}

// Options locate one index and say how it is built.
type Options struct {
	Root        string // the tree, an absolute clean path
	Dir         string // the directory the index lives in (core/config chooses it from Root)
	Walk        Walk   // the walk that lists the tree's files
	MaxFileSize int64  // files larger than this are not indexed but searched directly; 0: DefaultMaxFileSize
	Workers     int    // files read at once while building; 0: GOMAXPROCS
	// MaxSegments is how many segments refreshes may add to a build
	// before a refresh merges them into one; 0: 8.
	MaxSegments int

	// afterStat, when set (tests), runs between a file's first stat and
	// its read while building: where a tree changing under the build
	// is simulated.
	afterStat func(rel string)
	// flushBytes, when positive (tests), replaces defaultFlushBytes and
	// bounds a build's runs to as many pairs.
	flushBytes int
	// spillBytes, when positive (tests), replaces runMemBytes.
	spillBytes int
	// hint, when set (a watcher's refresh), names the only directories
	// and files that may have changed since the last refresh.
	hint *changeHint
	// noWatcher: do not ask a watcher to sync (the watcher's own refreshes,
	// tests of the stat pass).
	noWatcher bool
	// cache, when set (a watcher's refreshes), keeps the decoded lists
	// between refreshes.
	cache *listCache
}

// changeHint is what a watcher saw change: relative slash paths.
type changeHint struct {
	dirs  map[string]bool // directories whose entries (or ignore files) may have changed
	files map[string]bool // files that may have been written
}

func (o *Options) flush() int {
	if o.flushBytes > 0 {
		return o.flushBytes
	}
	return defaultFlushBytes
}

// dbPath is the index database.
func (o *Options) dbPath() string { return filepath.Join(o.Dir, "index.db") }

// lockPath is the file builders lock.
func (o *Options) lockPath() string { return filepath.Join(o.Dir, "lock") }

// watchLockPath is the file a running watcher holds locked.
func (o *Options) watchLockPath() string { return filepath.Join(o.Dir, "watch.lock") }

// socketPath is where a running watcher answers.
func (o *Options) socketPath() string { return filepath.Join(o.Dir, "watch.sock") }

func (o *Options) maxFileSize() int64 {
	if o.MaxFileSize > 0 {
		return o.MaxFileSize
	}
	return DefaultMaxFileSize
}

func (o *Options) maxSegments() int {
	if o.MaxSegments > 0 {
		return o.MaxSegments
	}
	return 8
}

// Stats describe a build or a refresh.
type Stats struct {
	Files     int   // files listed
	Indexed   int   // files whose text is in the index
	Bytes     int64 // bytes of text indexed
	Changed   int   // refresh: files added or changed since the last one
	Removed   int   // refresh: files gone since the last one
	Rebuilt   bool  // the whole index was (re)built
	IndexSize int64 // bytes of the index database
	// Denied are the directories (relative slash paths) the walk could
	// not read: nothing below them is indexed, and searches of a
	// directory holding one walk (grep names it as unreadable).
	Denied []string
}

// Status is what `gopi index --status` reports.
type Status struct {
	Root      string // the tree
	Path      string // the index database
	Files     int    // files listed
	Indexed   int    // files whose text is indexed
	Segments  int    // posting segments (1 after a build)
	Built     string // when it was built or last refreshed (RFC 3339)
	IndexSize int64  // bytes on disk
	Stale     int    // files whose stat differs from the index (searched directly)
	DirsStale bool   // a directory changed: searches walk until a refresh
	Watched   bool   // a watcher keeps the index fresh: queries stat no file
}
