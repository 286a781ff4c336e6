package read

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Table rendering caps.
const (
	tableMaxWidth  = 120 // display columns of a whole table row
	tableMaxColumn = 40  // display columns of one cell
	tableMinColumn = 4   // a cell is not narrowed below this to fit tableMaxWidth
)

// renderTable lays rows out as a Markdown-style table: cells at most
// tableMaxColumn wide (longer ones cut with "…"), rows at most
// tableMaxWidth wide (the widest columns are narrowed to fit). A table
// that cannot fit even with narrow columns is shown one record per row.
func renderTable(cols []string, rows [][]string) string {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = min(max(ansi.StringWidth(c), 1), tableMaxColumn)
	}
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = min(max(widths[i], ansi.StringWidth(cell)), tableMaxColumn)
		}
	}
	total := func() int {
		n := 1
		for _, w := range widths {
			n += w + 3
		}
		return n
	}
	for total() > tableMaxWidth {
		widest := 0
		for i, w := range widths {
			if w > widths[widest] {
				widest = i
			}
		}
		if widths[widest] <= tableMinColumn {
			return renderRecords(cols, rows)
		}
		widths[widest]--
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for i, c := range cells {
			b.WriteString(" " + fit(c, widths[i]) + " |")
		}
		b.WriteString("\n")
	}
	line(cols)
	sep := make([]string, len(cols))
	for i, w := range widths {
		sep[i] = strings.Repeat("-", w)
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// fit pads s to w display columns, cutting it with "…" when wider.
func fit(s string, w int) string {
	s = cut(s, w)
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

// cut shortens s to w display columns, ending it with "…" when it was
// longer.
func cut(s string, w int) string {
	if ansi.StringWidth(s) > w {
		return ansi.Truncate(s, w, "…")
	}
	return s
}

// renderRecords shows each row as "column: value" lines, for tables too
// wide to lay out side by side.
func renderRecords(cols []string, rows [][]string) string {
	var b strings.Builder
	for n, r := range rows {
		if n > 0 {
			b.WriteString("\n")
		}
		b.WriteString("[row " + strconv.Itoa(n+1) + "]\n")
		for i, c := range cols {
			b.WriteString(c + ": " + cut(r[i], max(tableMaxColumn, tableMaxWidth-ansi.StringWidth(c)-2)) + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// renderRecord shows one row as "column: value" lines, values whole; a
// value of several lines starts on its own line, indented.
func renderRecord(cols []string, vals []any) string {
	var b strings.Builder
	for i, c := range cols {
		v := " " + valueText(vals[i])
		if s, ok := vals[i].(string); ok && strings.ContainsAny(s, "\n\r") {
			v = "\n  " + strings.ReplaceAll(strings.ReplaceAll(strings.TrimRight(s, "\r\n"), "\r\n", "\n"), "\n", "\n  ")
		}
		b.WriteString(c + ":" + v)
		if i < len(cols)-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}
