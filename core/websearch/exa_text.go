package websearch

import (
	"encoding/json"
	"strings"
)

// exaFieldLabels are the labels that may follow a section's Title line.
var exaFieldLabels = []string{"URL:", "Author:", "Published Date:", "Text:"}

// exaTextPayload reads the text form of Exa's MCP search answer: the
// text parts of the tool result, joined by blank lines, hold one section
// a result,
//
//	Title: …
//	URL: …
//	Author: …
//	Published Date: …
//	Text: … (to the end of the section)
//
// sections starting after a blank line at a Title line that is followed
// by one of the other fields. nil when no section names a title, URL or
// text.
func exaTextPayload(result json.RawMessage) *exaResponse {
	var root struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(result, &root) != nil {
		return nil
	}
	var blocks []string
	for _, c := range root.Content {
		t := strings.ReplaceAll(c.Text, "\r\n", "\n")
		t = strings.TrimSpace(strings.ReplaceAll(t, "\r", "\n"))
		if t != "" {
			blocks = append(blocks, t)
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	out := &exaResponse{}
	for _, sec := range exaSections(strings.Join(blocks, "\n\n")) {
		r := exaResult{
			Title:         exaField(sec, "Title:"),
			URL:           exaField(sec, "URL:"),
			Author:        exaField(sec, "Author:"),
			PublishedDate: exaField(sec, "Published Date:"),
			Text:          exaText(sec),
		}
		if r.Title == "" && r.URL == "" && r.Text == "" {
			continue
		}
		out.Results = append(out.Results, r)
	}
	if len(out.Results) == 0 {
		return nil
	}
	return out
}

// exaSections cuts text at each run of two or more line breaks that is
// followed by a section start, and keeps the pieces that start with
// "Title:".
func exaSections(text string) []string {
	var pieces []string
	start := 0
	for i := 0; i < len(text); {
		if text[i] != '\n' || i+1 >= len(text) || text[i+1] != '\n' {
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] == '\n' {
			j++
		}
		if exaSectionStart(text[j:]) {
			pieces = append(pieces, text[start:i])
			start = j
		}
		i = j
	}
	pieces = append(pieces, text[start:])
	var out []string
	for _, p := range pieces {
		if p = strings.TrimSpace(p); strings.HasPrefix(p, "Title:") {
			out = append(out, p)
		}
	}
	return out
}

// exaSectionStart reports whether s starts a section: "Title:", any
// white space, the rest of a line, then a line starting with one of the
// other field labels.
func exaSectionStart(s string) bool {
	rest, ok := strings.CutPrefix(s, "Title:")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t\n\r\f\v")
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return false
	}
	next := rest[nl+1:]
	for _, l := range exaFieldLabels {
		if strings.HasPrefix(next, l) {
			return true
		}
	}
	return false
}

// exaField is the value after the first label at a line start in sec
// (white space, line breaks too, skipped; up to the end of that line),
// trimmed.
func exaField(sec, label string) string {
	i := labelAt(sec, label)
	if i < 0 {
		return ""
	}
	v := strings.TrimLeft(sec[i+len(label):], " \t\n\r\f\v")
	if nl := strings.IndexByte(v, '\n'); nl >= 0 {
		v = v[:nl]
	}
	return strings.TrimSpace(v)
}

// exaText is everything after the first "Text:" at a line start, trimmed.
func exaText(sec string) string {
	i := labelAt(sec, "Text:")
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(sec[i+len("Text:"):])
}

// labelAt is the index of the first label at the start of sec or of a
// line of it, -1 when there is none.
func labelAt(sec, label string) int {
	if strings.HasPrefix(sec, label) {
		return 0
	}
	if i := strings.Index(sec, "\n"+label); i >= 0 {
		return i + 1
	}
	return -1
}
