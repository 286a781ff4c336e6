// Package index is gopi's persistent search index: a trigram index of a
// tree's text that lets a regex search read only the files that can match.
//
// The idea is Google codesearch's and zoekt's. Every file the walk lists
// (grep's walk: the same ignore rules, hidden-file and node_modules
// policy, the same order) is read once; the distinct 3-byte sequences of
// its text are recorded as posting lists of file ids. A regex is turned
// into a boolean query over trigrams that every matching file satisfies
// (Plan: literal text joined across concatenations, alternations kept as
// OR, anything else "all"); the files the postings admit are the
// candidates, and the real grep engine searches them, so results are the
// walk's byte for byte. The index only ever narrows which files are read.
//
// Storage is SQLite (store.go: a versioned schema; an index of another
// version, or one SQLite cannot read, is rebuilt, never trusted). A build
// writes a new database beside the old one and renames it over: a failure,
// a full disk among them, leaves the old index whole. A refresh adds a
// segment (the postings of the files added or changed since) in one
// transaction; after a few segments it rebuilds. Builders take a file
// lock, so a second one waits for the first.
//
// Freshness: opening an index stats every directory the walk entered and
// its ignore files (a change means the file set may have changed:
// ErrStale, and the caller walks) and every file (a file whose size,
// time or inode changed since it was indexed is searched directly by
// every query, whatever the postings say). No answer is ever stale.
//
// Files not indexed (binary, UTF-16, larger than MaxFileSize, changed
// while being read) are listed and always searched directly, so grep
// treats them as the walk would.
package index
