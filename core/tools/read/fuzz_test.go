package read

import (
	"strings"
	"testing"
)

// FuzzSplitSelector checks that selector parsing never panics, that a
// parsed selector is valid, and that path+canonical selector parses back
// to the same split.
func FuzzSplitSelector(f *testing.F) {
	for _, s := range []string{"a.go", "a.go:5", "a.go:L5-L9", "a.go:5+3", "a.go:raw", "a.go:5-9:raw", "a.go:raw:5-9",
		"a:0", "a:3+0", "a:9-3", "a.zip:dir/f:50-60", "x:y", ":5", "a:99999999999999999", "a:1:2:3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		path, sel, err := SplitSelector(in)
		if err != nil {
			if !strings.Contains(err.Error(), ":") {
				t.Fatalf("error without a selector hint: %v", err)
			}
			return
		}
		if sel.Start < 0 || sel.End < 0 || (sel.End > 0 && sel.End < sel.Start) || (sel.End > 0 && sel.Start == 0) {
			t.Fatalf("invalid selector %+v from %q", sel, in)
		}
		if !strings.HasPrefix(in, path) {
			t.Fatalf("path %q is not a prefix of %q", path, in)
		}
		p2, sel2, err := SplitSelector(path + sel.String())
		if err != nil || p2 != path || sel2 != sel {
			t.Fatalf("re-split of %q: %q %+v %v; want %q %+v", path+sel.String(), p2, sel2, err, path, sel)
		}
	})
}

// FuzzSQLiteSelector checks SQLite selector parsing: it never panics, a
// parsed selector is well-formed for its kind (filters and statements
// pass their checks, limits stay within 1..500), and a table query written
// back out (table + query()) parses to the same selector.
func FuzzSQLiteSelector(f *testing.F) {
	for _, s := range []string{"", ":users", ":users:3", ":users:k:with:colons", ":users?limit=5&offset=10",
		":users?order=name:desc&where=id>3 AND name LIKE 'a%'", "?q=SELECT * FROM t WHERE a = 'x;y'",
		":t?where=1;drop", ":t?where=0 UNION SELECT 1", "?q=SELECT ?", ":t?limit=9999", ":t?where=a%3D1",
		":t?order=a:b:asc", "?q=SELECT 1; SELECT 2", ":t?where=(a", ":t:1?limit=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sel, err := parseSQLiteSelector(in)
		if err != nil {
			return
		}
		switch sel.kind {
		case sqliteList:
			if sel.table != "" || sel.key != "" {
				t.Fatalf("list with a table: %+v", sel)
			}
		case sqliteSchema:
			if sel.table == "" || sel.key != "" {
				t.Fatalf("schema: %+v", sel)
			}
		case sqliteRow:
			if sel.table == "" || sel.key == "" {
				t.Fatalf("row: %+v", sel)
			}
		case sqliteRaw:
			if strings.TrimSpace(sel.sql) == "" || checkRawSQL(sel.sql) != nil || sel.table != "" {
				t.Fatalf("raw: %+v", sel)
			}
		case sqliteQuery:
			if sel.limit < 1 || sel.limit > sqliteMaxLimit || sel.offset < 0 || sel.table == "" {
				t.Fatalf("query: %+v", sel)
			}
			if sel.where != "" && checkWhere(sel.where) != nil {
				t.Fatalf("where %q accepted but fails its check", sel.where)
			}
			if strings.Contains(in, "%") {
				return // decoded values need not survive being written back
			}
			again, err := parseSQLiteSelector(":" + sel.table + sel.query())
			sel.limitAsked = 0
			if err != nil || again.kind == sqliteSchema && sel.query() == "" {
				if err != nil {
					t.Fatalf("%q: written back as %q: %v", in, ":"+sel.table+sel.query(), err)
				}
				return
			}
			again.limitAsked = 0
			if again != sel {
				t.Fatalf("%q: written back as %q parses to %+v, want %+v", in, ":"+sel.table+sel.query(), again, sel)
			}
		}
	})
}
