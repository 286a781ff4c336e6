package docgen

import "strings"

// Table renders a Markdown table: a header row, the separator, one row per
// entry. Cells are written as given; use Text or Code for their content.
func Table(header []string, rows [][]string) string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" ")
			b.WriteString(c)
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	row(header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
	}
	row(sep)
	for _, r := range rows {
		row(r)
	}
	return b.String()
}

// textEscaper escapes what Markdown would otherwise read as markup in a
// table cell: the cell separator, emphasis, code, HTML and escapes.
var textEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "`", "\\`", "<", "&lt;", ">", "&gt;",
)

// Text is plain text for a table cell, shown as written. An underscore is
// escaped only where it could open or close emphasis: inside a word
// (PI_NO_TITLE) GFM reads it as text.
func Text(s string) string {
	s = textEscaper.Replace(s)
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	for i := range len(s) {
		if s[i] == '_' && !(i > 0 && wordByte(s[i-1]) && i+1 < len(s) && wordByte(s[i+1])) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// wordByte reports whether c is an ASCII letter or digit.
func wordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Code is s as inline code in a table cell ("" stays empty). A backtick in
// s lengthens the fence, as CommonMark allows; a | is escaped, which GFM
// tables require even inside code.
func Code(s string) string {
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}
