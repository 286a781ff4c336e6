package read

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSQLiteRefusesWhatIsNotAReading: ATTACH (which created an empty
// file wherever it pointed), DETACH, writes and setting pragmas are
// refused with a message saying what read allows, VACUUM INTO fails in
// the read's transaction; nothing appears on disk and the database is
// untouched, while SELECTs and reporting pragmas still work.
func TestSQLiteRefusesWhatIsNotAReading(t *testing.T) {
	t.Parallel()
	env, path := dbEnv(t, usersSQL)
	before, _ := os.ReadFile(path)
	elsewhere := t.TempDir()
	for _, q := range []string{
		"ATTACH '" + filepath.Join(elsewhere, "new.db") + "' AS x",
		"ATTACH DATABASE 'file:" + filepath.Join(elsewhere, "uri.db") + "?mode=rwc' AS y",
		"VACUUM INTO '" + filepath.Join(elsewhere, "copy.db") + "'",
		"DETACH main",
		"DELETE FROM users",
		"CREATE TEMP TABLE scratch(a)",
		"PRAGMA query_only = 0",
		"PRAGMA wal_checkpoint",
	} {
		res := call(t, env, "app.db?q="+q)
		want := "Cannot run that on app.db: read only reads the one database it opens, so ATTACH, DETACH, VACUUM"
		if strings.HasPrefix(q, "VACUUM") {
			want = "SQLite error on app.db: SQL logic error: cannot VACUUM from within a transaction" // the read's own
		}
		if !res.IsError || !strings.HasPrefix(res.FirstText(), want) {
			t.Errorf("%s: %s", q, res.FirstText())
		}
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("files were created: %v", ents)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the database file changed")
	}
	for q, want := range map[string]string{
		"PRAGMA table_info(users)":                         "| 0   | id   | INTEGER | 0       | NULL       | 1  |",
		"PRAGMA user_version":                              "| 0            |",
		"SELECT name FROM pragma_table_info('users')":      "| name |",
		"SELECT count(*) AS n FROM users WHERE name > 'b'": "| 2 |",
	} {
		if res := call(t, env, "app.db?q="+q); res.IsError || !strings.Contains(res.FirstText(), want) {
			t.Errorf("%s: %s", q, res.FirstText())
		}
	}
}

// TestSQLiteTimeLimit: a query that would run for ever is interrupted at
// read.sqlite.timeoutMs, and the message names the setting. The second
// statement's first row comes at once and its second never: the driver
// does not interrupt a later step, so the read has to do all its work in
// the first. The limit is the context's deadline, the same path an abort
// takes.
func TestSQLiteTimeLimit(t *testing.T) {
	t.Parallel()
	env, _ := dbEnv(t, usersSQL)
	env.Settings.ReadSQLiteTimeout = 200 * time.Millisecond
	endless := "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
	for _, path := range []string{
		"app.db?q=" + endless + " SELECT count(*) FROM c",
		"app.db?q=" + endless + " SELECT x FROM c WHERE x = 1 OR x < 0",
	} {
		res := call(t, env, path)
		want := "Stopped reading app.db: the query ran longer than 200ms, the time limit of one SQLite read. Narrow it (a WHERE on an indexed column, a LIMIT, fewer joins) or raise read.sqlite.timeoutMs in the settings."
		if !res.IsError || res.FirstText() != want {
			t.Errorf("%s: %s", path, res.FirstText())
		}
	}
}

// TestSQLiteBigValuesReadOnlyWhatIsShown: a 16 MB text value and a 16 MB
// blob shown in a table page, a ?q= result and a row view no longer pass
// through gopi whole (the text was copied, escaped and measured, the
// blob copied, to show 40 characters or a size): what the read allocates
// stays far below the value's size.
func TestSQLiteBigValuesReadOnlyWhatIsShown(t *testing.T) {
	const size = 16 << 20
	env, _ := dbEnv(t, `CREATE TABLE big(id INTEGER PRIMARY KEY, t TEXT, b BLOB);
INSERT INTO big VALUES (1, 'é' || replace(hex(zeroblob(8388608)), '0', 'x'), zeroblob(16777216));`)
	cell := "é" + strings.Repeat("x", 38) + "…"
	for path, want := range map[string]string{
		"app.db:big":                        "| 1  | " + cell + " | <blob 16.0MB> |",
		"app.db?q=SELECT b, t, id FROM big": "| <blob 16.0MB> | " + cell + " | 1  |",
		"app.db:big:1":                      "id: 1\nt: éxxxxxxxxxxxxxxxxx",
	} {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		start := ms.TotalAlloc
		res := call(t, env, path)
		runtime.ReadMemStats(&ms)
		if got := ms.TotalAlloc - start; got > size/8 {
			t.Errorf("%s: allocated %d bytes for a value of %d", path, got, size)
		} else {
			t.Logf("%s: allocated %d bytes", path, got)
		}
		if res.IsError || !strings.Contains(res.FirstText(), want) {
			t.Errorf("%s: %.600s", path, res.FirstText())
		}
	}
	if text := call(t, env, "app.db:big:1").FirstText(); !strings.Contains(text, "b: <blob 16.0MB>") {
		t.Errorf("row view: %.300s", text[len(text)-300:])
	}
}

// TestSQLiteRawKeepsOrderAndNames: the rewritten ?q= keeps the
// statement's row order, its column names, duplicates, NULLs, numbers,
// and statements that cannot be wrapped (PRAGMA, EXPLAIN) still run.
func TestSQLiteRawKeepsOrderAndNames(t *testing.T) {
	t.Parallel()
	env, _ := dbEnv(t, usersSQL)
	got := call(t, env, "app.db?q=SELECT a.name, b.name, a.id * 1.5 AS x, NULL AS z FROM users a JOIN users b ON b.id = 4 - a.id ORDER BY a.name DESC;").FirstText()
	want := "| name | name:1 | x   | z    |\n| ---- | ------ | --- | ---- |\n| cyd  | ada    | 4.5 | NULL |\n| bob  | bob    | 3.0 | NULL |\n| ada  | cyd    | 1.5 | NULL |"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := call(t, env, "app.db?q=SELECT 7 AS n -- a comment to the end").FirstText(); got != "| n |\n| - |\n| 7 |" {
		t.Errorf("comment: %s", got)
	}
	if res := call(t, env, "app.db?q=EXPLAIN SELECT 1"); res.IsError || !strings.Contains(res.FirstText(), "opcode") {
		t.Errorf("explain: %s", res.FirstText())
	}
	if res := call(t, env, "app.db?q=SELEC 1"); !res.IsError || !strings.Contains(res.FirstText(), `near "SELEC": syntax error`) {
		t.Errorf("error: %s", res.FirstText())
	}
}
