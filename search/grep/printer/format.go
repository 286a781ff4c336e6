package printer

import (
	"strconv"

	"github.com/gopi-agent/gopi/search/grep"
)

// lineBlock carries, from one match of a file to the next, the block of
// touching lines ripgrep prints a multiline search's matches in: every
// line of a block is printed with the column of the block's first match.
// The zero value starts a file.
type lineBlock struct {
	next int // the line after the block's last line; 0 before the first match
	col  int // the column of the block's first match
}

// pathSep is what follows a path before more text on the same line.
func (f *Config) pathSep(sep byte) byte {
	if f.Null {
		return 0
	}
	return sep
}

// lineSpill hands the lines appendMatch has formatted so far on (to the
// printer) and returns the buffer to go on with; ok is false once nothing
// more is wanted (the reader went away), and appendMatch then returns.
// One long line can print millions of lines under -o or --vimgrep, so
// they are never all held at once.
type lineSpill func(dst []byte) (rest []byte, ok bool)

// appendMatch appends the output lines of one match (every line of a
// multiline one; one line per match with -o and --vimgrep) and returns
// how many lines of the file the match covers. at is the byte offset of
// the match's first line in the text searched. spanBuf is scratch for the
// spans of one line of a multiline match; blk is the file's block state
// (used when f.Crosses). spill, unless nil, is called after each output
// line; ok is false when it said to stop.
func appendMatch[T string | []byte](dst []byte, f *Config, path string, line int, at int64, text T, spans []grep.Span, spanBuf *[]grep.Span, blk *lineBlock, spill lineSpill) (out []byte, lines int, ok bool) {
	ok = true
	emit := func() bool {
		if spill != nil && ok {
			dst, ok = spill(dst)
		}
		return ok
	}
	rest := text
	offset, k := 0, 0
	for more := true; more; k++ {
		cur := rest
		if i := indexNewline(rest); i >= 0 {
			cur, rest = rest[:i], rest[i+1:]
		} else {
			more = false
		}
		lineSpans := spans
		if more || offset > 0 || overruns(spans, len(cur)) {
			// A match that spans lines (or ends with the line's newline):
			// the parts of its spans on this line, relative to it. A part
			// left empty by the cut (the newline itself, an empty line
			// inside a match) is no match of its own; an empty match is.
			lineSpans = (*spanBuf)[:0]
			for _, s := range spans {
				if s.Start == s.End {
					if s.Start >= offset && s.Start <= offset+len(cur) {
						lineSpans = append(lineSpans, grep.Span{Start: s.Start - offset, End: s.Start - offset})
					}
					continue
				}
				part := grep.Span{Start: max(s.Start-offset, 0), End: min(s.End-offset, len(cur))}
				if s.End > offset && s.Start < offset+len(cur) && part.Start < part.End {
					lineSpans = append(lineSpans, part)
				}
			}
			*spanBuf = lineSpans
		}
		switch {
		case f.Vimgrep && f.Crosses && !f.OnlyMatching:
			// One line per match, the line it starts on, with its column
			// there; -b gives that line's offset (as ripgrep does).
			for _, s := range spans {
				if s.Start < offset || s.Start > offset+len(cur) {
					continue
				}
				mark := grep.Span{Start: s.Start - offset, End: min(s.End-offset, len(cur))}
				if dst, ok = appendLineSpilled(dst, f, path, line+k, ':', mark.Start+1, at+int64(offset), cur, []grep.Span{mark}, spill); !ok || !emit() {
					return dst, k + 1, false
				}
			}
		case f.OnlyMatching || f.Vimgrep:
			// One output line per match: -o prints the matched text (an
			// empty match as an empty line, as ripgrep does), --vimgrep
			// the whole line, each with the match's column.
			for _, s := range lineSpans {
				// The match is highlighted: all of -o's text, the
				// line's one match of this --vimgrep line.
				shown, mark := cur, s
				if f.OnlyMatching {
					shown, mark = cur[s.Start:s.End], grep.Span{Start: 0, End: s.End - s.Start}
				}
				if dst, ok = appendLineSpilled(dst, f, path, line+k, ':', s.Start+1, at+int64(offset+s.Start), shown, []grep.Span{mark}, spill); !ok || !emit() {
					return dst, k + 1, false
				}
			}
		default:
			col := 0
			if len(lineSpans) > 0 {
				col = lineSpans[0].Start + 1
			} else if f.Column {
				col = 1
			}
			if f.Crosses && blk != nil {
				// A match on the line after the block's end joins it; the
				// block's column is where its first match starts, even on
				// the newline that ends the line.
				if k == 0 && (blk.next == 0 || line > blk.next) {
					blk.col = 1
					if len(spans) > 0 {
						blk.col = spans[0].Start + 1
					}
				}
				col = blk.col
			}
			if dst, ok = appendLineSpilled(dst, f, path, line+k, ':', col, at+int64(offset), cur, lineSpans, spill); !ok || !emit() {
				return dst, k + 1, false
			}
		}
		offset += len(cur) + 1
	}
	if blk != nil {
		blk.next = line + k
	}
	return dst, k, true
}

