package tui

import (
	"strconv"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/gopi-agent/gopi/core/gfm"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
)

// The Markdown of answers is drawn for the terminal here: goldmark (which
// the HTML export links anyway) parses it, and the blocks are laid out
// with wrapping, indentation and the theme's colours. A Markdown library
// for terminals (glamour) would have pulled in a syntax highlighter whose
// package initialisers cost ~20 ms at the start of every gopi command,
// `gopi grep` included; code blocks are coloured by highlight.go instead.
//
// mdParser is built on first use: building it at start-up cost every gopi
// command, `gopi --version` included, its allocations.
var mdParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(gfm.Extension)).Parser()
})

// mdWriter lays out one Markdown document.
type mdWriter struct {
	th    theme
	src   []byte
	width int
	lines []string
}

// renderMarkdown draws Markdown text at width.
func renderMarkdown(th theme, src string, width int) string {
	w := &mdWriter{th: th, src: []byte(src), width: max(20, width)}
	doc := mdParser().Parse(gtext.NewReader(w.src))
	w.blocks(doc, "", "")
	for len(w.lines) > 0 && strings.TrimSpace(w.lines[len(w.lines)-1]) == "" {
		w.lines = w.lines[:len(w.lines)-1]
	}
	return strings.Join(w.lines, "\n")
}

// blocks draws the block children of n; first is the prefix of the first
// line, rest of the others (list markers, quote bars, indentation).
func (w *mdWriter) blocks(n ast.Node, first, rest string) {
	i := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		p := rest
		if i == 0 {
			p = first
		}
		if i > 0 && w.spaced(n, c) {
			w.lines = append(w.lines, strings.TrimRight(rest, " "))
		}
		w.block(c, p, rest)
		i++
	}
}

// spaced says whether a blank line goes before block c (of parent n):
// between top-level blocks and in loose lists, not between the items or
// paragraphs of a tight list.
func (w *mdWriter) spaced(n, c ast.Node) bool {
	switch n := n.(type) {
	case *ast.List:
		return !n.IsTight
	case *ast.ListItem:
		if l, ok := n.Parent().(*ast.List); ok {
			return !l.IsTight
		}
	}
	return true
}

func (w *mdWriter) block(n ast.Node, first, rest string) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		w.wrapped(w.inline(n), first, rest)
	case *ast.Heading:
		st := w.th.accent.Bold(true)
		if n.Level > 2 {
			st = w.th.title
		}
		w.wrapped(st.Render(strings.Repeat("#", n.Level)+" ")+w.inlineStyled(n, st), first, rest)
	case *ast.ThematicBreak:
		w.lines = append(w.lines, first+w.th.dim.Render(strings.Repeat("─", max(3, min(40, w.width-ansi.StringWidth(first))))))
	case *ast.FencedCodeBlock:
		w.code(n.Lines(), string(n.Language(w.src)), first, rest)
	case *ast.CodeBlock:
		w.code(n.Lines(), "", first, rest)
	case *ast.Blockquote:
		bar := w.th.dim.Render("▎ ")
		w.blocks(n, first+bar, rest+bar)
	case *ast.List:
		num := n.Start
		i := 0
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			marker := "• "
			if n.IsOrdered() {
				marker = strconv.Itoa(num) + ". "
				num++
			}
			if i > 0 && !n.IsTight {
				w.lines = append(w.lines, strings.TrimRight(rest, " "))
			}
			p := rest
			if i == 0 {
				p = first
			}
			pad := strings.Repeat(" ", ansi.StringWidth(marker))
			w.blocks(item, p+w.th.accent.Render(marker), rest+pad)
			i++
		}
	case *ast.HTMLBlock:
		var b strings.Builder
		for i := range n.Lines().Len() {
			seg := n.Lines().At(i)
			b.Write(seg.Value(w.src))
		}
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			w.lines = append(w.lines, first+w.th.dim.Render(l))
			first = rest
		}
	case *east.Table:
		w.table(n, first, rest)
	default:
		if n.HasChildren() {
			w.blocks(n, first, rest)
		}
	}
}

