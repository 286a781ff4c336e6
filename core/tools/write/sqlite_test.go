package write

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/read/readtest"
)

// query runs q on the database at path and renders the rows, one a line,
// cells as Go prints them with their types.
func query(t *testing.T, path, q string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		cells := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		rows.Scan(ptrs...)
		var line []string
		for _, c := range cells {
			line = append(line, fmt.Sprintf("%T:%v", c, c))
		}
		out = append(out, strings.Join(line, " "))
	}
	return strings.Join(out, "\n")
}

// Inserts, updates and deletes reach the database as the rows say, with
// values bound by type: integers (hex too) as integers, fractions and
// Infinity as reals, booleans as 0/1, null as NULL, text as text, even
// text that looks like SQL.
func TestSQLiteRowWrites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "app.db")
	if err := readtest.ExecSQLite(db, `CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, n ANY, f REAL);
		CREATE TABLE "odd ""name"""(k TEXT PRIMARY KEY, v);
		INSERT INTO "odd ""name""" VALUES ('a b', 1);`); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{
		{"app.db:users", `{name: "x'); DROP TABLE users; --", n: 0x10, f: Infinity}`},
		{"app.db:users", `{id: 7, name: 'seven', n: 12345678901234567890, f: -0.25}`},
		{"app.db:users:7", `{n: true, name: null}`},
		{"app.db:users:1", ``},
		{`app.db:odd "name":a b`, `{v: 'spaced key'}`},
	} {
		if res := write(t, dir, c[0], c[1]); res.IsError {
			t.Fatalf("%s: %s", c[0], res.FirstText())
		}
	}
	if got, want := query(t, db, "SELECT id, name, n, f FROM users ORDER BY id"),
		"int64:7 <nil>:<nil> int64:1 float64:-0.25"; got != want {
		t.Errorf("users:\n got %s\nwant %s", got, want)
	}
	if got := query(t, db, `SELECT v FROM "odd ""name"""`); got != "string:spaced key" {
		t.Errorf("odd table: %s", got)
	}
	if res := write(t, dir, "app.db:users", `{name: 'inf', f: -Infinity, n: 1.5e400}`); res.IsError {
		t.Fatal(res.FirstText())
	}
	db2, _ := sql.Open("sqlite", db)
	defer db2.Close()
	var f, n float64
	if err := db2.QueryRow("SELECT f, n FROM users WHERE name = 'inf'").Scan(&f, &n); err != nil || !math.IsInf(f, -1) || !math.IsInf(n, 1) {
		t.Errorf("infinities: %v %v %v", f, n, err)
	}
}

// A file with a database extension that is not a database is written as
// a plain file under the whole path, as omp does; an archive path inside
// wins over a database one.
func TestSQLitePathPrecedence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.db"), []byte("plain text\n"), 0o644)
	if res := write(t, dir, "notes.db:todo", "buy milk\n"); res.IsError || !strings.HasPrefix(res.FirstText(), "Created notes.db:todo") {
		t.Fatalf("error=%v %s", res.IsError, res.FirstText())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.db:todo")); string(b) != "buy milk\n" {
		t.Fatalf("plain file %q", b)
	}
	if res := write(t, dir, "bundle.zip:data.db:t", "x"); res.IsError || res.FirstText() != "Successfully wrote 1 bytes to bundle.zip:data.db:t" {
		t.Fatalf("error=%v %s", res.IsError, res.FirstText())
	}
}

// In plan mode a member of an archive or a row of a database is not the
// plan file: both are refused, and the files stay as they were.
func TestPlanModeRefusesArchiveAndRow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "app.db")
	if err := readtest.ExecSQLite(db, "CREATE TABLE t(v TEXT);"); err != nil {
		t.Fatal(err)
	}
	env := tool.NewEnv(dir)
	env.SetPlanMode(&tool.PlanMode{File: "local://PLAN.md", Abs: filepath.Join(dir, "PLAN.md")})
	for _, p := range []string{"a.zip:f.txt", "app.db:t"} {
		raw, _ := json.Marshal(map[string]string{"path": p, "content": "{v: 'x'}"})
		res, err := tool.Run(context.Background(), New(env), raw, nil)
		if err != nil || !res.IsError || !strings.HasPrefix(res.FirstText(), "Plan mode: only the plan file may be modified") {
			t.Errorf("%s: %v %s", p, err, res.FirstText())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.zip")); err == nil {
		t.Error("the archive was created")
	}
	if got := query(t, db, "SELECT count(*) FROM t"); got != "int64:0" {
		t.Errorf("rows: %s", got)
	}
}

// FuzzParseRow checks the row content parser: it never panics, and what
// it accepts is columns in name order holding only values SQLite binds.
func FuzzParseRow(f *testing.F) {
	for _, s := range []string{`{a: 1}`, `{'b': "x", a: null,}`, `{n: 0x1F, f: .5, i: -Infinity, z: NaN}`, `[1]`, `{a: {b: 1}}`,
		`{a: 1} x`, `{// c` + "\n" + `a: 'it\'s'}`, `{a: 99999999999999999999, b: -0x8000000000000000}`, ``, `{a: +1e400}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		cols, err := parseRow(in)
		if err != nil {
			return
		}
		for i, c := range cols {
			if i > 0 && cols[i-1].name > c.name {
				t.Fatalf("columns out of order: %q before %q", cols[i-1].name, c.name)
			}
			switch c.value.(type) {
			case nil, string, bool, int64, float64:
			default:
				t.Fatalf("column %q holds %T", c.name, c.value)
			}
		}
	})
}

func TestParseRowNumbers(t *testing.T) {
	t.Parallel()
	cols, err := parseRow(`{a: 0x7FFFFFFFFFFFFFFF, b: -0x8000000000000000, c: 0x10000000000000000, d: +5, e: 5., f: 12345678901234567890}`)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(cols)
	if want := "[{a 9223372036854775807} {b -9223372036854775808} {c 1.8446744073709552e+19} {d 5} {e 5} {f 1.2345678901234567e+19}]"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, ok := cols[4].value.(float64); !ok {
		t.Errorf("5. is %T, want float64", cols[4].value)
	}
}

// An archive or a database outside the working directory is written with
// the warning a plain file gets.
func TestInsideWritesOutsideCwdWarn(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	cwd := filepath.Join(root, "project")
	os.MkdirAll(cwd, 0o755)
	if err := readtest.ExecSQLite(filepath.Join(root, "app.db"), "CREATE TABLE t(v TEXT);"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../a.zip:f.txt", "../app.db:t"} {
		res := write(t, cwd, p, "{v: 'x'}")
		if res.IsError || !strings.Contains(res.FirstText(), "is outside the working directory "+cwd) || len(res.Details.(*Details).Warnings) != 1 {
			t.Errorf("%s: error=%v %q", p, res.IsError, res.FirstText())
		}
	}
}
