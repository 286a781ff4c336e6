package notebook

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// style is how a notebook file writes its JSON, read from the file so
// that what an edit adds looks like what is there. Jupyter writes
// json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) and a
// final newline; other writers differ in indent width, key order and
// escaping.
type style struct {
	newline  string // "\n" or "\r\n"; "" when the file is on one line
	unit     string // one level of indentation (" ", "  ", "\t"); "" when on one line
	keySep   string // between a key and its value: ": " or ":"
	flatSep  string // between items on one line: ", " or ","
	ascii    bool   // non-ASCII characters written as \u escapes
	sortKeys bool   // object keys in sorted order
}

// detectStyle reads the style of a notebook from its top-level object.
func detectStyle(data []byte, top object) style {
	st := style{keySep: ": ", flatSep: ", ", sortKeys: true}
	if len(top.members) > 0 {
		m := top.members[0]
		st.keySep = string(data[m.keyAt.end:m.val.start])
		open := string(data[top.at.start+1 : m.keyAt.start])
		if i := strings.LastIndexByte(open, '\n'); i >= 0 {
			st.newline = "\n"
			if i > 0 && open[i-1] == '\r' {
				st.newline = "\r\n"
			}
			st.unit = open[i+1:]
		}
		switch {
		case len(top.members) > 1 && st.newline == "":
			st.flatSep = string(data[m.val.end:top.members[1].keyAt.start])
		case st.keySep == ":":
			st.flatSep = "," // JSON.stringify's, where the file shows no separator
		}
		keys := make([]string, len(top.members))
		for i, m := range top.members {
			keys[i] = m.key
		}
		st.sortKeys = slices.IsSorted(keys)
	}
	st.ascii = asciiEscaped(data)
	return st
}

// asciiEscaped reports whether the file writes non-ASCII characters as
// \u escapes: it has such an escape and no raw non-ASCII byte. A file
// with neither is taken to write them raw, as Jupyter does.
func asciiEscaped(data []byte) bool {
	escaped := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c >= 0x80:
			return false
		case c == '\\' && i+1 < len(data):
			if data[i+1] == 'u' && i+5 < len(data) {
				if n, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16); err == nil && n >= 0x80 {
					escaped = true
				}
			}
			i++
		}
	}
	return escaped
}

// quote writes s as a JSON string the way Python's json and JavaScript's
// JSON.stringify both do: the short escapes \" \\ \n \r \t \b \f, \u00XX
// (lowercase) for the other control characters, everything else as is,
// or as \uXXXX (surrogate pairs beyond U+FFFF) when the style is ASCII.
func (st style) quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteString(hex2(byte(r)))
		case r >= 0x80 && st.ascii:
			if r > 0xFFFF {
				r -= 0x10000
				b.WriteString(`\u` + hex4(0xD800+(r>>10)) + `\u` + hex4(0xDC00+(r&0x3FF)))
			} else {
				b.WriteString(`\u` + hex4(r))
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func hex2(c byte) string { return string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15]) }

func hex4(r rune) string { return hex2(byte(r>>8)) + hex2(byte(r)) }

// list writes items (JSON values) as an array whose items sit at indent
// and whose closing bracket sits at closeIndent.
func (st style) list(items []string, indent, closeIndent string) string {
	if len(items) == 0 {
		return "[]"
	}
	if st.newline == "" {
		return "[" + strings.Join(items, st.flatSep) + "]"
	}
	lead := st.newline + indent
	return "[" + lead + strings.Join(items, ","+lead) + st.newline + closeIndent + "]"
}

// obj writes members (key and JSON value) as an object, laid out as list
// lays out items.
func (st style) obj(keys, values []string, indent, closeIndent string) string {
	if len(keys) == 0 {
		return "{}"
	}
	items := make([]string, len(keys))
	for i, k := range keys {
		items[i] = st.quote(k) + st.keySep + values[i]
	}
	s := st.list(items, indent, closeIndent)
	return "{" + s[1:len(s)-1] + "}"
}

// decodeString decodes one JSON string. A plain one (printable ASCII,
// no escapes), as keys and cell types are, is taken as it is.
func decodeString(raw []byte) (string, error) {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && plainASCII(raw[1:n-1]) {
		return string(raw[1 : n-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// plainASCII reports whether b is printable ASCII without a quote or a
// backslash: the content of a JSON string that needs no decoding.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
