package read

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/innerpath"
	"modernc.org/sqlite"
)

// isSQLitePath reports whether target can name a database; readSQLite
// decides by the file's header and passes other paths on.
func isSQLitePath(target string) bool { return len(innerpath.DatabaseSplits(target)) > 0 }

// readSQLite lists a database's tables, shows a table's schema, a row, a
// page of rows, or the result of a read-only statement.
func (t *Tool) readSQLite(ctx context.Context, target string) (*tool.Result, error) {
	split, r, notDB := t.findDatabase(ctx, target)
	if r == nil {
		if notDB != "" && split.Selector != "" {
			return nil, tool.Errorf("Cannot read %s: %s is not a SQLite database (its first bytes are not the SQLite 3 header); read it without the %s selector to see it as a file.",
				target, notDB, split.Selector)
		}
		return nil, errPass
	}
	sel, err := parseSQLiteSelector(split.Selector)
	if err != nil {
		return nil, tool.Errorf("Invalid SQLite selector in %s: %v", target, err)
	}
	d := &Details{ResolvedPath: r.abs, Source: r.abs + split.Selector}
	text, err := queryDatabase(ctx, r.abs, r.display, sel, d, t.sqliteTimeLimit(), t.caps.sqliteBusy)
	if err != nil {
		return nil, err
	}
	if capped, cut := capOutput(text, "ask for fewer rows (?limit=) or columns (?q=SELECT col, substr(big, 1, 500) …)"); cut {
		text, d.ResultLimit = capped, true
	}
	if r.suffixOf != "" {
		d.SuffixResolution = &SuffixResolution{From: r.suffixOf, To: r.suffixHit}
		text = "[Path '" + r.suffixOf + "' not found; resolved to '" + r.suffixHit + "' via suffix match]\n" + text
	}
	return tool.TextResult(text, d), nil
}

// findDatabase finds the database file target names: the first split
// whose file is a SQLite database, else a unique suffix match for the
// shortest. notDB names a file that exists with a database extension but
// is not a database.
func (t *Tool) findDatabase(ctx context.Context, target string) (split innerpath.DatabaseSplit, r *resolved, notDB string) {
	splits := innerpath.DatabaseSplits(target)
	for _, s := range splits {
		abs := t.env.Resolve(s.Database)
		info, err := os.Stat(abs)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if !innerpath.IsDatabaseFile(abs) {
			if notDB == "" {
				split, notDB = s, s.Database
			}
			continue
		}
		return s, &resolved{abs: abs, display: t.env.DisplayPath(abs), info: info}, ""
	}
	if notDB != "" || len(splits) == 0 {
		return split, nil, notDB
	}
	if r, err := resolvePath(ctx, t.env, splits[0].Database); err == nil && r.info.Mode().IsRegular() && innerpath.IsDatabaseFile(r.abs) {
		return splits[0], r, ""
	}
	return innerpath.DatabaseSplit{}, nil, ""
}

