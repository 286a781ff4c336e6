package htmlexport

import (
	"sync"

	"github.com/gopi-agent/gopi/core/gfm"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// markdown renders assistant text and summaries: GitHub-flavoured
// Markdown, where HTML the model wrote is shown as the text it is (a
// model writing "Vec<T>" or "<div>" means those characters, and a page
// must not run what a transcript contains) and images become links, since
// the page loads nothing from the network. It is built on first use, not
// at the start of every gopi command.
var markdown = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(gfm.Extension),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(literalHTML{}, 1))),
	)
})

// literalHTML renders raw HTML nodes as escaped text and images as links.
type literalHTML struct{}

// RegisterFuncs replaces the default renderers of raw HTML and images.
func (literalHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindImage, renderImage)
}

func renderRawHTML(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := range segs.Len() {
			seg := segs.At(i)
			w.Write(util.EscapeHTML(seg.Value(source)))
		}
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	b := n.(*ast.HTMLBlock)
	w.WriteString(`<pre class="md-html">`)
	lines := b.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		w.Write(util.EscapeHTML(seg.Value(source)))
	}
	if b.HasClosure() {
		w.Write(util.EscapeHTML(b.ClosureLine.Value(source)))
	}
	w.WriteString("</pre>\n")
	return ast.WalkSkipChildren, nil
}

func renderImage(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	img := n.(*ast.Image)
	if entering {
		w.WriteString(`<a class="md-image" href="`)
		if !html.IsDangerousURL(img.Destination) {
			w.Write(util.EscapeHTML(util.URLEscape(img.Destination, true)))
		}
		w.WriteString(`">[image: `)
		return ast.WalkContinue, nil
	}
	w.WriteString("]</a>")
	return ast.WalkContinue, nil
}
