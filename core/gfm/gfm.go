// Package gfm adds GitHub's Markdown extensions to goldmark: tables,
// strikethrough, task-list check boxes and bare links (www.…, http(s)://…,
// ftp://… and e-mail addresses). The nodes it builds are goldmark's own
// extension node types (github.com/yuin/goldmark/extension/ast), so code
// that walks a goldmark tree sees what goldmark's GFM extension would give
// it, and the HTML matches that extension's output (gfm_test.go compares
// the two).
//
// It exists for start-up time: goldmark's extension package compiles its
// link-matching regular expressions in package initialisers, which every
// gopi command paid for (about 1.7 ms and 200 page faults of a
// `gopi --version`, bench/RESULTS.md "release"), whether or not it ever
// rendered Markdown. Here nothing is built until a document is parsed.
package gfm

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Extension is tables, strikethrough, task lists and bare links, parsed
// and rendered as HTML.
var Extension goldmark.Extender = extender{}

type extender struct{}

// Extend registers the parsers and HTML renderers with m. The priorities
// are the ones goldmark's own extensions use, so that the two give the
// same trees.
func (extender) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithParagraphTransformers(util.Prioritized(tableParagraphs{}, 200)),
		parser.WithASTTransformers(util.Prioritized(codePipes{}, 0)),
		parser.WithInlineParsers(
			util.Prioritized(strikeParser{}, 500),
			util.Prioritized(checkBoxParser{}, 0),
			util.Prioritized(linkParser{}, 999),
		),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(htmlRenderer{}, 500)))
}
