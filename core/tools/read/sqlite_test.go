package read

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/read/readtest"
)

// dbEnv is a session in a fresh directory holding app.db built from script.
func dbEnv(t testing.TB, script string) (*tool.Env, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "app.db")
	if err := readtest.ExecSQLite(path, script); err != nil {
		t.Fatal(err)
	}
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	return env, path
}

const usersSQL = `CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO users(name) VALUES ('ada'), ('bob'), ('cyd');`

// TestSQLiteOpenedReadOnly: the connection read uses is read-only twice
// over (mode=ro and query_only) and waits 3000 ms for locks; a writing
// statement fails and leaves the file as it was.
func TestSQLiteOpenedReadOnly(t *testing.T) {
	t.Parallel()
	env, path := dbEnv(t, usersSQL)
	before, _ := os.ReadFile(path)
	db, err := openDatabase(path, defaultCaps().sqliteBusy)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var busy, queryOnly int
	if err := db.QueryRow("PRAGMA busy_timeout").Scan(&busy); err != nil || busy != 3000 {
		t.Fatalf("busy_timeout %d, %v", busy, err)
	}
	if err := db.QueryRow("PRAGMA query_only").Scan(&queryOnly); err != nil || queryOnly != 1 {
		t.Fatalf("query_only %d, %v", queryOnly, err)
	}
	if _, err := db.Exec("PRAGMA query_only = 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE x(a)"); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Fatalf("write through mode=ro: %v", err)
	}
	db.Close()

	for _, q := range []string{"app.db?q=DELETE FROM users", "app.db?q=PRAGMA query_only=0"} {
		res := call(t, env, q)
		if q == "app.db?q=DELETE FROM users" && (!res.IsError || !strings.HasPrefix(res.FirstText(), "Cannot run that on app.db: read only reads the one database it opens")) {
			t.Fatalf("%s: %s", q, res.FirstText())
		}
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("the database file changed")
	}
	if _, err := os.Stat(path + "-journal"); err == nil {
		t.Fatal("a journal was left behind")
	}
}

// writer opens a read-write connection and runs stmts on it, keeping
// the connection (and its transaction) open until the test ends.
func writer(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() {
		conn.ExecContext(ctx, "ROLLBACK")
		conn.Close()
		db.Close()
	})
}

// TestSQLiteLockedByWriter: while another connection writes, a read
// either succeeds from the last committed state or, when the writer
// holds the exclusive lock, fails with a clear busy message once the busy
// timeout has passed — it never hangs.
func TestSQLiteLockedByWriter(t *testing.T) {
	t.Parallel()
	shortWait := func(c *caps) { c.sqliteBusy = 300 * time.Millisecond }

	t.Run("reserved", func(t *testing.T) {
		env, path := dbEnv(t, usersSQL)
		withCaps(env, shortWait)
		writer(t, path, "BEGIN IMMEDIATE", "INSERT INTO users(name) VALUES ('uncommitted')")
		res := call(t, env, "app.db:users?order=id")
		if res.IsError || strings.Contains(res.FirstText(), "uncommitted") || !strings.Contains(res.FirstText(), "| 3  | cyd  |") {
			t.Fatalf("got:\n%s", res.FirstText())
		}
	})
	t.Run("exclusive", func(t *testing.T) {
		env, path := dbEnv(t, usersSQL)
		withCaps(env, shortWait)
		writer(t, path, "BEGIN EXCLUSIVE", "INSERT INTO users(name) VALUES ('uncommitted')")
		start := time.Now()
		res := call(t, env, "app.db:users")
		took := time.Since(start)
		want := "Cannot read app.db: the database is locked by another connection that is writing to it (waited 300ms; database is locked (5) (SQLITE_BUSY)); try again once the writer has finished."
		if !res.IsError || res.FirstText() != want {
			t.Fatalf("got:\n%s\nwant:\n%s", res.FirstText(), want)
		}
		if took < 250*time.Millisecond || took > 3*time.Second {
			t.Fatalf("gave up after %v", took)
		}
	})
	t.Run("wal", func(t *testing.T) {
		env, path := dbEnv(t, "PRAGMA journal_mode=WAL;\n"+usersSQL)
		withCaps(env, shortWait)
		writer(t, path, "BEGIN EXCLUSIVE", "INSERT INTO users(name) VALUES ('uncommitted')")
		res := call(t, env, "app.db")
		if res.IsError || res.FirstText() != "users (3 rows)" {
			t.Fatalf("got:\n%s", res.FirstText())
		}
	})
}