// wrapped word-wraps styled text behind the prefixes.
func (w *mdWriter) wrapped(s, first, rest string) {
	avail := max(10, w.width-ansi.StringWidth(rest))
	for i, l := range strings.Split(ansi.Wrap(s, avail, ""), "\n") {
		p := rest
		if i == 0 {
			p = first
		}
		w.lines = append(w.lines, p+l)
	}
}

// code draws a code block: a dim gutter, the lines coloured, long lines
// cut to the width rather than wrapped.
func (w *mdWriter) code(lines *gtext.Segments, lang, first, rest string) {
	var src strings.Builder
	for i := range lines.Len() {
		seg := lines.At(i)
		src.Write(seg.Value(w.src))
	}
	gutter := w.th.dim.Render("│ ")
	avail := max(10, w.width-ansi.StringWidth(rest)-2)
	code := strings.TrimRight(strings.ReplaceAll(src.String(), "\t", "    "), "\n")
	for i, l := range highlight(w.th, lang, code) {
		p := rest
		if i == 0 {
			p = first
		}
		w.lines = append(w.lines, p+gutter+ansi.Truncate(l, avail, "…"))
	}
}

// table draws a table with aligned columns; one too wide for the window
// is drawn a row per line, cells separated by bars.
func (w *mdWriter) table(t *east.Table, first, rest string) {
	var rows [][]string
	header := 0
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, w.inline(c))
		}
		if _, ok := r.(*east.TableHeader); ok {
			header = len(rows) + 1
		}
		rows = append(rows, cells)
	}
	widths := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	total := 0
	for _, wd := range widths {
		total += wd + 3
	}
	sep := w.th.dim.Render(" │ ")
	for ri, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(c)
			if total <= w.width && i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(c)))
			}
		}
		line := b.String()
		if ri+1 == header {
			line = w.th.title.Render(ansi.Strip(line))
		}
		p := rest
		if ri == 0 {
			p = first
		}
		w.lines = append(w.lines, p+ansi.Truncate(line, max(10, w.width-ansi.StringWidth(p)), "…"))
		if ri+1 == header {
			w.lines = append(w.lines, rest+w.th.dim.Render(strings.Repeat("─", max(0, min(total, w.width-ansi.StringWidth(rest))))))
		}
	}
}

// inline draws the inline content of n.
func (w *mdWriter) inline(n ast.Node) string { return w.inlineStyled(n, lipgloss.NewStyle()) }

// inlineStyled draws the inline content of n with base as the style of
// plain text.
func (w *mdWriter) inlineStyled(n ast.Node, base lipgloss.Style) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b.WriteString(w.span(c, base))
	}
	return b.String()
}

func (w *mdWriter) span(n ast.Node, base lipgloss.Style) string {
	switch n := n.(type) {
	case *ast.Text:
		s := string(n.Segment.Value(w.src))
		out := base.Render(s)
		if n.HardLineBreak() || n.SoftLineBreak() {
			// A single newline in an answer is a line break, as the model
			// meant it (a log, a list of files), not CommonMark's soft
			// break that would join the lines into one paragraph.
			out += "\n"
		}
		return out
	case *ast.String:
		return base.Render(string(n.Value))
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(w.src))
			}
		}
		return w.th.code.Render(b.String())
	case *ast.Emphasis:
		st := base.Italic(true)
		if n.Level >= 2 {
			st = base.Bold(true)
		}
		return w.inlineStyled(n, st)
	case *east.Strikethrough:
		return w.inlineStyled(n, base.Strikethrough(true))
	case *ast.Link:
		label := w.inlineStyled(n, base.Underline(true))
		dest := string(n.Destination)
		if dest != "" && dest != ansi.Strip(label) {
			label += w.th.dim.Render(" (" + dest + ")")
		}
		return label
	case *ast.AutoLink:
		return base.Underline(true).Render(string(n.URL(w.src)))
	case *ast.Image:
		return w.th.dim.Render("[image: " + ansi.Strip(w.inline(n)) + "]")
	case *ast.RawHTML:
		var b strings.Builder
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			b.Write(seg.Value(w.src))
		}
		return base.Render(b.String())
	case *east.TaskCheckBox:
		if n.IsChecked {
			return w.th.ok.Render("[x] ")
		}
		return w.th.dim.Render("[ ] ")
	}
	if n.HasChildren() {
		return w.inlineStyled(n, base)
	}
	return ""
}
