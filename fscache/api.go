// Package fscache is gopi's shared filesystem scan cache.
//
// A scan walks a directory tree once and records every entry (path, type,
// mtime, size) under a key made of the canonical root and the traversal policy
// (hidden files, gitignore rules, node_modules pruning). Higher layers — glob,
// fuzzy find and grep — filter the cached list instead of walking again.
//
// The walk (Walk) lists directories on all cores and applies ignore files
// the way ripgrep does: .gitignore files from the repository root down,
// .git/info/exclude and the global excludes file inside git repositories
// only, .ignore files everywhere; patterns are parsed by gocodewalker's
// go-gitignore package.
//
// The contract follows the original system's fs-scan-cache architecture:
// opt-in caching, a global TTL (FS_SCAN_CACHE_TTL_MS, default 1000; 0
// bypasses the cache), a bounded entry count (FS_SCAN_CACHE_MAX_ENTRIES,
// default 16, oldest evicted first), a caller-side empty-result recheck
// (FS_SCAN_EMPTY_RECHECK_MS, default 200) and explicit invalidation by path
// after every mutation. The variables are read by core/config, which hands
// the resulting Policy to New. There is no process-wide cache: whoever
// builds an agent session builds its Cache and passes it down to the
// engines (their options' Scanner), and the tools that write files
// invalidate that value. `.git` is never returned and symlinks are never
// followed.
package fscache

import "time"

// EntryType is the kind of a scanned entry, from lstat (links are not followed).
type EntryType uint8

// Entry kinds.
const (
	TypeFile    EntryType = iota + 1 // regular file
	TypeDir                          // directory
	TypeSymlink                      // symbolic link (never followed)
	TypeOther                        // sockets, devices, fifos
)

// Entry is one scanned filesystem entry.
type Entry struct {
	Path  string    // slash-separated, relative to the scan root, never empty
	Type  EntryType // from lstat
	MTime int64     // modification time in Unix milliseconds
	Size  int64     // size in bytes from lstat
	// Denied marks a directory the walk could not list for lack of
	// permission: none of its contents are listed (grep warns of it, as
	// ripgrep does).
	Denied bool
}

// Options is the traversal policy; every field is part of the cache key.
type Options struct {
	Hidden          bool // include dot-files and dot-directories (never .git)
	Gitignore       bool // honour .gitignore, .ignore, .git/info/exclude and the global excludes file
	SkipNodeModules bool // prune node_modules directories during the walk
	// SkipPseudoDirs prunes /proc, /sys and /dev when the walk reaches them
	// from above: kernel pseudo-files that no content search wants (a walk
	// rooted inside one of them still lists it).
	SkipPseudoDirs bool
	// Follow follows symbolic links: a link to a file is listed as the
	// file (TypeFile, the target's size and time), a link to a directory
	// as a directory and walked. A link to one of its own ancestors (a
	// loop) is left out, as fd does (ripgrep reports it); a dangling
	// link stays TypeSymlink. Not supported on Windows (links stay links).
	Follow bool
	// MaxDepth, when positive, stops the walk MaxDepth levels below the
	// root: entries down to that depth are listed (1 = the root's own
	// entries), directories at that depth are not entered.
	MaxDepth int
}

// Scan is the result of one walk, shared by every caller of its key.
type Scan struct {
	Root    string        // canonical absolute root directory
	Entries []Entry       // depth-first, siblings sorted bytewise by name; read-only
	Age     time.Duration // time since the walk ran; 0 for a walk done by this call
}

// Policy is a cache's policy. There are no per-call knobs. The
// package reads no environment: core/config builds the policy from
// FS_SCAN_CACHE_TTL_MS, FS_SCAN_EMPTY_RECHECK_MS, FS_SCAN_CACHE_MAX_ENTRIES
// and the user's git configuration.
type Policy struct {
	TTL          time.Duration // entries older than this are rescanned; 0 disables caching
	EmptyRecheck time.Duration // callers rescan once an empty result is at least this old
	MaxEntries   int           // cached keys kept at most; the oldest are evicted first
	ExcludesFile string        // the user's global git excludes file (see GlobalExcludesPath); "" for none
}

// DefaultPolicy is the policy when the configuration changes nothing.
var DefaultPolicy = Policy{TTL: time.Second, EmptyRecheck: 200 * time.Millisecond, MaxEntries: 16}
