package pykernel

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"

	"github.com/gopi-agent/gopi/core/eval/cell"
)

// statusMIME carries a prelude helper's status event.
const statusMIME = "application/x-omp-status"

// displays splits a MIME bundle into the text it shows (markdown over
// plain text over HTML made plain, ending in a newline), which joins the
// cell's text output, and its rich parts: a status event, an image, JSON
// data.
func displays(bundle map[string]json.RawMessage) (string, []cell.Display) {
	if raw, ok := bundle[statusMIME]; ok {
		return "", []cell.Display{{Kind: cell.Status, JSON: raw}}
	}
	var out []cell.Display
	str := func(mime string) (string, bool) {
		raw, ok := bundle[mime]
		if !ok {
			return "", false
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, true
		}
		var parts []string // notebooks may split text into a list of lines
		if json.Unmarshal(raw, &parts) == nil {
			return strings.Join(parts, ""), true
		}
		return "", false
	}
	for _, mime := range []string{"image/png", "image/jpeg", "image/gif", "image/webp"} {
		if data, ok := str(mime); ok {
			out = append(out, cell.Display{Kind: cell.Image, MIME: mime, Data: strings.TrimSpace(data)})
		}
	}
	if raw, ok := bundle["application/json"]; ok {
		out = append(out, cell.Display{Kind: cell.JSON, JSON: raw})
	}
	text := ""
	if md, ok := str("text/markdown"); ok {
		text = md
		out = append(out, cell.Display{Kind: cell.Markdown, Text: md})
	} else if txt, ok := str("text/plain"); ok {
		text = txt
	} else if h, ok := str("text/html"); ok {
		text = htmlToText(h)
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text, out
}

var (
	htmlBreak = regexp.MustCompile(`(?i)<\s*(br|/p|/div|/tr|/h[1-6]|/li)\s*/?>`)
	htmlCell  = regexp.MustCompile(`(?i)<\s*/t[dh]\s*>`)
	htmlTag   = regexp.MustCompile(`<[^>]*>`)
	blankRuns = regexp.MustCompile(`\n{3,}`)
)

// htmlToText reduces HTML to its text, keeping line and cell breaks.
func htmlToText(s string) string {
	s = htmlBreak.ReplaceAllString(s, "\n")
	s = htmlCell.ReplaceAllString(s, "\t")
	s = htmlTag.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	return strings.TrimSpace(blankRuns.ReplaceAllString(s, "\n\n"))
}