// TestSQLiteCorrupt: a file with the SQLite header but damaged contents
// is an error saying so.
func TestSQLiteCorrupt(t *testing.T) {
	t.Parallel()
	env, path := dbEnv(t, usersSQL)
	good, _ := os.ReadFile(path)
	garbage := append([]byte("SQLite format 3\x00"), bytes.Repeat([]byte{0xa5}, 4096-16)...)
	os.WriteFile(filepath.Join(filepath.Dir(path), "garbage.db"), garbage, 0o644)
	damaged := bytes.Clone(good)
	for i := 4096; i < len(damaged); i++ { // wipe every page after the first
		damaged[i] = 0xff
	}
	os.WriteFile(filepath.Join(filepath.Dir(path), "damaged.db"), damaged, 0o644)
	for _, p := range []string{"garbage.db", "damaged.db:users"} {
		res := call(t, env, p)
		name, _, _ := strings.Cut(p, ":")
		if !res.IsError || !strings.HasPrefix(res.FirstText(), "Cannot read "+name+": the database file is damaged (") ||
			!strings.HasSuffix(res.FirstText(), "); check it with sqlite3 (PRAGMA integrity_check) or restore a copy.") {
			t.Errorf("%s: %s", p, res.FirstText())
		}
	}
}

// TestSQLiteSelectorErrors: every rejected selector says what was wrong
// and what to use instead.
func TestSQLiteSelectorErrors(t *testing.T) {
	t.Parallel()
	for sel, want := range map[string]string{
		":t?where=1;DROP TABLE t":        "where must not contain comments (--, /* */) or ';'; for SQL of your own use DB?q=SELECT …",
		":t?where=1 -- x":                "where must not contain comments (--, /* */) or ';'; for SQL of your own use DB?q=SELECT …",
		":t?where=1 /* x */":             "where must not contain comments (--, /* */) or ';'; for SQL of your own use DB?q=SELECT …",
		":t?where=1 LIMIT 1":             "where must not use LIMIT (it would change the statement around the filter); for SQL of your own use DB?q=SELECT …",
		":t?where=1 offset 2":            "where must not use OFFSET (it would change the statement around the filter); for SQL of your own use DB?q=SELECT …",
		":t?where=0 UNION SELECT 1":      "where must not use UNION (it would change the statement around the filter); for SQL of your own use DB?q=SELECT …",
		":t?where=x IN (ATTACH)":         "where must not use ATTACH (it would change the statement around the filter); for SQL of your own use DB?q=SELECT …",
		":t?where=pragma":                "where must not use PRAGMA (it would change the statement around the filter); for SQL of your own use DB?q=SELECT …",
		":t?where=(a=1":                  "where has unbalanced parentheses; close every ( with )",
		":t?where=a=1) OR (1":            "where has unbalanced parentheses; close every ( with )",
		":t?where=name='x":               "where has an unterminated '…'; close it",
		":t?where=id=?":                  "where cannot take bound parameters (?); write the value into the condition",
		":t?where=":                      "where is empty; give a condition, e.g. where=id>10",
		":t?limit=0":                     `limit must be a whole number of rows, at least 1; got "0"`,
		":t?limit=ten":                   `limit must be a whole number of rows, at least 1; got "ten"`,
		":t?offset=-1":                   `offset must be a whole number of rows, 0 or more; got "-1"`,
		":t?order=name:up":               `order direction must be asc or desc; got "up" (use order=COLUMN or order=COLUMN:desc)`,
		":t?order=":                      "order needs a column name: order=COLUMN or order=COLUMN:desc",
		":t?colour=red":                  `unknown query parameter "colour"; use limit, offset, order and where with a table, or q alone`,
		":t?limit=1&limit=2":             `query parameter "limit" is given twice; give it once`,
		":t?limit":                       `query parameter "limit" needs the form NAME=VALUE (parameters: limit, offset, order, where, or q alone)`,
		":t:5?limit=1":                   "a row lookup (:t:5) takes no query parameters; use DB:t?where=… to filter rows",
		"?limit=5":                       "query parameters need a table: use DB:TABLE?limit=…, or DB?q=SQL for a statement of your own",
		"?q=":                            "?q= is empty; give an SQL statement, e.g. ?q=SELECT * FROM sqlite_master",
		"?q=SELECT 1&limit=2":            "?q= runs one SQL statement on its own; it cannot be combined with a :TABLE selector or other parameters (put LIMIT, WHERE and ORDER BY into the SQL)",
		":t?q=SELECT 1":                  "?q= runs one SQL statement on its own; it cannot be combined with a :TABLE selector or other parameters (put LIMIT, WHERE and ORDER BY into the SQL)",
		"?q=SELECT :name":                "q cannot take bound parameters (:name); write the values into the SQL",
		"?q=SELECT 1; SELECT 2":          "q must hold one SQL statement; run the others in further reads",
		"?q=SELECT 'unterminated":        "q has an unterminated '…'; close it",
		": :5":                           "a row key needs a table first: use DB:TABLE:KEY",
		"x":                              `the database path must be followed by :TABLE, :TABLE:KEY or ?q=SQL, not "x"`,
		":t?where=name = 'it''s; fine'":  "",
		":t?where=note = 'LIMIT -- ok'":  "",
		"?q=SELECT 1;":                   "",
		"?q=SELECT '?', \"a;b\" -- c; d": "",
	} {
		_, err := parseSQLiteSelector(sel)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", sel, got, want)
		}
	}
}

