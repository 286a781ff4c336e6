package htmlexport

import (
	"fmt"
	"strings"
)

// goldmark's time grows faster than the text for some inputs: quotes and
// lists nested hundreds deep (each line walks every open container), and
// long runs of Markdown delimiters ("[a](" repeated, emphasis openers
// without closers), where each delimiter can make it scan to the end of
// its paragraph. A 10 MB session of such text took minutes and a
// gigabyte. Before a message is rendered, one linear pass estimates that
// work; a message nested too deep, or whose estimate is over its budget,
// is shown as plain text instead, so the page costs time in proportion
// to the session.

// Markdown limits of one message.
const (
	// maxMarkdownDepth is the deepest nesting of quotes and lists (and
	// each 4 columns of indentation) rendered as Markdown.
	maxMarkdownDepth = 16
	// markdownWorkPerByte and markdownWorkBase give a message's budget:
	// the estimate may reach markdownWorkBase plus markdownWorkPerByte
	// for each byte of text. The estimate sums, over the stretches of text
	// goldmark parses as one (a paragraph, a list item, a table row, a
	// line of code), the stretch's length times its delimiters; ordinary
	// prose and code-heavy answers stay well below 64 a byte.
	markdownWorkPerByte = 64
	markdownWorkBase    = 1 << 16
)

// markdownTooCostly says why text is shown as plain text instead of
// Markdown ("" when it may be rendered).
func markdownTooCostly(text string) string {
	budget := markdownWorkBase + markdownWorkPerByte*len(text)
	var (
		work          int
		stretchLen    int  // bytes of the stretch being read
		stretchDelims int  // its delimiters
		stretchLines  int  // its lines
		table         bool // the stretch is a table: rows are parsed one by one
		fence         codeFence
	)
	end := func() {
		work += stretchLen * stretchDelims
		stretchLen, stretchDelims, stretchLines = 0, 0, 0
	}
	for rest := text; rest != "" && work <= budget; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		p := readPrefix(line)
		if fence.open() {
			if fence.holds(p) {
				if !fence.closedBy(line, p) {
					work += len(line) * countDelimiters(p.body) // code: each line on its own
				} else {
					fence = codeFence{}
				}
				continue
			}
			fence = codeFence{} // its container ended, and the fence with it
		}
		if p.depth() > maxMarkdownDepth {
			return fmt.Sprintf("it nests quotes and lists more than %d levels deep", maxMarkdownDepth)
		}
		if f := openFence(p); f.open() {
			end()
			table, fence = false, f
			continue
		}
		if strings.TrimSpace(p.body) == "" {
			end()
			table = false
			continue
		}
		switch {
		case p.quotes+p.lists > 0 || strings.HasPrefix(p.body, "#"):
			end() // a list item, a quote or a heading starts its own stretch
			table = false
		case table:
			end()
		case stretchLines == 1 && isTableDelimiterRow(p.body):
			end()
			table = true
		}
		stretchLen += len(line) + 1
		stretchDelims += countDelimiters(p.body)
		stretchLines++
		if work+stretchLen*stretchDelims > budget {
			return tooDense
		}
	}
	end()
	if work > budget {
		return tooDense
	}
	return ""
}

// tooDense is why a message over its budget is shown as plain text.
const tooDense = "it holds too many Markdown delimiters for its length to be laid out in reasonable time"

// linePrefix is what opens a line: its quote and list markers and its
// indentation.
type linePrefix struct {
	quotes, lists int    // markers
	cols          int    // columns of white space among them
	indent        int    // columns of white space just before body
	body          string // the rest of the line
}

// depth is the nesting the prefix stands for: a level for each marker
// and for each 4 columns of white space.
func (p linePrefix) depth() int { return p.quotes + p.lists + p.cols/4 }

