package write

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/innerpath"
	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// sqliteBusyMillis is how long a row write waits for another writer's
// lock on the database, as omp waits.
const sqliteBusyMillis = 3000

// dbTarget is a table (and row) of a database that a write path names.
type dbTarget struct {
	abs    string // the database file
	table  string
	key    string // the row key; "" with hasKey false: insert
	hasKey bool
	exists bool // the database file exists (and is a database)
}

// findDatabaseTarget reads p as a row write path (DB:TABLE or
// DB:TABLE:KEY), or returns nil when p names no database selector, or
// when the only files its readings name are not SQLite databases (then
// p is an ordinary file name, written as such). Of several readings the
// longest database path that exists wins; when none exists, the
// shortest is the one reported missing.
func (t *Tool) findDatabaseTarget(p string) (*dbTarget, error) {
	var splits []innerpath.DatabaseSplit
	for _, s := range innerpath.DatabaseSplits(p) {
		if s.Selector != "" {
			splits = append(splits, s)
		}
	}
	if len(splits) == 0 {
		return nil, nil
	}
	fallback, err := rowRef(splits[0])
	if err != nil {
		return nil, err
	}
	fallback.abs = t.env.Resolve(splits[0].Database)
	sawOther := false
	for i := len(splits) - 1; i >= 0; i-- {
		s := splits[i]
		target, err := rowRef(s)
		if err != nil {
			return nil, err
		}
		target.abs = t.env.Resolve(s.Database)
		if ok, err := isFile(target.abs, p); err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		if !innerpath.IsDatabaseFile(target.abs) {
			sawOther = true
			continue
		}
		target.exists = true
		return target, nil
	}
	if sawOther {
		return nil, nil
	}
	return fallback, nil
}

// rowRef parses the selector of s for a row write: a table, and a
// non-empty key when there is a ':' after the table; no query.
func rowRef(s innerpath.DatabaseSplit) (*dbTarget, error) {
	db := s.Database
	ref, err := innerpath.ParseTableRef(s.Selector)
	switch {
	case ref.HasQuery && strings.TrimSpace(ref.Query) != "":
		return nil, tool.Errorf("SQLite write paths do not support query parameters: %s:TABLE inserts a row, %s:TABLE:KEY updates or deletes one.", db, db)
	case err != nil || ref.Table == "":
		return nil, tool.Errorf("SQLite write path must target a table: %s:TABLE inserts a row, %s:TABLE:KEY updates or deletes one.", db, db)
	case ref.HasKey && ref.Key == "":
		return nil, tool.Errorf("SQLite row writes require a non-empty row key: %s:%s:KEY names the row by its primary key (or rowid).", db, ref.Table)
	}
	return &dbTarget{table: ref.Table, key: ref.Key, hasKey: ref.HasKey}, nil
}

