package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	_ "modernc.org/sqlite" // the SQLite driver the store is written with
)

// FormatVersion is the version of the on-disk layout. An index of any
// other version is not read: it is rebuilt.
const FormatVersion = 2

// schema is the layout of FormatVersion.
//
//	meta      key/value: format, root, walk (the walk options), built,
//	          segments (how many posting segments there are: a build
//	          writes one per 32 MiB of postings, a refresh adds its own),
//	          refreshes (refreshes since the build)
//	files     one row per file the walk lists: its stat when indexed,
//	          whether its text is in the postings (indexed=0: binary,
//	          UTF-16, too large or unreadable; always searched) and
//	          whether the walk that leaves hidden files out lists it too
//	          (narrow)
//	dirs      one row per directory the walk entered: its stat and the
//	          stat of its ignore files, so a query sees the file set change
//	postings  per trigram and segment, the ascending ids of the
//	          segment's files holding the trigram
const schema = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
	mtime INTEGER NOT NULL, ino INTEGER NOT NULL, indexed INTEGER NOT NULL, narrow INTEGER NOT NULL);
CREATE TABLE dirs(path TEXT PRIMARY KEY, mtime INTEGER NOT NULL, ino INTEGER NOT NULL, ignores TEXT NOT NULL);
CREATE TABLE postings(seg INTEGER NOT NULL, tri INTEGER NOT NULL, ids BLOB NOT NULL, PRIMARY KEY(tri, seg)) WITHOUT ROWID;
`

// ErrNoIndex: no usable index exists for the tree (none built, another
// format version, or damaged). The caller walks, or builds one.
var ErrNoIndex = errors.New("no usable index")

// openDB opens the database at path with a busy timeout, so a reader
// meeting a refresh's commit waits briefly instead of failing.
func openDB(path string, readOnly bool) (*sql.DB, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(5000)"
	if readOnly {
		dsn += "&mode=ro"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// readMeta returns the meta table, or ErrNoIndex when it is missing,
// unreadable or of another format version.
func readMeta(ctx context.Context, db *sql.DB) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	defer rows.Close()
	meta := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
		}
		meta[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoIndex, err)
	}
	if v := meta["format"]; v != strconv.Itoa(FormatVersion) {
		return nil, fmt.Errorf("%w: format version %q, this gopi reads %d", ErrNoIndex, v, FormatVersion)
	}
	return meta, nil
}
