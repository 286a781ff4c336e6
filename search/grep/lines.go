package grep

import (
	"bytes"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/native/rure"
)

// buildMatches turns one file's hits into matches with context lines. The
// buffer is the worker's and is reused, so every string is copied out.
func buildMatches(buf []byte, h *rure.Hits, path string, opts *Options) []Match {
	out := make([]Match, 0, len(h.Lines))
	shownEnd := 0  // byte offset just past the last line already shown
	shownLine := 0 // number of the last line already shown
	for k, hit := range h.Lines {
		m := Match{Path: path, Line: hit.Line}
		text := buf[hit.Start:hit.End]
		m.Text, m.Truncated = cutLine(text, opts.MaxColumns)
		if spans := h.Spans[hit.SpanLo:hit.SpanHi]; len(spans) > 0 {
			limit := len(m.Text)
			m.Spans = make([]Span, 0, len(spans))
			for _, s := range spans {
				s.Start -= hit.Start
				s.End -= hit.Start
				if m.Truncated && s.End > limit-len("…") {
					break
				}
				m.Spans = append(m.Spans, s)
			}
		}
		if opts.ContextBefore > 0 {
			m.Before = linesBefore(buf, hit.Start, hit.Line, opts.ContextBefore, shownLine, opts.MaxColumns)
		}
		lastLine := hit.Line + bytes.Count(text, []byte{'\n'})
		shownLine, shownEnd = lastLine, hit.End
		if opts.ContextAfter > 0 {
			stop := len(buf)
			if k+1 < len(h.Lines) {
				stop = h.Lines[k+1].Start
			}
			m.After = linesAfter(buf, shownEnd, stop, lastLine, opts.ContextAfter, opts.MaxColumns)
			if n := len(m.After); n > 0 {
				shownLine = m.After[n-1].Line
			}
		}
		out = append(out, m)
	}
	return out
}

// linesBefore returns up to n lines ending just before byte offset start
// (the beginning of line number line), never reaching back to line
// shownLine or earlier.
func linesBefore(buf []byte, start, line, n, shownLine, maxCols int) []ContextLine {
	want := min(n, line-1-shownLine)
	if want <= 0 {
		return nil
	}
	out := make([]ContextLine, want)
	end := start - 1 // the '\n' ending the previous line
	for i := want - 1; i >= 0; i-- {
		lineStart := bytes.LastIndexByte(buf[:end], '\n') + 1
		text, cut := cutLine(buf[lineStart:end], maxCols)
		out[i] = ContextLine{Line: line - (want - i), Text: text, Truncated: cut}
		end = lineStart - 1
	}
	return out
}

// linesAfter returns up to n lines following the line(s) ending at byte
// offset end (numbered through lastLine), stopping before offset stop.
func linesAfter(buf []byte, end, stop, lastLine, n, maxCols int) []ContextLine {
	var out []ContextLine
	pos := end + 1 // past the '\n' ending the hit
	for len(out) < n && pos < stop && pos < len(buf) {
		lineEnd := len(buf)
		if i := bytes.IndexByte(buf[pos:], '\n'); i >= 0 {
			lineEnd = pos + i
		}
		text, cut := cutLine(buf[pos:lineEnd], maxCols)
		out = append(out, ContextLine{Line: lastLine + len(out) + 1, Text: text, Truncated: cut})
		pos = lineEnd + 1
	}
	return out
}

// cutLine copies a line out of the buffer, cutting it after maxCols
// characters (bytes where the text is not valid UTF-8) with a trailing "…".
func cutLine(line []byte, maxCols int) (string, bool) {
	if maxCols <= 0 || len(line) <= maxCols {
		return string(line), false
	}
	chars, i := 0, 0
	for i < len(line) && chars < maxCols {
		_, size := utf8.DecodeRune(line[i:])
		i += size
		chars++
	}
	if i >= len(line) {
		return string(line), false
	}
	return string(line[:i]) + "…", true
}
