package tool

import (
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/hashline"
)

// DisplayMode is how file lines are prefixed for the model.
type DisplayMode uint8

// Display modes.
const (
	DisplayPlain       DisplayMode = iota // the text alone (raw reads, immutable sources)
	DisplayLineNumbers                    // "41|text"
	DisplayHashline                       // "41th|text": anchors the edit tool accepts
)

// DisplayMode picks the prefix for lines of a file: anchors when the edit
// mode is hashline, the edit tool is available, the read is not raw, the
// source can be edited and ReadHashLines is on; else line numbers when
// ReadLineNumbers is on and the read is not raw; else nothing.
func (e *Env) DisplayMode(raw, immutable bool) DisplayMode {
	switch {
	case raw:
		return DisplayPlain
	case e.Settings.EditMode == EditHashline && e.EditEnabled && !immutable && e.Settings.ReadHashLines:
		return DisplayHashline
	case e.Settings.ReadLineNumbers:
		return DisplayLineNumbers
	}
	return DisplayPlain
}

// LineRef returns the reference of a line in mode m, without the body
// separator: "41th", "41", or "" for DisplayPlain.
func (m DisplayMode) LineRef(line int, text string) string {
	switch m {
	case DisplayHashline:
		return hashline.Anchor(line, text)
	case DisplayLineNumbers:
		return strconv.Itoa(line)
	}
	return ""
}

// AppendRow appends one displayed line to dst: ref + "|" + text, or the
// text alone in DisplayPlain. A trailing '\r' is not shown.
func (m DisplayMode) AppendRow(dst []byte, line int, text string) []byte {
	text = strings.TrimSuffix(text, "\r")
	switch m {
	case DisplayHashline:
		dst = hashline.AppendAnchor(dst, line, text)
		dst = append(dst, hashline.BodySeparator...)
	case DisplayLineNumbers:
		dst = strconv.AppendInt(dst, int64(line), 10)
		dst = append(dst, hashline.BodySeparator...)
	}
	return append(dst, text...)
}

// FormatLines renders lines numbered from firstLine in mode m, joined by '\n'.
func (m DisplayMode) FormatLines(lines []string, firstLine int) string {
	size := 0
	for _, l := range lines {
		size += len(l) + 12
	}
	b := make([]byte, 0, size)
	for i, l := range lines {
		if i > 0 {
			b = append(b, '\n')
		}
		b = m.AppendRow(b, firstLine+i, l)
	}
	return string(b)
}
