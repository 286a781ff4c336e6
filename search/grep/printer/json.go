package printer

import (
	"strconv"
	"unsafe"

	"github.com/gopi-agent/gopi/internal/jsonquote"
	"github.com/gopi-agent/gopi/search/grep"
)

// appendJSON appends the --json line of one match without context
// lines: exactly the bytes a json.Encoder with HTML escaping off writes for
// toJSONMatch of the same match (TestJSONMatchesEncodingJSON and
// FuzzJSONMatchesEncodingJSON hold them equal). It is built by hand so
// that the workers format it (grep.Needs.Render) and so that a line with
// millions of matches is written out as it goes (spill, after each
// submatch) rather than built as millions of records first.
func appendJSON(dst []byte, path string, m *grep.MatchView, spill lineSpill) ([]byte, bool) {
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

// jsonMatch is the --json shape of one match record.
type jsonMatch struct {
	Path       string        `json:"path"`
	Line       int           `json:"line"`
	Offset     int64         `json:"offset"` // of the line's first byte, as -b prints it
	Text       string        `json:"text"`
	Truncated  bool          `json:"truncated,omitempty"`
	Submatches []jsonSpan    `json:"submatches"`
	Before     []jsonCtxLine `json:"before,omitempty"`
	After      []jsonCtxLine `json:"after,omitempty"`
}

// jsonSpan is one submatch of a jsonMatch.
type jsonSpan struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// jsonCtxLine is a context line of a jsonMatch.
type jsonCtxLine struct {
	Line   int    `json:"line"`
	Offset int64  `json:"offset"`
	Text   string `json:"text"`
}

// toJSONMatch is the --json record of m, printed as path.
func toJSONMatch(path string, m *grep.Match) jsonMatch {
	jm := jsonMatch{Path: path, Line: m.Line, Offset: m.Offset, Text: m.Text, Truncated: m.Truncated, Submatches: []jsonSpan{}}
	for _, s := range m.Spans {
		jm.Submatches = append(jm.Submatches, jsonSpan{Start: s.Start, End: s.End, Text: submatchText(m.Text, s)})
	}
	for _, c := range m.Before {
		jm.Before = append(jm.Before, jsonCtxLine{c.Line, c.Offset, c.Text})
	}
	for _, c := range m.After {
		jm.After = append(jm.After, jsonCtxLine{c.Line, c.Offset, c.Text})
	}
	return jm
}
