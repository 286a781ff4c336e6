package htmlexport

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

//go:embed assets/page.css
var pageCSS string

//go:embed assets/page.js
var pageJS string

// csp forbids every request: styles, the script and data: images are
// inline, so a page opened from disk, mail or a chat never calls out.
const csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"

// filterLetters names the tree filters in a row's data-f attribute, in
// session.TreeFilters order.
var filterLetters = map[session.TreeFilter]byte{
	session.FilterDefault: 'd', session.FilterNoTools: 'n', session.FilterUserOnly: 'u',
	session.FilterLabeledOnly: 'l', session.FilterAll: 'a',
}

// page is one export in progress.
type page struct {
	out
	m       *session.Manager
	opts    Options
	header  session.Header
	entries []*session.Entry
	leaf    string
	rows    []session.TreeRow
	rowOf   map[string]int          // entry id → index in rows
	calls   map[string]*ai.ToolCall // tool call id → call
	filters map[string][]byte       // entry id → letters of the filters that show its row
	md      bytes.Buffer            // scratch for Markdown
	stats   stats                   // totals for the header
	seenMod map[string]bool         // models already listed
	models  []string                // models in first-use order
	active  map[string]bool         // entries on the path to the leaf
	labels  map[string]string       // entry id → label
}

// stats are the session's totals.
type stats struct {
	user, assistant, toolResults, toolCalls int
	usage                                   ai.Usage
}

func newPage(w *bufio.Writer, m *session.Manager, opts Options) *page {
	p := &page{out: out{w: w}, m: m, opts: opts}
	p.header = m.Header()
	p.entries = m.Entries()
	p.leaf = m.LeafID()
	p.rows = session.FlattenTree(m.Tree(), p.leaf)
	p.rowOf = make(map[string]int, len(p.rows))
	for i, r := range p.rows {
		p.rowOf[r.Entry.ID] = i
	}
	p.calls = map[string]*ai.ToolCall{}
	p.seenMod = map[string]bool{}
	for _, e := range p.entries {
		switch msg := e.Message.(type) {
		case *ai.UserMessage:
			p.stats.user++
		case *ai.ToolResultMessage:
			p.stats.toolResults++
		case *ai.AssistantMessage:
			p.stats.assistant++
			p.stats.usage.Input += msg.Usage.Input
			p.stats.usage.Output += msg.Usage.Output
			p.stats.usage.CacheRead += msg.Usage.CacheRead
			p.stats.usage.CacheWrite += msg.Usage.CacheWrite
			p.stats.usage.Cost.Total += msg.Usage.Cost.Total
			if msg.Model != "" {
				if name := modelName(msg); !p.seenMod[name] {
					p.seenMod[name] = true
					p.models = append(p.models, name)
				}
			}
			for _, c := range msg.ToolCalls() {
				p.calls[c.ID] = c
				p.stats.toolCalls++
			}
		}
	}
	return p
}

func modelName(a *ai.AssistantMessage) string {
	if a.Provider == "" {
		return a.Model
	}
	return a.Provider + "/" + a.Model
}

// title is the session's name, else its first user message, else its id.
func (p *page) title() string {
	if p.header.Title != "" {
		return p.header.Title
	}
	for _, e := range p.entries {
		if u, ok := e.Message.(*ai.UserMessage); ok {
			if t := oneLine(userText(u), 80); t != "" {
				return t
			}
		}
	}
	return "Session " + p.header.ID
}

func (p *page) write() {
	title := p.title()
	p.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	p.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	p.raw(`<meta http-equiv="Content-Security-Policy" content="` + csp + "\">\n")
	p.raw("<meta name=\"color-scheme\" content=\"light dark\">\n")
	if p.opts.Generator != "" {
		p.raw("<meta name=\"generator\"")
		p.attr("content", p.opts.Generator)
		p.raw(">\n")
	}
	p.raw("<title>")
	p.text(title)
	p.raw("</title>\n<style>\n" + pageCSS + "</style>\n</head>\n<body>\n")
	p.tree()
	p.raw("<main>\n")
	p.sessionHeader(title)
	p.context()
	p.raw("<div id=\"entries\">\n")
	for _, e := range p.entries {
		p.entry(e)
	}
	p.raw("</div>\n")
	if len(p.entries) == 0 {
		p.raw("<p class=\"empty\">This session has no entries yet.</p>\n")
	}
	p.raw("</main>\n<script>\n" + pageJS + "</script>\n</body>\n</html>\n")
}