// writeRow inserts, updates or deletes one row: content that is empty
// (white space aside) deletes the row at the key; otherwise it is a JSON5
// object of column values, inserted as a new row without a key, set on
// the row at the key with one. Values are bound as parameters and names
// quoted as identifiers; the database must exist, and another writer's
// lock is waited for 3 s.
func (t *Tool) writeRow(ctx context.Context, path string, dt *dbTarget, content string) (*tool.Result, error) {
	if !dt.exists {
		return nil, tool.Errorf("SQLite database '%s' not found: row writes go into an existing database; check the path, or create the database first.", path)
	}
	if err := t.env.CheckPlanWrite(dt.abs); err != nil {
		return nil, err
	}
	del := strings.TrimSpace(content) == ""
	var cols []rowColumn
	switch {
	case del && !dt.hasKey:
		return nil, tool.Errorf("SQLite deletes require a row key in the path: write empty content to %s:%s:KEY to delete that row.", t.env.DisplayPath(dt.abs), dt.table)
	case !del:
		var err error
		if cols, err = parseRow(content); err != nil {
			return nil, tool.Errorf("%v", err)
		}
	}
	db, err := openForWrite(dt.abs)
	if err != nil {
		return nil, tool.Errorf("Cannot open %s: %v", path, err)
	}
	defer db.Close()
	w := &rowWriter{ctx: ctx, db: db, table: dt.table}
	var text, op string
	var n int64
	switch {
	case del:
		op = "delete"
		if n, err = w.delete(dt.key); err == nil {
			text = fmt.Sprintf("Deleted row '%s' from %s", dt.key, dt.table)
			if n == 0 {
				text = fmt.Sprintf("No row deleted from %s for key '%s'", dt.table, dt.key)
			}
		}
	case dt.hasKey:
		op = "update"
		if n, err = w.update(dt.key, cols); err == nil {
			text = fmt.Sprintf("Updated row '%s' in %s", dt.key, dt.table)
			if n == 0 {
				text = fmt.Sprintf("No row updated in %s for key '%s'", dt.table, dt.key)
			}
		}
	default:
		op = "insert"
		if n, err = w.insert(cols); err == nil {
			text = "Inserted row into " + dt.table
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var te *tool.Error
		if errors.As(err, &te) {
			return nil, err
		}
		return nil, tool.Errorf("Cannot write %s: %v", path, sqliteErr(err))
	}
	t.env.Caches.Invalidate(dt.abs)
	if t.env.ReadCache != nil {
		t.env.ReadCache.Forget(dt.abs)
	}
	details := &Details{Op: op, Database: dt.abs, Table: dt.table, Key: dt.key, Rows: int(n)}
	if w := t.env.OutsideCwdWarning(dt.abs); w != "" {
		details.Warnings = []string{w}
		text += "\n\nWarnings:\n" + w
	}
	return tool.TextResult(text, details), nil
}

// openForWrite opens the database at abs for reading and writing without
// creating it, waiting sqliteBusyMillis for a writer's lock.
func openForWrite(abs string) (*sql.DB, error) {
	u := url.URL{Scheme: "file", OmitHost: true, Path: abs}
	db, err := sql.Open("sqlite", u.String()+"?mode=rw&_pragma=busy_timeout("+strconv.Itoa(sqliteBusyMillis)+")")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// sqliteErr words a driver error for the model: SQLite's own message
// without the driver's result code, and a lock held past the busy
// timeout as such.
func sqliteErr(err error) error {
	msg := err.Error()
	if strings.Contains(msg, "database is locked") || strings.Contains(msg, "SQLITE_BUSY") {
		return fmt.Errorf("another process held the database locked for %d s; try again when it is done", sqliteBusyMillis/1000)
	}
	msg = resultCode.ReplaceAllString(msg, "")
	if rest, ok := strings.CutPrefix(msg, "constraint failed: "); ok && strings.Contains(rest, "constraint failed") {
		msg = rest
	}
	return errors.New(msg)
}

// resultCode is the " (2067)" the driver puts after SQLite's message.
var resultCode = regexp.MustCompile(` \(\d+\)$`)

// rowWriter runs the statements of one row write.
type rowWriter struct {
	ctx   context.Context
	db    *sql.DB
	table string
	info  []columnInfo // the table's columns, once loaded
}

// insert adds a row of cols (the table's defaults when there are none).
func (w *rowWriter) insert(cols []rowColumn) (int64, error) {
	if err := w.load(); err != nil {
		return 0, err
	}
	if err := w.check(cols); err != nil {
		return 0, err
	}
	q := "INSERT INTO " + quoteIdent(w.table) + " DEFAULT VALUES"
	var args []any
	if len(cols) > 0 {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = quoteIdent(c.name)
			args = append(args, c.value)
		}
		q = "INSERT INTO " + quoteIdent(w.table) + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	}
	return w.exec(q, args...)
}

// update sets cols on the row at key.
func (w *rowWriter) update(key string, cols []rowColumn) (int64, error) {
	if err := w.load(); err != nil {
		return 0, err
	}
	where, err := w.rowLookup()
	if err != nil {
		return 0, err
	}
	if err := w.check(cols); err != nil {
		return 0, err
	}
	if len(cols) == 0 {
		return 0, tool.Errorf("SQLite updates require at least one column value: give the columns to change, e.g. {name: 'new name'}.")
	}
	k, err := where.bind(key)
	if err != nil {
		return 0, err
	}
	sets := make([]string, len(cols))
	args := make([]any, 0, len(cols)+1)
	for i, c := range cols {
		sets[i] = quoteIdent(c.name) + " = ?"
		args = append(args, c.value)
	}
	return w.exec("UPDATE "+quoteIdent(w.table)+" SET "+strings.Join(sets, ", ")+" WHERE "+where.column+" = ?", append(args, k)...)
}

// delete removes the row at key.
func (w *rowWriter) delete(key string) (int64, error) {
	if err := w.load(); err != nil {
		return 0, err
	}
	where, err := w.rowLookup()
	if err != nil {
		return 0, err
	}
	k, err := where.bind(key)
	if err != nil {
		return 0, err
	}
	return w.exec("DELETE FROM "+quoteIdent(w.table)+" WHERE "+where.column+" = ?", k)
}

func (w *rowWriter) exec(q string, args ...any) (int64, error) {
	res, err := w.db.ExecContext(w.ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// columnInfo is a column of the table, as PRAGMA table_info tells it.
type columnInfo struct {
	name, typ string
	pk        int // position in the primary key, 0 = not part of it
}

// load reads the table's columns; a table that does not exist
// (or is SQLite's own) is refused.
func (w *rowWriter) load() error {
	var name string
	err := w.db.QueryRowContext(w.ctx, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name = ?", w.table).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return tool.Errorf("SQLite table '%s' not found%s", w.table, w.tablesHint())
	}
	if err != nil {
		return err
	}
	rows, err := w.db.QueryContext(w.ctx, "SELECT name, type, pk FROM pragma_table_info(?)", w.table)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c columnInfo
		if err := rows.Scan(&c.name, &c.typ, &c.pk); err != nil {
			return err
		}
		w.info = append(w.info, c)
	}
	return rows.Err()
}

// check refuses a column of cols the table does not have.
func (w *rowWriter) check(cols []rowColumn) error {
	for _, c := range cols {
		if !slices.ContainsFunc(w.info, func(ci columnInfo) bool { return ci.name == c.name }) {
			names := make([]string, len(w.info))
			for i, ci := range w.info {
				names[i] = ci.name
			}
			return tool.Errorf("SQLite table '%s' has no column named '%s'; its columns are %s.", w.table, c.name, strings.Join(names, ", "))
		}
	}
	return nil
}

// tablesHint lists the database's tables for a "not found" message.
func (w *rowWriter) tablesHint() string {
	rows, err := w.db.QueryContext(w.ctx, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name LIMIT 21")
	if err != nil {
		return "."
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if rows.Scan(&n) == nil {
			names = append(names, n)
		}
	}
	switch {
	case len(names) == 0:
		return "; the database has no tables."
	case len(names) > 20:
		return "; its tables include " + strings.Join(names[:20], ", ") + ", …"
	}
	return "; its tables are " + strings.Join(names, ", ") + "."
}

// keyLookup is how a row key finds its row: the single primary key
// column (its declared type converting the key) or the rowid.
type keyLookup struct {
	column string // quoted column, or "rowid"
	typ    string // declared type of a primary key column
	rowid  bool
}

// rowLookup picks the key column of the table: its primary key when that
// is one column, else its rowid. A composite key cannot be addressed by
// one key. (A WITHOUT ROWID table always has a primary key, so it is
// one of the first two cases; omp's separate refusal of such tables
// never applies.)
func (w *rowWriter) rowLookup() (keyLookup, error) {
	var pk []columnInfo
	for _, c := range w.info {
		if c.pk > 0 {
			pk = append(pk, c)
		}
	}
	switch {
	case len(pk) == 1:
		return keyLookup{column: quoteIdent(pk[0].name), typ: pk[0].typ}, nil
	case len(pk) > 1:
		return keyLookup{}, tool.Errorf("SQLite table '%s' has a composite primary key; write addresses a row by one key, so change this table's rows with SQL (sqlite3 through bash) instead.", w.table)
	}
	return keyLookup{column: "rowid", rowid: true}, nil
}

// bind converts key to the value the lookup compares with: an integer
// for the rowid and for an integer key column, a number for a real one
// when it reads as one, else the text.
func (k keyLookup) bind(key string) (any, error) {
	typ := strings.ToUpper(strings.TrimSpace(k.typ))
	switch {
	case k.rowid:
		return integerKey(key, "SQLite ROWID")
	case strings.Contains(typ, "INT"):
		return integerKey(key, "Primary key '"+key+"'")
	case strings.Contains(typ, "REAL") || strings.Contains(typ, "FLOA") || strings.Contains(typ, "DOUB"):
		if f, err := strconv.ParseFloat(strings.TrimSpace(key), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, nil
		}
	}
	return key, nil
}

// integerKey parses an integer row key.
func integerKey(key, label string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(key), 10, 64)
	if err != nil {
		return 0, tool.Errorf("%s must be an integer; got '%s'. Give the row's number, e.g. :42.", label, key)
	}
	return n, nil
}

// quoteIdent quotes a table or column name for SQL.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
