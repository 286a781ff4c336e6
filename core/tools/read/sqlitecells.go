package read

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"modernc.org/sqlite"

	"github.com/gopi-agent/gopi/core/tool"
)

// A read fetches from the database only what it can show: at most a few
// hundred characters of a text value for a table cell, at most the
// output limit for a row's value, and a blob's size instead of its bytes.
// The columns are wrapped in SQL that does the cutting, so a 100 MB value
// never travels through the driver, and the rows are computed in a
// materialized CTE, so that all the work of a query happens in its first
// step, which the driver interrupts when the context ends (a later step
// it would not interrupt).

// How many characters of a text value a read fetches.
const (
	cellChars = 256                  // a table cell: shown cut to tableMaxColumn, or the width of a record line
	rowChars  = tool.DefaultMaxBytes // a value of a one-row view: the output is cut at DefaultMaxBytes anyway
)

// cappedExpr is column expression q (quoted) handing over at most n+1
// characters of text, and a blob as its length written as a blob (the
// digits); numbers and NULL pass as they are. The CASE also drops the
// column's declared type, so the driver hands DATE-typed text over as
// stored instead of converting it to a time.
func cappedExpr(q string, n int) string {
	return "CASE typeof(" + q + ") WHEN 'text' THEN substr(" + q + ", 1, " + strconv.Itoa(n+1) +
		") WHEN 'blob' THEN CAST(length(" + q + ") AS BLOB) ELSE " + q + " END"
}

// materialized makes stmt compute all its rows before handing over the
// first (see above).
func materialized(stmt string) string {
	return "WITH gopi_read_rows_ AS MATERIALIZED (\n" + stmt + "\n) SELECT * FROM gopi_read_rows_"
}

// blobSize is the size of a blob a capped column stood in for.
type blobSize int64

// uncap reads a value of a column written by cappedExpr with n: a blob
// is the stand-in's size, text longer than n characters is cut to n and
// ends with "…".
func uncap(v any, n int) any {
	switch v := v.(type) {
	case []byte:
		size, _ := strconv.ParseInt(string(v), 10, 64)
		return blobSize(size)
	case string:
		if len(v) <= n {
			return v
		}
		i, count := 0, 0
		for i < len(v) && count < n {
			_, size := utf8.DecodeRuneInString(v[i:])
			i += size
			count++
		}
		if i == len(v) {
			return v
		}
		return strings.Clone(v[:i]) + "…"
	}
	return v
}

// columnNames returns the result column names of stmt, prepared on c but
// not run; nil when it cannot be prepared.
func columnNames(c interface {
	Raw(func(any) error) error
}, stmt string) []string {
	var names []string
	_ = c.Raw(func(dc any) error {
		ci, ok := dc.(interface {
			ColumnInfo(string) ([]sqlite.ColumnInfo, error)
		})
		if !ok {
			return nil
		}
		info, err := ci.ColumnInfo(stmt)
		if err != nil {
			return nil
		}
		for _, col := range info {
			names = append(names, col.Name)
		}
		return nil
	})
	return names
}