// tree draws the sidebar: the filter, the search box and one row per
// entry, the rows the default filter hides already hidden.
func (p *page) tree() {
	p.raw("<nav id=\"tree\" aria-label=\"Session tree\">\n<div class=\"tree-tools\">\n")
	p.raw("<select id=\"tree-filter\" aria-label=\"Tree filter\">")
	for _, f := range session.TreeFilters {
		p.raw("<option")
		p.attr("value", string(filterLetters[f]))
		p.raw(">")
		p.text(string(f))
		p.raw("</option>")
	}
	p.raw("</select>\n<input id=\"tree-search\" type=\"search\" placeholder=\"Search\" aria-label=\"Search the tree\">\n</div>\n")
	p.raw("<ol class=\"rows\">\n")
	for _, r := range p.rows {
		id := r.Entry.ID
		class := "row kind-" + cssName(r.Kind)
		if r.Active {
			class += " active"
		}
		if r.Leaf {
			class += " leaf"
		}
		var letters []byte
		for _, f := range session.TreeFilters {
			if f.Shows(r) {
				letters = append(letters, filterLetters[f])
			}
		}
		p.raw("<li")
		p.attr("class", class)
		p.attr("data-id", id)
		p.attr("data-f", string(letters))
		if !slices.Contains(letters, 'd') {
			p.raw(" hidden")
		}
		p.raw("><a")
		p.attr("href", "#e-"+id)
		p.raw("><span class=\"prefix\">")
		p.text(r.Prefix())
		p.raw("</span>")
		if r.Label != "" {
			p.elem("span", "label", r.Label)
		}
		p.elem("span", "line", r.Text)
		p.raw("</a></li>\n")
	}
	p.raw("</ol>\n</nav>\n")
}

// sessionHeader draws the title and the session's facts and totals.
func (p *page) sessionHeader(title string) {
	h := p.header
	p.raw("<header class=\"session\">\n<h1>")
	p.text(title)
	p.raw("</h1>\n<dl class=\"facts\">\n")
	fact := func(name, value string) {
		if value == "" {
			return
		}
		p.raw("<dt>")
		p.text(name)
		p.raw("</dt><dd>")
		p.text(value)
		p.raw("</dd>\n")
	}
	fact("Session", h.ID)
	fact("Started", displayTime(h.Timestamp))
	fact("Directory", h.Cwd)
	fact("File", p.opts.SessionFile)
	fact("Parent session", h.ParentSession)
	fact("Models", strings.Join(p.models, ", "))
	s := p.stats
	fact("Messages", fmt.Sprintf("%s user, %s assistant, %s tool results (%s tool calls); %s entries",
		count(s.user), count(s.assistant), count(s.toolResults), count(s.toolCalls), count(len(p.entries))))
	if u := s.usage; !u.IsZero() {
		fact("Tokens", fmt.Sprintf("%s in, %s out, %s cache read, %s cache write",
			count(u.Input), count(u.Output), count(u.CacheRead), count(u.CacheWrite)))
	}
	if c := s.usage.Cost.Total; c > 0 {
		fact("Cost", fmt.Sprintf("$%.4f", c))
	}
	p.raw("</dl>\n</header>\n")
}

// context draws the system prompt and the tools, collapsed.
func (p *page) context() {
	if p.opts.SystemPrompt != "" {
		p.raw("<details class=\"context system-prompt\"><summary>System prompt</summary><pre>")
		p.text(p.opts.SystemPrompt)
		p.raw("</pre></details>\n")
	}
	if len(p.opts.Tools) > 0 {
		p.raw("<details class=\"context tools\"><summary>Tools (")
		p.int(len(p.opts.Tools))
		p.raw(")</summary><dl>\n")
		for _, t := range p.opts.Tools {
			p.raw("<dt>")
			p.text(t.Name)
			p.raw("</dt><dd><pre>")
			p.text(t.Description)
			p.raw("</pre></dd>\n")
		}
		p.raw("</dl></details>\n")
	}
}

// cssName keeps the letters, digits and dashes of a name.
func cssName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, s)
}

// count writes n with thousands separators.
func count(n int) string {
	if n < 0 {
		return "-" + count(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// displayTime shows an ISO timestamp as "2026-11-25 13:12:49 UTC".
func displayTime(iso string) string {
	if len(iso) >= 19 && iso[10] == 'T' {
		return iso[:10] + " " + iso[11:19] + " UTC"
	}
	return iso
}

// oneLine joins the lines of s and keeps its first max characters.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// row returns the tree row of entry id.
func (p *page) row(id string) (session.TreeRow, bool) {
	if i, ok := p.rowOf[id]; ok {
		return p.rows[i], true
	}
	return session.TreeRow{}, false
}