// TestSQLiteSelectorValues: values are literal, '&' splits only before a
// NAME=, and URL-encoded values are decoded.
func TestSQLiteSelectorValues(t *testing.T) {
	t.Parallel()
	for sel, want := range map[string]sqliteSel{
		"":                            {kind: sqliteList},
		":t":                          {kind: sqliteSchema, table: "t"},
		":t:":                         {kind: sqliteSchema, table: "t"},
		"::t ":                        {kind: sqliteSchema, table: "t"},
		":t:k:with:colons":            {kind: sqliteRow, table: "t", key: "k:with:colons"},
		":t?limit=900":                {kind: sqliteQuery, table: "t", limit: 500, limitAsked: 900},
		":t?order=Name:DESC":          {kind: sqliteQuery, table: "t", limit: 20, order: "Name", desc: true},
		":t?where=a & 1 = 1":          {kind: sqliteQuery, table: "t", limit: 20, where: "a & 1 = 1"},
		":t?where=a+b>1&offset=3":     {kind: sqliteQuery, table: "t", limit: 20, offset: 3, where: "a+b>1"},
		":t?where=name%3D%27a%20b%27": {kind: sqliteQuery, table: "t", limit: 20, where: "name='a b'"},
		":t?where=x like '%ab%'":      {kind: sqliteQuery, table: "t", limit: 20, where: "x like '%ab%'"},
		"?q=SELECT a&b FROM t":        {kind: sqliteRaw, sql: "SELECT a&b FROM t"},
	} {
		got, err := parseSQLiteSelector(sel)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", sel, got, err, want)
		}
	}
}

// TestSQLiteListCap: more than 500 tables are cut with a note giving the
// query for the rest.
func TestSQLiteListCap(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	for i := range 510 {
		fmt.Fprintf(&b, "CREATE TABLE t%03d(a);\n", i)
	}
	b.WriteString("COMMIT;\n")
	env, _ := dbEnv(t, b.String())
	res := call(t, env, "app.db")
	rows := strings.Split(res.FirstText(), "\n")
	if len(rows) != 502 || rows[499] != "t499 (0 rows)" ||
		rows[501] != "[Showing 500 of 510 tables and views; list the others with app.db?q=SELECT name, type FROM sqlite_master WHERE type IN ('table','view') ORDER BY name LIMIT -1 OFFSET 500]" {
		t.Fatalf("%d rows; tail %q", len(rows), rows[len(rows)-1])
	}
	if !res.Details.(*Details).ResultLimit {
		t.Fatal("resultLimit not set")
	}
}

// TestSQLiteRenderCaps: no table line is wider than 120 columns, no cell
// wider than 40; a table too wide for that is shown record by record.
func TestSQLiteRenderCaps(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 100)
	env, _ := dbEnv(t, fmt.Sprintf(`CREATE TABLE n(a TEXT, b TEXT, c TEXT, d TEXT);
INSERT INTO n VALUES ('%[1]s', '%[1]s', '%[1]s', 'short');
CREATE TABLE w(%[2]s);
INSERT INTO w VALUES (%[3]s);`, long, colsDecl(40), colsVals(40)))
	text := call(t, env, "app.db:n?limit=1").FirstText()
	for _, line := range strings.Split(text, "\n") {
		if ansi.StringWidth(line) > tableMaxWidth {
			t.Fatalf("line of %d columns: %s", ansi.StringWidth(line), line)
		}
	}
	if !strings.Contains(text, "| "+strings.Repeat("é", 33)+"… |") {
		t.Fatalf("narrowed cells:\n%s", text)
	}
	text = call(t, env, "app.db:w?limit=1").FirstText()
	if !strings.HasPrefix(text, "[row 1]\ncolumn_00: value 0\ncolumn_01: value 1\n") {
		t.Fatalf("records:\n%s", text)
	}
}

func colsDecl(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf("column_%02d TEXT", i))
	}
	return strings.Join(parts, ", ")
}

func colsVals(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf("'value %d'", i))
	}
	return strings.Join(parts, ", ")
}

