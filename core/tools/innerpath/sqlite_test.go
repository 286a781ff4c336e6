package innerpath

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
)

func TestDatabaseSplits(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"app.db":               {"app.db|"},
		"APP.SQLITE3:t":        {"APP.SQLITE3|:t"},
		"app.db?q=SELECT 1":    {"app.db|?q=SELECT 1"},
		"a.db:t:k.db3":         {"a.db|:t:k.db3", "a.db:t:k.db3|"},
		"a.db:x.db:t":          {"a.db|:x.db:t", "a.db:x.db|:t"},
		"notes.dbx":            nil,
		"dir.db/f.txt":         nil,
		"weird:name.sqlite:tb": {"weird:name.sqlite|:tb"},
	} {
		var got []string
		for _, s := range DatabaseSplits(in) {
			got = append(got, s.Database+"|"+s.Selector)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("DatabaseSplits(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseTableRef(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                "table= key=- query=-",
		":users":          "table=users key=- query=-",
		"::users ":        "table=users key=- query=-",
		":users:":         "table=users key= query=-",
		":users:42":       "table=users key=42 query=-",
		":t:k:with:colon": "table=t key=k:with:colon query=-",
		":t?limit=5":      "table=t key=- query=limit=5",
		"?q=SELECT a?b":   "table= key=- query=q=SELECT a?b",
		": :5":            "error: a row key needs a table first: use DB:TABLE:KEY",
		"x":               `error: the database path must be followed by :TABLE, :TABLE:KEY or ?q=SQL, not "x"`,
	} {
		r, err := ParseTableRef(in)
		got := "error: "
		if err != nil {
			got += err.Error()
		} else {
			got = fmt.Sprintf("table=%s key=%s query=%s", r.Table, opt(r.Key, r.HasKey), opt(r.Query, r.HasQuery))
		}
		if got != want {
			t.Errorf("ParseTableRef(%q) = %s, want %s", in, got, want)
		}
	}
}

func opt(s string, ok bool) string {
	if !ok {
		return "-"
	}
	return s
}

// FuzzDatabasePath checks database path parsing: each split is a prefix
// reading that ends in a database extension before ':', '?' or the end,
// and a selector that parses gives a table with no ':' or leading space,
// a key with no trailing space, a key only after a table, and rebuilds from its parts.
func FuzzDatabasePath(f *testing.F) {
	for _, s := range []string{"app.db", "app.db:users", "app.db:users:42", "app.db::users", "app.db:t?where=a>1",
		"app.db?q=SELECT 1", "a.db:x.db:t", "x.SQLITE3: t :k", "a.db: :5", "a.db:t:", "dir.db/f", "a.db3?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range DatabaseSplits(in) {
			if s.Database+s.Selector != in {
				t.Fatalf("split %q|%q does not rebuild %q", s.Database, s.Selector, in)
			}
			if s.Selector != "" && s.Selector[0] != ':' && s.Selector[0] != '?' {
				t.Fatalf("selector %q of %q starts with neither ':' nor '?'", s.Selector, in)
			}
			r, err := ParseTableRef(s.Selector)
			if err != nil {
				if r.Table != "" || !r.HasKey {
					t.Fatalf("%q: error %v for table %q", s.Selector, err, r.Table)
				}
				continue
			}
			if r.Table != strings.TrimLeftFunc(r.Table, unicode.IsSpace) || strings.Contains(r.Table, ":") || r.Key != strings.TrimRightFunc(r.Key, unicode.IsSpace) {
				t.Fatalf("%q: table %q or key %q not trimmed", s.Selector, r.Table, r.Key)
			}
			if r.Table == "" && r.HasKey {
				t.Fatalf("%q: key %q without a table", s.Selector, r.Key)
			}
			if strings.Contains(r.Table+r.Key, "?") {
				t.Fatalf("%q: table %q or key %q holds the query", s.Selector, r.Table, r.Key)
			}
			rebuilt := ":" + r.Table
			if r.HasKey {
				rebuilt += ":" + r.Key
			}
			if r.HasQuery {
				rebuilt += "?" + r.Query
			}
			again, err := ParseTableRef(rebuilt)
			if err != nil || again != r {
				t.Fatalf("%q rebuilt as %q parses to %+v, %v; want %+v", s.Selector, rebuilt, again, err, r)
			}
		}
	})
}