// overruns reports whether a span ends past a line of n bytes (a match
// that takes the line's newline).
func overruns(spans []grep.Span, n int) bool {
	for _, s := range spans {
		if s.End > n {
			return true
		}
	}
	return false
}

// indexNewline returns the offset of text's first newline, or -1. (A
// plain loop: converting a []byte for strings.IndexByte would copy it.)
func indexNewline[T string | []byte](text T) int {
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			return i
		}
	}
	return -1
}

// appendLine appends one output line; col (1-based) is printed after the
// line number when --column or --vimgrep asked for it and col > 0, then
// the byte offset at with -b.
func appendLine[T string | []byte](dst []byte, f *Config, path string, line int, sep byte, col int, at int64, text T, spans []grep.Span) []byte {
	dst, _ = appendLineSpilled(dst, f, path, line, sep, col, at, text, spans, nil)
	return dst
}

// textChunk is how much of one line's text appendLineSpilled appends
// between two calls of its spill.
const textChunk = 256 << 10

// appendLineSpilled is appendLine handing what it has formatted to spill
// (when not nil) every textChunk bytes of text, so that one line of any
// length never sits whole in an output buffer (--vimgrep prints a 40 MB
// line once per match); ok is false when spill said to stop.
func appendLineSpilled[T string | []byte](dst []byte, f *Config, path string, line int, sep byte, col int, at int64, text T, spans []grep.Span, spill lineSpill) (out []byte, ok bool) {
	ok = true
	put := func(part T) {
		for ok && len(part) > 0 {
			n := len(part)
			if spill != nil {
				if len(dst) >= textChunk {
					if dst, ok = spill(dst); !ok {
						return
					}
				}
				if len(dst) < textChunk { // a spill that kept the bytes: no pieces
					n = min(n, textChunk-len(dst))
				}
			}
			dst = append(dst, part[:n]...)
			part = part[n:]
		}
	}
	c := &f.Colors
	if f.WithPath {
		dst = append(dst, c.Path...)
		dst = append(dst, path...)
		dst = append(dst, c.Reset...)
		dst = append(dst, f.pathSep(sep))
	}
	if f.LineNumbers {
		dst = append(dst, c.Line...)
		dst = strconv.AppendInt(dst, int64(line), 10)
		dst = append(dst, c.Reset...)
		dst = append(dst, sep)
	}
	if f.Column && col > 0 {
		dst = appendNumber(dst, c, int64(col), sep)
	}
	if f.ByteOffset {
		dst = appendNumber(dst, c, at, sep)
	}
	if c.Match == "" || len(spans) == 0 {
		put(text)
	} else {
		// Matches that touch are highlighted as one run, as ripgrep does.
		pos := 0
		for i := 0; i < len(spans) && ok; i++ {
			s := spans[i]
			if s.Start < pos || s.End > len(text) || s.Start == s.End {
				continue
			}
			for i+1 < len(spans) && spans[i+1].Start == s.End && spans[i+1].End > s.End && spans[i+1].End <= len(text) {
				i++
				s.End = spans[i].End
			}
			put(text[pos:s.Start])
			dst = append(dst, c.Match...)
			put(text[s.Start:s.End])
			dst = append(dst, c.Reset...)
			pos = s.End
		}
		put(text[pos:])
	}
	return append(dst, '\n'), ok
}

// appendNumber appends a column or byte offset in ripgrep's style for them
// (uncolored, but wrapped in resets when colors are on) and sep.
func appendNumber(dst []byte, c *Palette, n int64, sep byte) []byte {
	dst = append(dst, c.Column...)
	dst = strconv.AppendInt(dst, n, 10)
	if c.Column != "" {
		dst = append(dst, c.Reset...)
	}
	return append(dst, sep)
}
