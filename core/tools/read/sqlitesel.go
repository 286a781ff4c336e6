package read

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tools/innerpath"
)

// SQLite selector defaults and caps.
const (
	sqliteDefaultLimit = 20  // rows per page of a table query
	sqliteMaxLimit     = 500 // the most rows one read shows
	sqliteSampleRows   = 5   // rows shown under a table's schema
	sqliteListCap      = 500 // tables one listing shows
)

// sqliteKind is what a SQLite selector asks for.
type sqliteKind int

// The SQLite selector forms.
const (
	sqliteList   sqliteKind = iota // db: the tables with row counts
	sqliteSchema                   // db:table: schema and sample rows
	sqliteRow                      // db:table:key: one row
	sqliteQuery                    // db:table?limit=&offset=&order=&where=: a page of rows
	sqliteRaw                      // db?q=SELECT …: a read-only statement
)

// sqliteSel is a parsed SQLite selector.
type sqliteSel struct {
	kind       sqliteKind
	table      string
	key        string
	limit      int    // rows per page (sqliteQuery)
	limitAsked int    // the limit given, before capping (0 = none)
	offset     int    // rows skipped (sqliteQuery)
	order      string // column to sort by ("" = table order)
	desc       bool   // sort descending
	where      string // filter expression
	sql        string // the statement of sqliteRaw
}

// sqliteParams are the query parameters, in the order a page hint shows them.
var sqliteParams = []string{"where", "order", "limit", "offset", "q"}

// parseSQLiteSelector parses what follows a database path: "" (list),
// ":table" (schema), ":table:key" (row), ":table?params" (query) or
// "?q=SQL" (raw statement).
//
// Parameters are separated by '&' only where one introduces a known or
// well-formed "name=" pair, so SQL in a value may contain '&' and '='.
// Values are taken literally, except that a value with no spaces holding
// %XX escapes is URL-decoded, for callers that encode their SQL.
func parseSQLiteSelector(s string) (sqliteSel, error) {
	var sel sqliteSel
	ref, err := innerpath.ParseTableRef(s)
	if err != nil {
		return sel, err
	}
	sel.table, sel.key = ref.Table, ref.Key
	query, hasQuery := ref.Query, ref.HasQuery
	switch {
	case sel.key != "":
		sel.kind = sqliteRow
	case sel.table != "":
		sel.kind = sqliteSchema
	}
	if !hasQuery {
		return sel, nil
	}
	params, err := splitSQLiteParams(query)
	if err != nil {
		return sel, err
	}
	if q, ok := params["q"]; ok {
		if len(params) > 1 || sel.table != "" {
			return sel, errors.New("?q= runs one SQL statement on its own; it cannot be combined with a :TABLE selector or other parameters (put LIMIT, WHERE and ORDER BY into the SQL)")
		}
		if strings.TrimSpace(q) == "" {
			return sel, errors.New("?q= is empty; give an SQL statement, e.g. ?q=SELECT * FROM sqlite_master")
		}
		if err := checkRawSQL(q); err != nil {
			return sel, err
		}
		sel.kind, sel.sql = sqliteRaw, q
		return sel, nil
	}
	switch sel.kind {
	case sqliteList:
		return sel, errors.New("query parameters need a table: use DB:TABLE?limit=…, or DB?q=SQL for a statement of your own")
	case sqliteRow:
		return sel, fmt.Errorf("a row lookup (:%s:%s) takes no query parameters; use DB:%s?where=… to filter rows", sel.table, sel.key, sel.table)
	}
	sel.kind = sqliteQuery
	sel.limit = sqliteDefaultLimit
	if v, ok := params["limit"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return sel, fmt.Errorf("limit must be a whole number of rows, at least 1; got %q", v)
		}
		sel.limitAsked, sel.limit = n, min(n, sqliteMaxLimit)
	}
	if v, ok := params["offset"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return sel, fmt.Errorf("offset must be a whole number of rows, 0 or more; got %q", v)
		}
		sel.offset = n
	}
	if v, ok := params["order"]; ok {
		col, dir, hasDir := cutLast(v, ":")
		sel.order = strings.TrimSpace(col)
		if hasDir {
			switch strings.ToLower(strings.TrimSpace(dir)) {
			case "asc":
			case "desc":
				sel.desc = true
			default:
				return sel, fmt.Errorf("order direction must be asc or desc; got %q (use order=COLUMN or order=COLUMN:desc)", dir)
			}
		}
		if sel.order == "" {
			return sel, errors.New("order needs a column name: order=COLUMN or order=COLUMN:desc")
		}
	}
	if v, ok := params["where"]; ok {
		if strings.TrimSpace(v) == "" {
			return sel, errors.New("where is empty; give a condition, e.g. where=id>10")
		}
		if err := checkWhere(v); err != nil {
			return sel, err
		}
		sel.where = v
	}
	return sel, nil
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// splitSQLiteParams splits "a=1&b=2" into a map, rejecting unknown,
// repeated and value-less parameters.
func splitSQLiteParams(query string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range splitParams(query) {
		name, value, ok := strings.Cut(part, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("query parameter %q needs the form NAME=VALUE (parameters: limit, offset, order, where, or q alone)", part)
		}
		known := false
		for _, p := range sqliteParams {
			known = known || p == name
		}
		if !known {
			return nil, fmt.Errorf("unknown query parameter %q; use limit, offset, order and where with a table, or q alone", name)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("query parameter %q is given twice; give it once", name)
		}
		out[name] = decodeValue(value)
	}
	return out, nil
}

