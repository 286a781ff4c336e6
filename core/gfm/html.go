package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// htmlRenderer writes the extension's nodes as HTML, in the layout of
// goldmark's own extension renderers with their default (HTML5)
// configuration: cell alignment as a text-align style, check boxes as
// disabled inputs. Bare links are goldmark's AutoLink nodes, which its
// core renderer writes.
type htmlRenderer struct{}

func (htmlRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(east.KindTable, renderTable)
	reg.Register(east.KindTableHeader, renderTableHeader)
	reg.Register(east.KindTableRow, renderTableRow)
	reg.Register(east.KindTableCell, renderTableCell)
	reg.Register(east.KindStrikethrough, renderStrikethrough)
	reg.Register(east.KindTaskCheckBox, renderCheckBox)
}

func renderTable(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering {
		openTag(w, "table", n)
		_, _ = w.WriteString("\n")
	} else {
		_, _ = w.WriteString("</table>\n")
	}
	return gast.WalkContinue, nil
}

func renderTableHeader(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering {
		openTag(w, "thead", n)
		_, _ = w.WriteString("\n<tr>\n")
		return gast.WalkContinue, nil
	}
	_, _ = w.WriteString("</tr>\n</thead>\n")
	if n.NextSibling() != nil {
		_, _ = w.WriteString("<tbody>\n")
	}
	return gast.WalkContinue, nil
}

func renderTableRow(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering {
		openTag(w, "tr", n)
		_, _ = w.WriteString("\n")
		return gast.WalkContinue, nil
	}
	_, _ = w.WriteString("</tr>\n")
	if n.Parent().LastChild() == n {
		_, _ = w.WriteString("</tbody>\n")
	}
	return gast.WalkContinue, nil
}

func renderTableCell(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	tag := "td"
	if n.Parent().Kind() == east.KindTableHeader {
		tag = "th"
	}
	if !entering {
		_, _ = w.WriteString("</" + tag + ">\n")
		return gast.WalkContinue, nil
	}
	_, _ = w.WriteString("<" + tag)
	if a := n.(*east.TableCell).Alignment; a != east.AlignNone {
		_, _ = w.WriteString(` style="text-align:` + a.String() + `"`)
	}
	if n.Attributes() != nil {
		html.RenderAttributes(w, n, html.GlobalAttributeFilter)
	}
	_ = w.WriteByte('>')
	return gast.WalkContinue, nil
}

func renderStrikethrough(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering {
		openTag(w, "del", n)
	} else {
		_, _ = w.WriteString("</del>")
	}
	return gast.WalkContinue, nil
}

func renderCheckBox(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if !entering {
		return gast.WalkContinue, nil
	}
	if n.(*east.TaskCheckBox).IsChecked {
		_, _ = w.WriteString(`<input checked="" disabled="" type="checkbox"> `)
	} else {
		_, _ = w.WriteString(`<input disabled="" type="checkbox"> `)
	}
	return gast.WalkContinue, nil
}

// openTag writes <tag> with n's attributes, if it has any.
func openTag(w util.BufWriter, tag string, n gast.Node) {
	_, _ = w.WriteString("<" + tag)
	if n.Attributes() != nil {
		html.RenderAttributes(w, n, html.GlobalAttributeFilter)
	}
	_ = w.WriteByte('>')
}
