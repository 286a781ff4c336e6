package gfm

import (
	"bytes"

	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// tableParagraphs turns a paragraph into a table when one of its lines is
// a delimiter row (`| --- | :-: |`) and the line above it, the header,
// has as many cells. The lines before the header stay a paragraph; every
// line after the delimiter row is a body row, cut or padded to the
// header's width.
type tableParagraphs struct{}

func (tableParagraphs) Transform(para *gast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := para.Lines()
	if lines.Len() < 2 {
		return
	}
	src := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		delim := lines.At(i)
		aligns := delimiterRow(delim.Value(src))
		if aligns == nil {
			continue
		}
		head := tableRow(lines.At(i-1), aligns, true, src, pc)
		if head.ChildCount() != len(aligns) {
			return
		}
		table := east.NewTable()
		table.Alignments = aligns
		table.SetPos(para.Pos())
		table.AppendChild(table, east.NewTableHeader(head))
		for j := i + 1; j < lines.Len(); j++ {
			table.AppendChild(table, tableRow(lines.At(j), aligns, false, src, pc))
		}
		parent := para.Parent()
		lines.SetSliced(0, i-1)
		parent.InsertAfter(parent, para, table)
		if lines.Len() == 0 {
			parent.RemoveChild(parent, para)
			return
		}
		// The paragraph left above the table ends without its newline.
		last := lines.At(i - 2)
		last.Stop--
		lines.Set(i-2, last)
		return
	}
}

// delimiterRow reads a table's delimiter row: cells of dashes with an
// optional colon at either end giving the column's alignment, at most
// three columns of indentation; nil when line is not one.
func delimiterRow(line []byte) []east.Alignment {
	if w, _ := util.IndentWidth(line, 0); w > 3 {
		return nil
	}
	onlyDashes := true
	for _, b := range line {
		if b != '-' {
			onlyDashes = false
		}
		if !util.IsSpace(b) && b != '-' && b != '|' && b != ':' {
			return nil
		}
	}
	if onlyDashes {
		return nil
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	var aligns []east.Alignment
	for _, col := range cols {
		a, ok := alignment(col)
		if !ok {
			return nil
		}
		aligns = append(aligns, a)
	}
	return aligns
}

// alignment reads one delimiter cell: white space, then `-+`, `:-+`,
// `-+:` or `:-+:`, then white space.
func alignment(col []byte) (east.Alignment, bool) {
	start, end := 0, len(col)
	for start < end && isRegexpSpace(col[start]) {
		start++
	}
	for end > start && isRegexpSpace(col[end-1]) {
		end--
	}
	core := col[start:end]
	left := len(core) > 0 && core[0] == ':'
	if left {
		core = core[1:]
	}
	right := len(core) > 0 && core[len(core)-1] == ':'
	if right {
		core = core[:len(core)-1]
	}
	if len(core) == 0 || len(bytes.TrimLeft(core, "-")) != 0 {
		return east.AlignNone, false
	}
	switch {
	case left && right:
		return east.AlignCenter, true
	case left:
		return east.AlignLeft, true
	case right:
		return east.AlignRight, true
	}
	return east.AlignNone, true
}

// tableRow cuts one line into cells at the pipes not escaped by a
// backslash (outer pipes optional). A header keeps every cell; a body row
// stops at the header's width and is padded with empty cells to it.
func tableRow(seg text.Segment, aligns []east.Alignment, header bool, src []byte, pc parser.Context) *east.TableRow {
	at := seg
	seg = seg.TrimLeftSpace(src)
	seg = seg.TrimRightSpace(src)
	line := seg.Value(src)
	pos, limit := 0, len(line)
	if limit > 0 && line[0] == '|' {
		pos++
	}
	if limit > 0 && line[limit-1] == '|' {
		limit--
	}
	row := east.NewTableRow(aligns)
	row.SetPos(at.Start)
	i := 0
	for ; pos < limit; i++ {
		align := east.AlignNone
		if i < len(aligns) {
			align = aligns[i]
		} else if !header {
			return row
		}
		cell := east.NewTableCell()
		cell.SetPos(at.Start + pos - at.Padding)
		cell.Alignment = align
		var escaped *escapedPipes
		backtick := false
		end := pos
		for ; end < limit; end++ {
			if line[end] == '`' {
				backtick = true
			}
			if line[end] != '|' {
				continue
			}
			if end == 0 || line[end-1] != '\\' {
				break
			}
			// `\|` inside a code span: the backslash is dropped there too
			// (codePipes), as GitHub does.
			if backtick {
				if escaped == nil {
					escaped = &escapedPipes{cell: cell}
					addEscapedPipes(pc, escaped)
				}
				escaped.at = append(escaped.at, seg.Start+end-1)
			}
		}
		content := text.NewSegment(seg.Start+pos, seg.Start+end)
		content = content.TrimLeftSpace(src)
		content = content.TrimRightSpace(src)
		cell.Lines().Append(content)
		row.AppendChild(row, cell)
		pos = end + 1
	}
	for ; i < len(aligns); i++ {
		row.AppendChild(row, east.NewTableCell())
	}
	return row
}

// escapedPipes is a cell holding `\|` after a backtick: the source
// offsets of those backslashes.
type escapedPipes struct {
	cell *east.TableCell
	at   []int
}

var escapedPipesKey = parser.NewContextKey()

func addEscapedPipes(pc parser.Context, e *escapedPipes) {
	list, _ := pc.Get(escapedPipesKey).([]*escapedPipes)
	pc.Set(escapedPipesKey, append(list, e))
}

// codePipes removes the backslash of `\|` from the code spans of table
// cells once the inline content is parsed: the backslash only kept the
// pipe from ending the cell.
type codePipes struct{}

func (codePipes) Transform(doc *gast.Document, reader text.Reader, pc parser.Context) {
	list, _ := pc.Get(escapedPipesKey).([]*escapedPipes)
	if list == nil {
		return
	}
	pc.Set(escapedPipesKey, nil)
	for _, e := range list {
		_ = gast.Walk(e.cell, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
			if !entering || n.Kind() != gast.KindCodeSpan {
				return gast.WalkContinue, nil
			}
			for c := n.FirstChild(); c != nil; {
				next := c.NextSibling()
				if t, ok := c.(*gast.Text); ok {
					dropBackslashes(n, t, e.at)
				}
				c = next
			}
			return gast.WalkContinue, nil
		})
	}
}

// dropBackslashes splits text t of code span parent around each of the
// cell's backslashes (source offsets, ascending) it holds, leaving the
// backslash out.
func dropBackslashes(parent gast.Node, t *gast.Text, backslashes []int) {
	cur := t
	for _, at := range backslashes {
		seg := cur.Segment
		if at < seg.Start || at >= seg.Stop {
			continue
		}
		before := gast.NewRawTextSegment(seg.WithStop(at))
		after := gast.NewRawTextSegment(seg.WithStart(at + 1))
		parent.InsertAfter(parent, cur, before)
		parent.InsertAfter(parent, before, after)
		parent.RemoveChild(parent, cur)
		cur = after
	}
}