// splitParams splits at each '&' that is followed by NAME= (NAME a run
// of letters, digits and '_' starting with a letter or '_').
func splitParams(query string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(query); i++ {
		if query[i] != '&' || !startsParam(query[i+1:]) {
			continue
		}
		parts = append(parts, query[start:i])
		start = i + 1
	}
	return append(parts, query[start:])
}

func startsParam(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=':
			return i > 0
		case c == '_' || isASCIILetter(c) || (i > 0 && c >= '0' && c <= '9'):
		default:
			return false
		}
	}
	return false
}

// decodeValue URL-decodes v when it looks encoded: no spaces, and at
// least one valid %XX escape. Anything else is taken as written.
func decodeValue(v string) string {
	if strings.ContainsAny(v, " \t\n") || !strings.Contains(v, "%") {
		return v
	}
	d, err := url.QueryUnescape(v)
	if err != nil {
		return v
	}
	return d
}

// whereBanned are keywords a where= filter may not use: they would end
// the filter and change the statement around it (use ?q= for those).
var whereBanned = []string{"LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT", "ATTACH", "DETACH", "PRAGMA",
	"INSERT", "UPDATE", "DELETE", "DROP", "CREATE", "ALTER", "VACUUM", "REINDEX"}

// checkWhere accepts a filter expression: no comments, no statement
// terminator, no keyword of whereBanned outside quotes, balanced
// parentheses and quotes, no bound parameters.
func checkWhere(w string) error {
	code, comments, err := sqlCode(w)
	if err != nil {
		return fmt.Errorf("where %w", err)
	}
	if comments || strings.Contains(code, ";") {
		return errors.New("where must not contain comments (--, /* */) or ';'; for SQL of your own use DB?q=SELECT …")
	}
	for _, word := range sqlWords(code) {
		for _, kw := range whereBanned {
			if strings.EqualFold(word, kw) {
				return fmt.Errorf("where must not use %s (it would change the statement around the filter); for SQL of your own use DB?q=SELECT …", kw)
			}
		}
	}
	depth := 0
	for _, c := range code {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth < 0 {
			break
		}
	}
	if depth != 0 {
		return errors.New("where has unbalanced parentheses; close every ( with )")
	}
	if p := sqlParam(code); p != "" {
		return fmt.Errorf("where cannot take bound parameters (%s); write the value into the condition", p)
	}
	return nil
}

// checkRawSQL accepts one statement without bound parameters; a trailing
// ';' is allowed.
func checkRawSQL(q string) error {
	code, _, err := sqlCode(q)
	if err != nil {
		return fmt.Errorf("q %w", err)
	}
	if i := strings.IndexByte(code, ';'); i >= 0 && strings.TrimSpace(strings.ReplaceAll(code[i:], ";", "")) != "" {
		return errors.New("q must hold one SQL statement; run the others in further reads")
	}
	if p := sqlParam(code); p != "" {
		return fmt.Errorf("q cannot take bound parameters (%s); write the values into the SQL", p)
	}
	return nil
}

// sqlCode returns s with the insides of string literals, quoted
// identifiers and comments blanked out (quotes kept), so what remains is
// the SQL's structure. comments reports whether s had any.
func sqlCode(s string) (code string, comments bool, err error) {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			j := i + 1
			for ; j < len(b); j++ {
				if b[j] == end {
					if end != ']' && j+1 < len(b) && b[j+1] == end { // a doubled quote
						b[j], b[j+1] = ' ', ' '
						j++
						continue
					}
					break
				}
				b[j] = ' '
			}
			if j == len(b) {
				return "", false, fmt.Errorf("has an unterminated %c…%c; close it", c, end)
			}
			i = j
		case c == '-' && i+1 < len(b) && b[i+1] == '-':
			comments = true
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			comments = true
			j := i
			for ; j < len(b) && !(b[j] == '*' && j+1 < len(b) && b[j+1] == '/' && j > i+1); j++ {
				b[j] = ' '
			}
			if j < len(b) {
				b[j], b[j+1] = ' ', ' '
				j++
			}
			i = j
		}
	}
	return string(b), comments, nil
}

// sqlWords splits SQL code into its identifier-like words.
func sqlWords(code string) []string {
	return strings.FieldsFunc(code, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r < 128 && isASCIILetter(byte(r)) || r >= 128)
	})
}

// sqlParam returns the first bound parameter in SQL code ("?", "?1",
// ":name", "@name", "$name"), or "".
func sqlParam(code string) string {
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c != '?' && c != ':' && c != '@' && c != '$' {
			continue
		}
		j := i + 1
		for j < len(code) && (code[j] == '_' || isASCIILetter(code[j]) || code[j] >= '0' && code[j] <= '9') {
			j++
		}
		if c == '?' || j > i+1 {
			return code[i:j]
		}
	}
	return ""
}