// readPrefix reads the markers and indentation that open line.
func readPrefix(line string) linePrefix {
	var p linePrefix
	i, col := 0, 0
	for {
		p.indent = 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			w := 1
			if line[i] == '\t' {
				w = 4 - col%4
			}
			col += w
			p.cols += w
			p.indent += w
			i++
		}
		n := marker(line[i:])
		if n == 0 {
			break
		}
		if line[i] == '>' {
			p.quotes++
		} else {
			p.lists++
		}
		i += n
		col += n
	}
	p.body = line[i:]
	return p
}

// marker is the length of the quote marker (">") or list marker ("-",
// "*", "+", "1." or "1)" followed by white space or the end of the line)
// that s starts with, 0 when none.
func marker(s string) int {
	if s == "" {
		return 0
	}
	if s[0] == '>' {
		return 1
	}
	n := 0
	switch {
	case s[0] == '-' || s[0] == '*' || s[0] == '+':
		n = 1
	case s[0] >= '0' && s[0] <= '9':
		for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == len(s) || s[n] != '.' && s[n] != ')' {
			return 0
		}
		n++
	default:
		return 0
	}
	if n == len(s) || s[n] == ' ' || s[n] == '\t' {
		return n
	}
	return 0
}

// codeFence is an open fenced code block: its fence and the prefix of
// the line that opened it.
type codeFence struct {
	char   byte // ` or ~; 0 when no block is open
	n      int  // the fence's length
	top    bool // opened outside any quote or list: it runs to its closing fence whatever the lines hold
	quotes int  // quote markers before it
	indent int  // columns of white space before it
}

func (f codeFence) open() bool { return f.char != 0 }

// openFence reads a code fence opening a block: three or more ` or ~,
// and for backticks an info string without any.
func openFence(p linePrefix) codeFence {
	s := p.body
	if len(s) < 3 || s[0] != '`' && s[0] != '~' {
		return codeFence{}
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || s[0] == '`' && strings.IndexByte(s[n:], '`') >= 0 {
		return codeFence{}
	}
	top := p.quotes == 0 && p.lists == 0 && p.cols <= 3
	return codeFence{char: s[0], n: n, top: top, quotes: p.quotes, indent: p.indent}
}

// holds reports whether a line is inside the block rather than ending
// its container. A block opened at the top level holds every line until
// its closing fence; one in a quote or list holds lines with the same
// quotes, no list marker and no less indentation. When unsure the answer
// is no, so that text goldmark parses as Markdown is not counted as code.
func (f codeFence) holds(p linePrefix) bool {
	if f.top {
		return true
	}
	return p.quotes == f.quotes && p.lists == 0 && (p.indent >= f.indent || strings.TrimSpace(p.body) == "")
}

// closedBy reports whether line, read as p, is the block's closing
// fence: at the top level the fence itself, at most 3 spaces in; inside
// a container the same after the container's markers.
func (f codeFence) closedBy(line string, p linePrefix) bool {
	body := p.body
	if f.top {
		body = strings.TrimLeft(line, " ")
		if len(line)-len(body) > 3 {
			return false
		}
	}
	n := 0
	for n < len(body) && body[n] == f.char {
		n++
	}
	return n >= f.n && strings.TrimSpace(body[n:]) == ""
}

// isTableDelimiterRow reports whether s is the row under a table's
// header: cells of dashes, each with an optional colon at either end.
func isTableDelimiterRow(s string) bool {
	s = strings.Trim(strings.TrimSpace(s), "|")
	if !strings.Contains(s, "-") {
		return false
	}
	for _, cell := range strings.Split(s, "|") {
		cell = strings.Trim(strings.TrimSpace(cell), ":")
		if cell == "" || strings.Trim(cell, "-") != "" {
			return false
		}
	}
	return true
}

// isDelimiter marks the bytes that open or close inline Markdown: links
// and images, emphasis and strikethrough, code spans, autolinks and raw
// HTML.
var isDelimiter = func() (t [256]bool) {
	for _, c := range []byte("[]()*_~`<!") {
		t[c] = true
	}
	return t
}()

// countDelimiters counts the delimiters in s.
func countDelimiters(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDelimiter[s[i]] {
			n++
		}
	}
	return n
}