// openDatabase opens the database at abs read-only: the file is opened
// with mode=ro, the connection is query_only, and a writer's lock is
// waited for at most busy.
func openDatabase(abs string, busy time.Duration) (*sql.DB, error) {
	u := url.URL{Scheme: "file", OmitHost: true, Path: abs}
	dsn := u.String() + "?mode=ro&_pragma=busy_timeout(" + strconv.FormatInt(busy.Milliseconds(), 10) + ")&_pragma=query_only(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// queryDatabase runs sel against the database at abs inside one read
// transaction, so counts and rows come from the same snapshot. The
// connection only reads (sqliteAuthorize), and the whole read is
// interrupted once it has run for limit; a writer's lock is waited for at
// most busy.
func queryDatabase(ctx context.Context, abs, name string, sel sqliteSel, d *Details, limit, busy time.Duration) (string, error) {
	qctx, cancel := context.WithTimeoutCause(ctx, limit, errSQLiteTimeLimit)
	defer cancel()
	text, err := runQuery(qctx, abs, name, sel, d, busy)
	switch {
	case err == nil:
		return text, nil
	case ctx.Err() != nil:
		return "", ctx.Err() // the caller's abort
	case errors.Is(context.Cause(qctx), errSQLiteTimeLimit):
		return "", sqliteTimedOut(name, limit)
	}
	return "", err
}

// runQuery is queryDatabase without the time limit.
func runQuery(ctx context.Context, abs, name string, sel sqliteSel, d *Details, busy time.Duration) (string, error) {
	db, err := openDatabase(abs, busy)
	if err != nil {
		return "", sqliteError(name, err, busy)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", sqliteError(name, err, busy)
	}
	defer conn.Close()
	if err := guardConn(conn); err != nil {
		return "", fmt.Errorf("cannot open %s read-only: %w", name, err)
	}
	var names []string
	if sel.kind == sqliteRaw {
		names = columnNames(conn, sel.sql)
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return "", sqliteError(name, err, busy)
	}
	defer tx.Rollback()
	q := &dbQuery{ctx: ctx, tx: tx, name: name, d: d, rawNames: names}
	var text string
	switch sel.kind {
	case sqliteList:
		text, err = q.list()
	case sqliteRaw:
		text, err = q.raw(sel.sql)
	default:
		var tb *dbTable
		if tb, err = q.table(sel.table); err != nil {
			break
		}
		switch sel.kind {
		case sqliteSchema:
			text, err = q.schema(tb)
		case sqliteRow:
			text, err = q.row(tb, sel.key)
		default:
			text, err = q.page(tb, sel)
		}
	}
	if err != nil {
		var te *tool.Error
		if errors.As(err, &te) {
			return "", err
		}
		return "", sqliteError(name, err, busy)
	}
	return text, nil
}

// sqliteError explains a database failure and what to do about it (busy:
// how long a writer's lock was waited for).
func sqliteError(name string, err error, busy time.Duration) error {
	var se *sqlite.Error
	code := 0
	if errors.As(err, &se) {
		code = se.Code() & 0xff
	}
	switch code {
	case 23: // SQLITE_AUTH: sqliteAuthorize refused the statement
		return sqliteRefused(name, err)
	case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
		return tool.Errorf("Cannot read %s: the database is locked by another connection that is writing to it (waited %v; %v); try again once the writer has finished.",
			name, busy, err)
	case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
		return tool.Errorf("Cannot read %s: the database file is damaged (%v); check it with sqlite3 (PRAGMA integrity_check) or restore a copy.", name, err)
	case 8: // SQLITE_READONLY
		return tool.Errorf("Cannot run that on %s: read opens databases read-only (%v); use statements that only read, such as SELECT.", name, err)
	case 14: // SQLITE_CANTOPEN
		return tool.Errorf("Cannot open %s as a database (%v); check that the file and its directory are readable.", name, err)
	}
	return tool.Errorf("SQLite error on %s: %v; check the SQL against the schema (%s:TABLE shows a table's columns).", name, err, name)
}

// dbQuery runs the statements of one read.
type dbQuery struct {
	ctx  context.Context
	tx   *sql.Tx
	name string // the database as shown
	d    *Details
	// rawNames are the column names of the ?q= statement as it names
	// them (columnNames), nil when unknown.
	rawNames []string
}

// dbTable is a table or view with its columns.
type dbTable struct {
	name    string // as stored in sqlite_master
	view    bool
	sql     string
	columns []dbColumn
}

// dbColumn is one column of a table.
type dbColumn struct {
	name, typ string
	pk        int // position in the primary key, 0 when not part of it
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// list shows the tables (with row counts) and views, sqliteListCap at most.
func (q *dbQuery) list() (string, error) {
	rows, err := q.tx.QueryContext(q.ctx, `SELECT name, type FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return "", err
	}
	type item struct {
		name string
		view bool
	}
	var items []item
	for rows.Next() {
		var it item
		var typ string
		if err := rows.Scan(&it.name, &typ); err != nil {
			rows.Close()
			return "", err
		}
		it.view = typ == "view"
		items = append(items, it)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(items) == 0 {
		return "(no tables)", nil
	}
	shown := items[:min(len(items), sqliteListCap)]
	out := make([]string, 0, len(shown)+2)
	for _, it := range shown {
		if it.view {
			out = append(out, it.name+" (view)")
			continue
		}
		var n int64
		if err := q.tx.QueryRowContext(q.ctx, "SELECT count(*) FROM "+quoteIdent(it.name)).Scan(&n); err != nil {
			out = append(out, it.name+" (rows not counted: "+err.Error()+")")
			continue
		}
		out = append(out, it.name+" ("+plural64(n, "row")+")")
	}
	if len(items) > len(shown) {
		q.d.ResultLimit = true
		out = append(out, "", fmt.Sprintf("[Showing %d of %d tables and views; list the others with %s?q=SELECT name, type FROM sqlite_master WHERE type IN ('table','view') ORDER BY name LIMIT -1 OFFSET %d]",
			len(shown), len(items), q.name, len(shown)))
	}
	return strings.Join(out, "\n"), nil
}

func rowWord(n int64) string {
	if n == 1 {
		return "row"
	}
	return "rows"
}

func plural64(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.FormatInt(n, 10) + " " + word + "s"
}

// table looks a table or view up by name (case-insensitively, as SQLite
// does) and reads its columns.
func (q *dbQuery) table(name string) (*dbTable, error) {
	tb := &dbTable{}
	var typ string
	var sqlText sql.NullString
	err := q.tx.QueryRowContext(q.ctx, `SELECT name, type, sql FROM sqlite_master WHERE type IN ('table','view') AND name = ? COLLATE NOCASE ORDER BY name = ? DESC LIMIT 1`, name, name).
		Scan(&tb.name, &typ, &sqlText)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, q.noTable(name)
	}
	if err != nil {
		return nil, err
	}
	tb.view, tb.sql = typ == "view", sqlText.String
	rows, err := q.tx.QueryContext(q.ctx, "SELECT name, type, pk FROM pragma_table_info(?)", tb.name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var c dbColumn
		if err := rows.Scan(&c.name, &c.typ, &c.pk); err != nil {
			return nil, err
		}
		tb.columns = append(tb.columns, c)
	}
	return tb, rows.Err()
}

// noTable explains a missing table, naming a few that exist.
func (q *dbQuery) noTable(name string) error {
	var names []string
	rows, err := q.tx.QueryContext(q.ctx, `SELECT name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name LIMIT 11`)
	if err == nil {
		for rows.Next() {
			var n string
			if rows.Scan(&n) == nil {
				names = append(names, n)
			}
		}
		rows.Close()
	}
	switch {
	case len(names) == 0:
		return tool.Errorf("SQLite table '%s' not found: %s has no tables.", name, q.name)
	case len(names) > 10:
		names = append(names[:10], "…")
	}
	return tool.Errorf("SQLite table '%s' not found in %s; its tables: %s (read %s to list them all).", name, q.name, strings.Join(names, ", "), q.name)
}

// selectList is the column list of a table query fetching at most n
// characters of a value (cappedExpr), and the cap to give collect: 0
// when the columns are unknown and the list is "*".
func (tb *dbTable) selectList(n int) (string, int) {
	if len(tb.columns) == 0 {
		return "*", 0
	}
	parts := make([]string, len(tb.columns))
	for i, c := range tb.columns {
		parts[i] = cappedExpr(quoteIdent(c.name), n) + " AS " + quoteIdent(c.name)
	}
	return strings.Join(parts, ", "), n
}

// schema shows a table's CREATE statement, its indexes and a few rows.
func (q *dbQuery) schema(tb *dbTable) (string, error) {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(tb.sql))
	rows, err := q.tx.QueryContext(q.ctx, `SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`, tb.name)
	if err != nil {
		return "", err
	}
	for rows.Next() {
		var s string
		if rows.Scan(&s) == nil {
			b.WriteString(";\n" + strings.TrimSpace(s))
		}
	}
	rows.Close()
	if tb.sql != "" {
		b.WriteString(";")
	}
	page, err := q.page(tb, sqliteSel{kind: sqliteSchema, limit: sqliteSampleRows})
	if err != nil {
		return "", err
	}
	b.WriteString("\n\n" + page)
	return b.String(), nil
}

// page shows sel.limit rows of a table from sel.offset on, filtered and
// sorted as sel says, with the total count and a hint for the next page.
func (q *dbQuery) page(tb *dbTable, sel sqliteSel) (string, error) {
	from := " FROM " + quoteIdent(tb.name)
	if sel.where != "" {
		from += " WHERE (" + sel.where + ")"
	}
	var total int64
	if err := q.tx.QueryRowContext(q.ctx, "SELECT count(*)"+from).Scan(&total); err != nil {
		return "", err
	}
	order := ""
	if sel.order != "" {
		col, ok := tb.column(sel.order)
		if !ok {
			return "", tool.Errorf("Cannot order %s by '%s': the table has no such column; its columns: %s.", tb.name, sel.order, tb.columnNames())
		}
		order = " ORDER BY " + quoteIdent(col)
		if sel.desc {
			order += " DESC"
		}
	}
	list, n := tb.selectList(cellChars)
	stmt := "SELECT " + list + from + order + " LIMIT " + strconv.Itoa(sel.limit) + " OFFSET " + strconv.Itoa(sel.offset)
	cols, cells, err := q.collect(materialized(stmt), sel.limit, n)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if sel.limitAsked > sqliteMaxLimit {
		fmt.Fprintf(&b, "[limit %d lowered to %d, the most rows one read shows]\n", sel.limitAsked, sqliteMaxLimit)
	}
	if len(cells) == 0 {
		switch {
		case total == 0 && sel.where != "":
			b.WriteString("(no rows match the filter)")
		case total == 0:
			b.WriteString("(no rows)")
		default:
			fmt.Fprintf(&b, "(no rows from offset %d: there are %s; use a smaller offset)", sel.offset, plural64(total, "row"))
		}
		return b.String(), nil
	}
	first, last := int64(sel.offset)+1, int64(sel.offset+len(cells))
	if sel.kind == sqliteSchema {
		fmt.Fprintf(&b, "Rows %d-%d of %d:\n", first, last, total)
	}
	b.WriteString(renderTable(cols, cells))
	more := total - last
	switch {
	case more > 0:
		q.d.ResultLimit = true
		next := sel
		next.offset = int(last)
		if sel.kind == sqliteSchema {
			next.limit = sqliteDefaultLimit
		}
		fmt.Fprintf(&b, "\n\n[%d more %s; read %s:%s%s for the next %d]", more, rowWord(more), q.name, tb.name, next.query(), min(int64(next.limit), more))
	case sel.kind == sqliteQuery && (first > 1 || sel.where != ""):
		fmt.Fprintf(&b, "\n\n[Rows %d-%d of %d]", first, last, total)
	}
	return b.String(), nil
}

// query renders the parameters of a table query, defaults left out.
func (s sqliteSel) query() string {
	var parts []string
	if s.where != "" {
		parts = append(parts, "where="+s.where)
	}
	if s.order != "" {
		o := "order=" + s.order
		switch {
		case s.desc:
			o += ":desc"
		case strings.Contains(s.order, ":"):
			o += ":asc" // so the column's own ':' is not taken for the direction
		}
		parts = append(parts, o)
	}
	if s.limit != sqliteDefaultLimit {
		parts = append(parts, "limit="+strconv.Itoa(s.limit))
	}
	if s.offset != 0 {
		parts = append(parts, "offset="+strconv.Itoa(s.offset))
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

// column finds a column by name, case-insensitively.
func (tb *dbTable) column(name string) (string, bool) {
	for _, c := range tb.columns {
		if c.name == name {
			return c.name, true
		}
	}
	for _, c := range tb.columns {
		if strings.EqualFold(c.name, name) {
			return c.name, true
		}
	}
	return "", false
}

func (tb *dbTable) columnNames() string {
	names := make([]string, len(tb.columns))
	for i, c := range tb.columns {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// row shows the row whose primary key (or rowid, for a table without a
// one-column primary key) is key.
func (q *dbQuery) row(tb *dbTable, key string) (string, error) {
	var pks []dbColumn
	for _, c := range tb.columns {
		if c.pk > 0 {
			pks = append(pks, c)
		}
	}
	col, desc := "rowid", "rowid"
	var arg any = key
	switch {
	case tb.view:
		return "", tool.Errorf("Cannot look up a row by key in %s: it is a view; filter it with %s:%s?where=….", tb.name, q.name, tb.name)
	case len(pks) > 1:
		// A composite key cannot be given as one value: fall back to the
		// rowid, which every table but a WITHOUT ROWID one has.
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil || withoutRowid(tb.sql) {
			return "", tool.Errorf("Cannot look up %s:%s by key: its primary key has %d columns (%s), so a key names a rowid (a number)%s; filter with %s:%s?where=… instead.",
				tb.name, key, len(pks), pkNames(pks), rowidNote(tb.sql), q.name, tb.name)
		}
		arg = n
	case len(pks) == 1:
		col, desc = pks[0].name, "primary key "+pks[0].name
		if strings.Contains(strings.ToUpper(pks[0].typ), "INT") {
			n, err := strconv.ParseInt(key, 10, 64)
			if err != nil {
				return "", tool.Errorf("Row key '%s' is not an integer, but the primary key of %s (%s) is; give a number, e.g. %s:%s:1.", key, tb.name, col, q.name, tb.name)
			}
			arg = n
		}
	default:
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return "", tool.Errorf("Row key '%s' is not an integer: %s has no primary key, so rows are found by rowid; give a number, e.g. %s:%s:1.", key, tb.name, q.name, tb.name)
		}
		arg = n
	}
	list, n := tb.selectList(rowChars)
	stmt := "SELECT " + list + " FROM " + quoteIdent(tb.name) + " WHERE " + quoteIdent(col) + " = ? LIMIT 1"
	rows, err := q.tx.QueryContext(q.ctx, stmt, arg)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return "", err
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return "", err
		}
		return fmt.Sprintf("No row in %s has %s = %s.", tb.name, desc, key), nil
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return "", err
	}
	if n > 0 {
		for i := range vals {
			vals[i] = uncap(vals[i], n)
		}
	}
	return renderRecord(names, vals), rows.Err()
}

// withoutRowid reports whether a CREATE TABLE statement makes a table
// without rowids.
func withoutRowid(create string) bool {
	return strings.Contains(strings.Join(strings.Fields(strings.ToUpper(create)), " "), "WITHOUT ROWID")
}

func rowidNote(create string) string {
	if withoutRowid(create) {
		return ", and this table has no rowids"
	}
	return ""
}

func pkNames(cols []dbColumn) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// raw runs one read-only statement and shows up to sqliteMaxLimit rows.
func (q *dbQuery) raw(stmt string) (string, error) {
	stmt, n := q.bounded(stmt)
	cols, cells, err := q.collect(stmt, sqliteMaxLimit+1, n)
	if err != nil {
		return "", err
	}
	if len(cols) == 0 {
		return "(the statement returned no result columns)", nil
	}
	if len(cells) == 0 {
		return "(no rows)", nil
	}
	cut := len(cells) > sqliteMaxLimit
	if cut {
		cells = cells[:sqliteMaxLimit]
	}
	text := renderTable(cols, cells)
	if cut {
		q.d.ResultLimit = true
		text += fmt.Sprintf("\n\n[Stopped at %d rows; page with LIMIT and OFFSET in the SQL]", sqliteMaxLimit)
	}
	return text, nil
}

// bounded rewrites a query so that it fetches only what raw shows (the
// first sqliteMaxLimit+1 rows, cells capped at cellChars) and does its
// work in its first step; it returns the statement and the cap to give
// collect. A statement that cannot be the subquery of a SELECT (a PRAGMA,
// EXPLAIN, or SQL with an error, which then reports it) is returned as
// it is, with cap 0.
func (q *dbQuery) bounded(stmt string) (string, int) {
	inner := "(\n" + strings.TrimRight(strings.TrimSpace(stmt), "; \t\r\n") + "\n)"
	rows, err := q.tx.QueryContext(q.ctx, "SELECT * FROM "+inner+" LIMIT 0")
	if err != nil {
		return stmt, 0
	}
	names, err := rows.Columns()
	rows.Close()
	if err != nil || len(names) == 0 {
		return stmt, 0
	}
	shown := names
	if len(q.rawNames) == len(names) {
		shown = q.rawNames // a name the subquery had to make unique ("id:1") shown as written
	}
	exprs := make([]string, len(names))
	for i, name := range names {
		exprs[i] = cappedExpr(quoteIdent(name), cellChars) + " AS " + quoteIdent(shown[i])
	}
	return materialized("SELECT " + strings.Join(exprs, ", ") + " FROM " + inner + " LIMIT " + strconv.Itoa(sqliteMaxLimit+1)), cellChars
}

// collect runs stmt and formats up to max rows of it as table cells; n,
// when not 0, is the cap the statement's columns were written with
// (cappedExpr).
func (q *dbQuery) collect(stmt string, max, n int) ([]string, [][]string, error) {
	rows, err := q.tx.QueryContext(q.ctx, stmt)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out [][]string
	for len(out) < max && rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if n > 0 {
				v = uncap(v, n)
			}
			row[i] = cellText(v)
		}
		out = append(out, row)
	}
	return cols, out, rows.Err()
}

// valueText renders a value as stored: NULL, numbers as SQLite prints
// them, text as is, blobs by size.
func valueText(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		if v == float64(int64(v)) && v < 1e15 && v > -1e15 {
			return strconv.FormatFloat(v, 'f', 1, 64)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	case []byte:
		return "<blob " + tool.FormatSize(int64(len(v))) + ">"
	case blobSize:
		return "<blob " + tool.FormatSize(int64(v)) + ">"
	case time.Time:
		if v.Location() == time.UTC {
			return v.Format("2006-01-02 15:04:05.999999999")
		}
		return v.Format("2006-01-02 15:04:05.999999999-07:00")
	case bool:
		if v {
			return "1"
		}
		return "0"
	}
	return fmt.Sprint(v)
}

// cellText renders a value for a table cell: on one line, control
// characters escaped and '|' protected.
func cellText(v any) string {
	s := valueText(v)
	if _, ok := v.(string); !ok {
		return s
	}
	var b bytes.Buffer
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '|':
			b.WriteString(`\|`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
