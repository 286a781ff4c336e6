package tool

import (
	"strings"
	"unicode/utf8"
)

// Output caps shared by every tool.
const (
	DefaultMaxBytes  = 50 * 1024 // bytes of text a tool returns to the model
	DefaultMaxLines  = 3000      // lines of text a tool returns to the model
	DefaultMaxColumn = 1024      // characters kept of one line before it is cut
)

// Ellipsis marks a cut line.
const Ellipsis = "…"

// Limits bounds a truncation; a zero field takes its default. Pass
// NoLineLimit as MaxLines to cap bytes only (as search and find do).
type Limits struct {
	MaxLines int // keep at most this many lines (DefaultMaxLines when 0)
	MaxBytes int // keep at most this many bytes (DefaultMaxBytes when 0)
}

// NoLineLimit disables the line cap of a truncation.
const NoLineLimit = int(^uint(0) >> 1)

// Truncation is the outcome of TruncateHead or TruncateTail: the kept text
// and what was cut. Lines are counted as '\n'-separated pieces, so "a\n"
// has two lines (the second empty).
type Truncation struct {
	Content               string `json:"content"`               // the kept text
	Truncated             bool   `json:"truncated"`             // something was cut
	TruncatedBy           string `json:"truncatedBy,omitempty"` // "lines" or "bytes": which cap cut first
	TotalLines            int    `json:"totalLines"`            // lines in the input
	TotalBytes            int    `json:"totalBytes"`            // bytes in the input
	OutputLines           int    `json:"outputLines"`           // lines kept
	OutputBytes           int    `json:"outputBytes"`           // bytes kept
	LastLinePartial       bool   `json:"lastLinePartial"`       // tail only: the one kept line is its own tail
	FirstLineExceedsLimit bool   `json:"firstLineExceedsLimit"` // head only: the first line alone is over MaxBytes
	MaxLines              int    `json:"maxLines"`              // the line cap applied
	MaxBytes              int    `json:"maxBytes"`              // the byte cap applied
}

func (l Limits) resolve() Limits {
	if l.MaxLines <= 0 {
		l.MaxLines = DefaultMaxLines
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// TruncateHead keeps the beginning of s: whole lines while both caps hold.
// If the first line alone is larger than MaxBytes nothing is kept and
// FirstLineExceedsLimit is set, so the caller can point at another way to
// see it.
func TruncateHead(s string, limits Limits) Truncation {
	l := limits.resolve()
	t := Truncation{TotalLines: strings.Count(s, "\n") + 1, TotalBytes: len(s), MaxLines: l.MaxLines, MaxBytes: l.MaxBytes}
	if t.TotalLines <= l.MaxLines && len(s) <= l.MaxBytes {
		t.Content, t.OutputLines, t.OutputBytes = s, t.TotalLines, len(s)
		return t
	}
	t.Truncated = true
	end, lines, pos := 0, 0, 0 // s[:end] holds `lines` whole lines; pos starts the next
	for lines < l.MaxLines {
		i := strings.IndexByte(s[pos:], '\n')
		stop := len(s)
		if i >= 0 {
			stop = pos + i
		}
		if stop > l.MaxBytes {
			t.TruncatedBy = "bytes"
			break
		}
		end, lines = stop, lines+1
		if i < 0 {
			break
		}
		pos = stop + 1
	}
	if t.TruncatedBy == "" {
		t.TruncatedBy = "lines"
	}
	if lines == 0 {
		t.FirstLineExceedsLimit = true
	}
	t.Content, t.OutputLines, t.OutputBytes = s[:end], lines, end
	return t
}

// TruncateTail keeps the end of s: whole lines, newest last, while both
// caps hold. If the last line alone is larger than MaxBytes its final
// MaxBytes (cut at a character boundary) are kept and LastLinePartial is set.
func TruncateTail(s string, limits Limits) Truncation {
	l := limits.resolve()
	t := Truncation{TotalLines: strings.Count(s, "\n") + 1, TotalBytes: len(s), MaxLines: l.MaxLines, MaxBytes: l.MaxBytes}
	if t.TotalLines <= l.MaxLines && len(s) <= l.MaxBytes {
		t.Content, t.OutputLines, t.OutputBytes = s, t.TotalLines, len(s)
		return t
	}
	t.Truncated = true
	start, lines := len(s), 0 // s[start:] holds `lines` whole lines
	for lines < l.MaxLines {
		end := start - boolInt(lines > 0) // drop the '\n' before the kept part
		i := strings.LastIndexByte(s[:end], '\n')
		from := i + 1
		if len(s)-from > l.MaxBytes {
			t.TruncatedBy = "bytes"
			break
		}
		start, lines = from, lines+1
		if i < 0 {
			break
		}
	}
	if t.TruncatedBy == "" {
		t.TruncatedBy = "lines"
	}
	if lines == 0 {
		// The last line alone is too big: keep its tail.
		lineStart := strings.LastIndexByte(s, '\n') + 1
		cut := len(s) - l.MaxBytes
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		start, lines = max(cut, lineStart), 1
		t.LastLinePartial = true
	}
	t.Content, t.OutputLines, t.OutputBytes = s[start:], lines, len(s)-start
	return t
}

// TruncateLine cuts line to maxChars characters plus Ellipsis; it reports
// whether it cut. maxChars <= 0 means DefaultMaxColumn.
func TruncateLine(line string, maxChars int) (string, bool) {
	if maxChars <= 0 {
		maxChars = DefaultMaxColumn
	}
	if len(line) <= maxChars {
		return line, false
	}
	n := 0
	for i := range line {
		if n == maxChars {
			return line[:i] + Ellipsis, true
		}
		n++
	}
	return line, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
