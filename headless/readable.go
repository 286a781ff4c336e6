package headless

import (
	"net/url"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	readability "github.com/go-shiori/go-readability"
	"golang.org/x/net/html"
)

// Readable is a page's main content, as tab.extract() returns it: Text
// for the "text" format, Markdown for "markdown".
type Readable struct {
	URL           string `json:"url"`
	Title         string `json:"title,omitempty"`
	Byline        string `json:"byline,omitempty"`
	Excerpt       string `json:"excerpt,omitempty"`
	ContentLength int    `json:"contentLength"`
	Text          string `json:"text,omitempty"`
	Markdown      string `json:"markdown,omitempty"`
}

// fallbackSelectors are tried, in order, when Readability finds nothing.
var fallbackSelectors = []string{"main article", "article", "main", "[role=main]", "body"}

// Extract returns the readable content of page (its HTML, from pageURL)
// in format "markdown" or "text": Readability first, then the first of
// main article, article, main, [role=main] or body that has text. ok is
// false when neither yields any.
func Extract(page, pageURL, format string) (r Readable, ok bool) {
	u, _ := url.Parse(pageURL)
	if a, err := readability.FromReader(strings.NewReader(page), u); err == nil {
		if r, ok := readable(pageURL, format, a.TextContent, a.Content, a.Title, a.Byline, a.Excerpt); ok {
			return r, true
		}
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return Readable{}, false
	}
	title := strings.TrimSpace(textOf(findElement(doc, func(n *html.Node) bool { return n.Data == "title" })))
	for _, sel := range fallbackSelectors {
		n := findElement(doc, matcher(sel))
		if n == nil {
			continue
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			_ = html.Render(&b, c)
		}
		if r, ok := readable(pageURL, format, textOf(n), b.String(), title, "", ""); ok {
			return r, true
		}
	}
	return Readable{}, false
}

// readable builds the result from text and its HTML.
func readable(pageURL, format, text, htmlContent, title, byline, excerpt string) (Readable, bool) {
	text = strings.TrimSpace(text)
	r := Readable{URL: pageURL, Title: strings.TrimSpace(title), Byline: strings.TrimSpace(byline),
		Excerpt: strings.TrimSpace(excerpt), ContentLength: len(text)}
	if format == "text" {
		r.Text = text
	} else {
		md, err := htmltomarkdown.ConvertString(htmlContent)
		if md = strings.TrimSpace(md); err != nil || md == "" {
			md = text
		}
		r.Markdown = md
	}
	return r, r.Text != "" || r.Markdown != ""
}

// matcher matches the simple selectors of fallbackSelectors.
func matcher(sel string) func(*html.Node) bool {
	switch sel {
	case "main article":
		return func(n *html.Node) bool {
			if n.Data != "article" {
				return false
			}
			for p := n.Parent; p != nil; p = p.Parent {
				if p.Type == html.ElementNode && p.Data == "main" {
					return true
				}
			}
			return false
		}
	case "[role=main]":
		return func(n *html.Node) bool {
			for _, a := range n.Attr {
				if a.Key == "role" && a.Val == "main" {
					return true
				}
			}
			return false
		}
	}
	return func(n *html.Node) bool { return n.Data == sel }
}

// findElement returns the first element under n (depth first) ok accepts.
func findElement(n *html.Node, ok func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && ok(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findElement(c, ok); f != nil {
			return f
		}
	}
	return nil
}

// textOf is the text under n, without scripts and styles.
func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "noscript") {
			return
		}
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
