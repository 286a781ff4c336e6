package tui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
)

// browserCardLines is how many lines of a run's code and of its output a
// browser card shows (omp's preview).
const browserCardLines = 10

// browserDetails is what a browser card reads of a result's details
// (the tool's Details, live or decoded from a session file).
type browserDetails struct {
	Action      string `json:"action"`
	Name        string `json:"name"`
	Browser     string `json:"browser"`
	URL         string `json:"url"`
	Screenshots []struct {
		Dest   string `json:"dest"`
		Width  int    `json:"width"`
		Height int    `json:"height"`
	} `json:"screenshots"`
}

// browserCard draws a browser call as omp lays it out: open and close as
// a status line (tab, browser kind, URL) over the tool's answer; run as
// the tab, its URL and browser kind, the first lines of the code, the
// first lines of the output, and a line per screenshot with its size and
// file.
func (r *renderer) browserCard(icon string, call *ai.ToolCall, content []ai.Content, details any, isError bool) string {
	var d browserDetails
	if js, err := json.Marshal(details); err == nil {
		_ = json.Unmarshal(js, &d)
	}
	arg := func(k string) string { s, _ := call.Arguments[k].(string); return s }
	app, _ := call.Arguments["app"].(map[string]any)
	action := d.Action
	if action == "" {
		action = arg("action")
	}
	name := d.Name
	if name == "" {
		name = arg("name")
	}
	if name == "" {
		name = "main"
	}
	tab := "tab " + strconv.Quote(name)
	kind := d.Browser
	if u, _ := app["cdp_url"].(string); u != "" {
		kind = "connected " + u
	} else if p, _ := app["path"].(string); p != "" {
		kind = "spawned " + p
	}
	url := d.URL
	if url == "" {
		url = arg("url")
	}
	var title string
	var parts []string
	switch action {
	case "run":
		parts = []string{tab}
	case "close":
		title = "Close " + tab
		if all, _ := call.Arguments["all"].(bool); all {
			title = "Close all tabs"
		}
		if kill, _ := call.Arguments["kill"].(bool); kill {
			title += " (kill)"
		}
		parts = []string{title}
	default:
		parts = []string{"Open " + tab}
	}
	if action == "run" {
		parts = append(parts, url, kind)
	} else {
		parts = append(parts, kind, url)
	}
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	head := icon + " " + r.th.accent.Render(ansi.Truncate(clean(strings.Join(kept, " · ")), max(10, r.width-3), "…"))
	var body []string
	if action == "run" {
		if code := strings.TrimRight(clean(arg("code")), " \n"); code != "" {
			for _, l := range r.indent(r.headLines(code, browserCardLines), r.th.code) {
				body = append(body, "  "+r.th.dim.Render("│")+l[1:])
			}
		}
	}
	var texts []string // each display() and the return value are blocks of their own
	for _, c := range content {
		if t, ok := c.(*ai.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	text := strings.TrimRight(clean(strings.Join(texts, "\n")), "\n")
	st := r.th.dim
	if isError {
		st = r.th.err
	}
	body = append(body, r.indent(r.headLines(text, browserCardLines), st)...)
	for _, s := range d.Screenshots {
		body = append(body, "  "+r.th.dim.Render(ansi.Truncate(clean(fmt.Sprintf("[screenshot %dx%d · %s]", s.Width, s.Height, s.Dest)), max(10, r.width-3), "…")))
	}
	if n := imageCount(content) - len(d.Screenshots); n > 0 {
		body = append(body, "  "+r.th.dim.Render(fmt.Sprintf("[%d image(s)]", n)))
	}
	if len(body) == 0 {
		return head
	}
	return head + "\n" + strings.Join(body, "\n")
}