// TestSQLiteValuesAsStored: DATE-typed text, reals, blobs and NULLs show
// as stored, in table pages, rows and raw queries.
func TestSQLiteValuesAsStored(t *testing.T) {
	t.Parallel()
	env, _ := dbEnv(t, `CREATE TABLE e(id INTEGER PRIMARY KEY, at DATETIME, n REAL, b BLOB, z);
INSERT INTO e VALUES (1, '2024-03-05T10:20:30Z', 2, x'00ff', NULL);`)
	page := call(t, env, "app.db:e?limit=1").FirstText()
	if !strings.Contains(page, "| 1  | 2024-03-05T10:20:30Z | 2.0 | <blob 2B> | NULL |") {
		t.Fatalf("page:\n%s", page)
	}
	if got := call(t, env, "app.db:e:1").FirstText(); got != "id: 1\nat: 2024-03-05T10:20:30Z\nn: 2.0\nb: <blob 2B>\nz: NULL" {
		t.Fatalf("row:\n%s", got)
	}
	if got := call(t, env, "app.db?q=SELECT at FROM e").FirstText(); !strings.Contains(got, "| 2024-03-05T10:20:30Z |") {
		t.Fatalf("raw:\n%s", got)
	}
}

// BenchmarkSQLiteTablePage reads one 20-row page of a 10,000-row table
// through the tool — open the file, count, page, render: the first page,
// a page from the middle, and a filtered, sorted page (a full scan and a
// sort without an index).
func BenchmarkSQLiteTablePage(b *testing.B) {
	var s strings.Builder
	s.WriteString("CREATE TABLE events(id INTEGER PRIMARY KEY, kind TEXT, user TEXT, amount REAL, note TEXT, at TEXT);\nBEGIN;\n")
	for i := range 10000 {
		fmt.Fprintf(&s, "INSERT INTO events(kind, user, amount, note, at) VALUES ('k%d', 'user%d', %d.5, 'note number %d for the benchmark', '2024-01-01 00:00:%02d');\n",
			i%7, i%100, i, i, i%60)
	}
	s.WriteString("COMMIT;\n")
	env, _ := dbEnv(b, s.String())
	tl := New(env, nil)
	for _, c := range []struct{ name, path string }{
		{"first", "app.db:events"},
		{"middle", "app.db:events?offset=5000"},
		{"filtered", "app.db:events?where=amount > 100&order=user:desc&offset=5000"},
	} {
		raw := []byte(`{"path": "` + c.path + `"}`)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := tool.Run(context.Background(), tl, raw, nil)
				if err != nil || res.IsError {
					b.Fatal(err, res.FirstText())
				}
			}
		})
	}
}

// TestSQLiteOutputCap: a page larger than 50 KB is cut with a note, and a
// value too long for one line is shortened.
func TestSQLiteOutputCap(t *testing.T) {
	t.Parallel()
	env, _ := dbEnv(t, `CREATE TABLE t(a TEXT, b TEXT, c TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
INSERT INTO t SELECT printf('%040d', i), printf('%040d', i), printf('%040d', i) FROM n;
CREATE TABLE big(id INTEGER PRIMARY KEY, v TEXT);
INSERT INTO big VALUES (1, printf('%0100000d', 7));`)
	res := call(t, env, "app.db:t?limit=500")
	text := res.FirstText()
	if len(text) > tool.DefaultMaxBytes+400 || !res.Details.(*Details).ResultLimit ||
		!strings.HasSuffix(text, " of 502 lines (50.0KB output limit); ask for fewer rows (?limit=) or columns (?q=SELECT col, substr(big, 1, 500) …)]") {
		t.Fatalf("%d bytes, tail %q", len(text), text[max(0, len(text)-200):])
	}
	text = call(t, env, "app.db:big:1").FirstText()
	if len(text) > 2000 || !strings.HasPrefix(text, "id: 1\nv: 0000") ||
		!strings.HasSuffix(text, "…\n\n[1 line too long to show whole cut to 1024 characters; ask for fewer rows (?limit=) or columns (?q=SELECT col, substr(big, 1, 500) …)]") {
		t.Fatalf("long value: %q", text)
	}
}

// TestSQLiteSuffixMatch: a database path that does not exist is looked up
// by suffix like any path; the selector still applies.
func TestSQLiteSuffixMatch(t *testing.T) {
	t.Parallel()
	env, path := dbEnv(t, usersSQL)
	deep := filepath.Join(filepath.Dir(path), "data", "v1")
	os.MkdirAll(deep, 0o755)
	os.Rename(path, filepath.Join(deep, "app.db"))
	got := call(t, env, "v1/app.db:users:2").FirstText()
	if got != "[Path 'v1/app.db' not found; resolved to 'data/v1/app.db' via suffix match]\nid: 2\nname: bob" {
		t.Fatalf("got %q", got)
	}
}
