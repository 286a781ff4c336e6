package main

import (
	"strconv"
	"unsafe"

	"github.com/gopi-agent/gopi/internal/jsonquote"
	"github.com/gopi-agent/gopi/search/grep"
)

// appendGrepJSON appends the --json line of one match without context
// lines: exactly the bytes a json.Encoder with HTML escaping off writes for
// toJSONMatch of the same match (TestGrepJSONMatchesEncodingJSON and
// FuzzGrepJSONMatchesEncodingJSON hold them equal). It is built by hand so
// that the workers format it (grep.Needs.Render) and so that a line with
// millions of matches is written out as it goes (spill, after each
// submatch) rather than built as millions of records first.
func appendGrepJSON(dst []byte, path string, m *grep.MatchView, spill lineSpill) ([]byte, bool) {
	text := bytesAsString(m.Text)
	dst = append(dst, `{"path":`...)
	dst = jsonquote.Append(dst, path, true)
	dst = append(dst, `,"line":`...)
	dst = strconv.AppendInt(dst, int64(m.Line), 10)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, m.Offset, 10)
	dst = append(dst, `,"text":`...)
	dst = jsonquote.Append(dst, text, true)
	if m.Truncated {
		dst = append(dst, `,"truncated":true`...)
	}
	dst = append(dst, `,"submatches":[`...)
	for i, s := range m.Spans {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"start":`...)
		dst = strconv.AppendInt(dst, int64(s.Start), 10)
		dst = append(dst, `,"end":`...)
		dst = strconv.AppendInt(dst, int64(s.End), 10)
		dst = append(dst, `,"text":`...)
		dst = jsonquote.Append(dst, submatchText(text, s), true)
		dst = append(dst, '}')
		if spill != nil {
			var ok bool
			if dst, ok = spill(dst); !ok {
				return dst, false
			}
		}
	}
	return append(dst, "]}\n"...), true
}

// bytesAsString views b as a string without copying it; the string must
// not outlive b or be used after b changes.
func bytesAsString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// submatchText is the text of one match of a line: a match that takes the
// line's final newline (a multiline pattern such as `foo\n`) ends past
// the text, which holds the line without it, so the newline is added back.
func submatchText(text string, s grep.Span) string {
	if s.End <= len(text) {
		return text[s.Start:s.End]
	}
	return text[min(s.Start, len(text)):] + "\n"
}
