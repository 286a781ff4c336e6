package read

import (
	"bytes"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// noiseElements are dropped before an HTML page is turned into markdown:
// code, styling, embedded frames and site navigation.
var noiseElements = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Iframe: true, atom.Svg: true, atom.Canvas: true,
	atom.Object: true, atom.Embed: true, atom.Aside: true, atom.Dialog: true,
	atom.Button: true, atom.Select: true, atom.Link: true, atom.Meta: true,
}

// noiseRoles are ARIA landmark roles of site chrome.
var noiseRoles = map[string]bool{"navigation": true, "banner": true, "contentinfo": true, "search": true, "complementary": true}

// decodeHTML parses an HTML body, converting it to UTF-8 from the charset
// the Content-Type header, a byte order mark or a <meta> tag declares
// (Windows-1252 when nothing does and the bytes are not UTF-8).
func decodeHTML(body []byte, contentType string) (*html.Node, error) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return nil, err
	}
	return html.Parse(r)
}

// renderHTML turns a parsed page into markdown: its title as a heading,
// then the main content (the page's only <main> or <article> when it has
// one, else <body>) without scripts, styles and navigation. Relative links
// are made absolute against baseURL.
func renderHTML(doc *html.Node, baseURL string) (string, error) {
	title := strings.Join(strings.Fields(textOf(find(doc, atom.Title))), " ")
	root := doc
	if mains := findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Main || attrOf(n, "role") == "main" }); len(mains) == 1 {
		root = mains[0]
	} else if arts := findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Article }); len(arts) == 1 {
		root = arts[0]
	}
	md, err := htmlToMarkdown(root, baseURL)
	if err != nil {
		return "", err
	}
	md = strings.TrimSpace(md)
	if title != "" && !strings.HasPrefix(md, "# "+title) {
		md = "# " + title + "\n\n" + md
	}
	return md, nil
}

// htmlToMarkdown converts the tree under n to markdown after dropping the
// noise elements (html-to-markdown v2 with its tables plugin).
func htmlToMarkdown(n *html.Node, baseURL string) (string, error) {
	dropNoise(n)
	if n.Type != html.DocumentNode { // the converter wants a document
		n.Parent, n.PrevSibling, n.NextSibling = nil, nil, nil
		doc := &html.Node{Type: html.DocumentNode}
		doc.AppendChild(n)
		n = doc
	}
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
	))
	out, err := conv.ConvertNode(n, converter.WithDomain(baseURL))
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// dropNoise removes noise elements, landmarks of site chrome, hidden
// elements and page footers (those outside an <article>) under n.
func dropNoise(n *html.Node) {
	var walk func(n *html.Node, inArticle bool)
	walk = func(n *html.Node, inArticle bool) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode && isNoise(c, inArticle) {
				n.RemoveChild(c)
			} else if c.Type == html.CommentNode {
				n.RemoveChild(c)
			} else {
				walk(c, inArticle || c.DataAtom == atom.Article || c.DataAtom == atom.Main)
			}
			c = next
		}
	}
	walk(n, n.DataAtom == atom.Article || n.DataAtom == atom.Main)
}

func isNoise(n *html.Node, inArticle bool) bool {
	switch {
	case noiseElements[n.DataAtom], noiseRoles[attrOf(n, "role")]:
		return true
	case n.DataAtom == atom.Footer && !inArticle:
		return true
	case hasAttr(n, "hidden"), attrOf(n, "aria-hidden") == "true":
		return true
	}
	return false
}

// find returns the first element a under n in document order, or nil.
func find(n *html.Node, a atom.Atom) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, a); f != nil {
			return f
		}
	}
	return nil
}

// findAll returns the elements under n matching ok, not descending into
// matches.
func findAll(n *html.Node, ok func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && ok(c) {
				out = append(out, c)
				continue
			}
			walk(c)
		}
	}
	walk(n)
	return out
}

// textOf returns the text under n ("" for nil).
func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.ToLower(strings.TrimSpace(a.Val))
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
