package grep

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/native/rure"
)

// buildMatches turns one file's hits into matches with context lines. The
// buffer is the worker's and is reused, so every string is copied out: the
// texts of all the file's matches into one string and their spans into one
// slice, two allocations per file instead of two per line (a search
// printing 240,000 lines spent a sixth of its time allocating them).
func buildMatches(buf []byte, h *rure.Hits, path string, opts *Options) []Match {
	out, _ := buildMatchesFrom(buf, h, 0, len(h.Lines), 0, path, opts)
	return out
}

// buildMatchesFrom is buildMatches for the hits h.Lines[lo:hi] only, after
// line shownLine was the last one shown (0: none); it also returns the
// last line it shows. The matches of a large search are built and handed
// out a batch at a time this way, context lines never shown twice.
func buildMatchesFrom(buf []byte, h *rure.Hits, lo, hi, shownLine int, path string, opts *Options) ([]Match, int) {
	lines := h.Lines[lo:hi]
	out := make([]Match, 0, len(lines))
	room := 0
	for _, hit := range lines {
		room += hit.End - hit.Start + len("…")
	}
	var texts strings.Builder
	texts.Grow(room)
	ends := make([]int, 0, len(lines)) // where each match's text ends in texts
	spanCount := 0
	if len(lines) > 0 {
		spanCount = lines[len(lines)-1].SpanHi - lines[0].SpanLo
	}
	allSpans := make([]Span, 0, spanCount)
	shownEnd := 0 // byte offset just past the last line already shown
	for i, hit := range lines {
		k := lo + i
		m := Match{Path: path, Line: hit.Line, Offset: int64(hit.Start)}
		text := buf[hit.Start:hit.End]
		n := texts.Len()
		m.Truncated = writeCut(&texts, text, opts.MaxColumns)
		ends = append(ends, texts.Len())
		if spans := h.Spans[hit.SpanLo:hit.SpanHi]; len(spans) > 0 {
			limit := texts.Len() - n
			lo := len(allSpans)
			for _, s := range spans {
				s.Start -= hit.Start
				s.End -= hit.Start
				if m.Truncated && s.End > limit-len("…") {
					break
				}
				allSpans = append(allSpans, s)
			}
			if hi := len(allSpans); hi > lo {
				m.Spans = allSpans[lo:hi:hi]
			} else {
				m.Spans = []Span{}
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
	all := texts.String()
	start := 0
	for i, end := range ends {
		out[i].Text = all[start:end]
		start = end
	}
	return out, shownLine
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
		out[i] = ContextLine{Line: line - (want - i), Offset: int64(lineStart), Text: text, Truncated: cut}
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
		out = append(out, ContextLine{Line: lastLine + len(out) + 1, Offset: int64(pos), Text: text, Truncated: cut})
		pos = lineEnd + 1
	}
	return out
}

// cutLine copies a line out of the buffer, cutting it after maxCols
// characters (bytes where the text is not valid UTF-8) with a trailing "…".
func cutLine(line []byte, maxCols int) (string, bool) {
	var b strings.Builder
	cut := writeCut(&b, line, maxCols)
	return b.String(), cut
}

// writeCut writes line to b, cut after maxCols characters (none when
// maxCols <= 0) with "…" appended when it was cut, which it reports.
func writeCut(b *strings.Builder, line []byte, maxCols int) bool {
	if maxCols <= 0 {
		b.Write(line)
		return false
	}
	i := cutBytes(line, maxCols)
	b.Write(line[:i])
	if i < len(line) {
		b.WriteString("…")
		return true
	}
	return false
}

// cutBytes returns the length of line's first maxCols characters (maxCols
// > 0): len(line) when it is not longer.
func cutBytes(line []byte, maxCols int) int {
	if len(line) <= maxCols {
		return len(line)
	}
	chars, i := 0, 0
	for i < len(line) && chars < maxCols {
		_, size := utf8.DecodeRune(line[i:])
		i += size
		chars++
	}
	return min(i, len(line))
}
