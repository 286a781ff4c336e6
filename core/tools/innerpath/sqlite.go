package innerpath

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// DatabaseExts are the extensions (compared in lower case) that make a
// path a SQLite database path.
var DatabaseExts = []string{".sqlite", ".sqlite3", ".db", ".db3"}

// DatabaseSplit is one reading of a path as database file plus selector.
type DatabaseSplit struct {
	Database string // the database file, as written
	Selector string // the rest: "", ":table…", "?…"
}

// DatabaseSplits lists every way target can name a database: each place
// where a database extension ends target or is followed by ':' or '?'.
// The shortest database path comes first.
func DatabaseSplits(target string) []DatabaseSplit {
	var out []DatabaseSplit
	lower := strings.ToLower(target)
	for i := 1; i <= len(target); i++ {
		if i < len(target) && target[i] != ':' && target[i] != '?' {
			continue
		}
		for _, ext := range DatabaseExts {
			if strings.HasSuffix(lower[:i], ext) {
				out = append(out, DatabaseSplit{Database: target[:i], Selector: target[i:]})
				break
			}
		}
	}
	return out
}

// databaseMagic starts every SQLite 3 database file.
const databaseMagic = "SQLite format 3\x00"

// IsDatabaseFile reports whether the file at abs starts with the SQLite 3
// header: a path's database reading holds only if it does. It reads the
// file's first 16 bytes, the one look at the disk in this package.
func IsDatabaseFile(abs string) bool {
	f, err := os.Open(abs)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [len(databaseMagic)]byte
	n, _ := f.ReadAt(head[:], 0)
	return n == len(head) && string(head[:]) == databaseMagic
}

// TableRef is what a database selector names: the database itself, a
// table, or a row of a table by key, with query parameters after a '?'.
type TableRef struct {
	Table string // "" = the database itself
	// Key is the row key: everything after the ':' that ends the table
	// name, colons included ("" = no key).
	Key string
	// HasKey reports a ':' after the table, even one with no key after it.
	HasKey   bool
	Query    string // what follows the first '?', undecoded
	HasQuery bool   // a '?' was there
}

// ParseTableRef parses a database selector, what follows the database in
// a path: "" (the database), ":TABLE", ":TABLE:KEY", each optionally
// followed by "?QUERY", or "?QUERY" alone. A run of ':' before the table
// counts as one and white space around TABLE:KEY is dropped, so
// "app.db::users " names the table users.
func ParseTableRef(sel string) (TableRef, error) {
	var r TableRef
	rest, query, hasQuery := strings.Cut(sel, "?")
	r.Query, r.HasQuery = query, hasQuery
	if rest != "" && rest[0] != ':' {
		return r, fmt.Errorf("the database path must be followed by :TABLE, :TABLE:KEY or ?q=SQL, not %q", rest)
	}
	rest = strings.TrimSpace(strings.TrimLeft(rest, ":"))
	r.Table, r.Key, r.HasKey = strings.Cut(rest, ":")
	if r.Table == "" && r.HasKey {
		return r, errors.New("a row key needs a table first: use DB:TABLE:KEY")
	}
	return r, nil
}
