package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tool"
)

// Limits of what a tool card shows; the whole output stays in the
// session (and in its artifact when it was spilled).
const (
	cardOutputLines     = 10 // output lines of a finished card
	cardDiffLines       = 40 // diff lines of an edit
	cardDiagnosticLines = 5  // language server problems after an edit or write
	cardDiagramLines    = 60 // lines of a render_mermaid drawing (shown whole up to this)
	liveTailLines       = 6  // output lines of a running card
)

// renderer draws messages at one width with one theme.
type renderer struct {
	th    theme
	width int
	// custom draws a custom message with an extension's renderer; ok is
	// false when there is none or it failed.
	custom func(m *message.Custom, expanded bool, width int) (text string, ok bool)
	// tools draw extension tools' cards (Options.ToolRenderers).
	tools map[string]ToolRenderer
	ctx   context.Context
	full  bool // tool output shown in full (ctrl+o), not cut
}

// markdown renders Markdown text for the transcript (markdown.go).
func (r *renderer) markdown(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return renderMarkdown(r.th, modelText(text), r.width-1)
}

// wrap wraps plain text to the width.
func (r *renderer) wrap(text string) string {
	return ansi.Wrap(clean(text), max(10, r.width-1), "")
}

// user draws a user message: a bar, then the text as typed.
func (r *renderer) user(text string, images int) string {
	var b strings.Builder
	body := ansi.Wrap(strings.TrimRight(clean(text), "\n"), max(10, r.width-3), "")
	for i, line := range strings.Split(body, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(r.th.userBar.Render("▌") + " " + r.th.user.Render(line))
	}
	if images > 0 {
		b.WriteString("\n" + r.th.userBar.Render("▌") + " " + r.th.dim.Render(fmt.Sprintf("[%d image(s) attached]", images)))
	}
	return b.String()
}

// thinking draws a thinking block: one dim line, or the whole text when
// expanded.
func (r *renderer) thinking(text string, expanded bool) string {
	text = strings.TrimSpace(modelText(text))
	if text == "" {
		return ""
	}
	if !expanded {
		n := len(strings.Fields(text))
		return r.th.dim.Render(fmt.Sprintf("∴ Thinking (%d words; Ctrl+T shows thinking in full from now on)", n))
	}
	return r.th.dim.Italic(true).Render(r.wrap("∴ " + text))
}

// assistantMessage draws a whole assistant message (history, or a
// message that arrived in one piece): text as Markdown, thinking, and an
// error line when it failed.
func (r *renderer) assistantMessage(m *ai.AssistantMessage, expandThinking bool) string {
	var parts []string
	for _, c := range m.Content {
		switch c := c.(type) {
		case *ai.TextContent:
			if s := r.markdown(c.Text); s != "" {
				parts = append(parts, s)
			}
		case *ai.ThinkingContent:
			if s := r.thinking(c.Thinking, expandThinking); s != "" {
				parts = append(parts, s)
			}
		}
	}
	if s := r.stopNote(m); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n")
}

// stopNote says why an answer ended early, "" when it ended normally.
func (r *renderer) stopNote(m *ai.AssistantMessage) string {
	switch m.StopReason {
	case ai.StopReasonAborted:
		return r.th.warn.Render("⏹ Aborted")
	case ai.StopReasonError:
		return r.th.err.Render(r.wrap("✗ " + strings.TrimSpace(m.ErrorMessage)))
	case ai.StopReasonLength:
		return r.th.warn.Render("… stopped at the output token limit")
	}
	return ""
}

// card draws a finished tool call: a status line, then what matters of
// its result (the diff of an edit, the tail of a command's output, the
// first lines of anything else, the error text in red).
func (r *renderer) card(call *ai.ToolCall, content []ai.Content, details any, isError bool) string {
	// web_search reports a failed or cancelled search as text, as omp
	// does, with the failure in its details: drawn as failed.
	isError = isError || call.Name == "web_search" && tool.ResultError(details) != ""
	icon := r.th.ok.Render("✓")
	if isError {
		icon = r.th.err.Render("✗")
	}
	head := r.cardHead(icon, call, 0)
	if drawn, ok := r.toolCard(call, content, details, isError); ok {
		return drawnCard(icon, head, drawn, r)
	}
	if call.Name == "github" {
		return r.githubCard(icon, call, content, details, isError)
	}
	if call.Name == "browser" {
		return r.browserCard(icon, call, content, details, isError)
	}
	text := strings.TrimRight(clean(resultText(content)), "\n")
	diags := tool.ResultDiagnostics(details)
	if diags != nil {
		// The report is drawn below, from the details.
		text, _, _ = strings.Cut(text, "\n\nLSP Diagnostics")
	}
	var body []string
	switch {
	case isError:
		body = r.indent(r.headLines(text, cardOutputLines), r.th.err)
	case len(tool.EditDiffs(details)) > 0:
		for _, d := range tool.EditDiffs(details) {
			if d.Path != "" && len(tool.EditDiffs(details)) > 1 {
				body = append(body, "  "+r.th.title.Render(clean(d.Path)))
			}
			body = append(body, r.diff(d.Diff)...)
		}
	case call.Name == "bash" || call.Name == "ssh" || call.Name == "recipe" || call.Name == "eval":
		body = r.indent(r.tailLines(text, cardOutputLines), r.th.dim)
	case call.Name == "calc":
		body = r.indent(r.headLines(calcLines(call, text), cardOutputLines), r.th.dim)
	case call.Name == "render_mermaid":
		body = r.indent(r.headLines(text, cardDiagramLines), r.th.dim) // the drawing is for the user to see
	case call.Name == "read" && r.full:
		body = r.indent(text, r.th.dim)
	case call.Name == "read":
		n := strings.Count(text, "\n") + 1
		if text == "" {
			n = 0
		}
		body = []string{"  " + r.th.dim.Render(fmt.Sprintf("%d lines", n))}
	default:
		body = r.indent(r.headLines(text, 4), r.th.dim)
	}
	if n := imageCount(content); n > 0 {
		body = append(body, "  "+r.th.dim.Render(fmt.Sprintf("[%d image(s)]", n)))
	}
	if !isError {
		body = append(body, r.diagnostics(diags)...)
	}
	if len(body) == 0 {
		return head
	}
	return head + "\n" + strings.Join(body, "\n")
}

// calcLines pairs the result lines of a calc call with its expressions,
// "2 + 2 = 4", as omp's card shows them; the lines alone when they do not
// pair up.
func calcLines(call *ai.ToolCall, text string) string {
	calcs, _ := call.Arguments["calculations"].([]any)
	lines := strings.Split(text, "\n")
	if len(calcs) != len(lines) {
		return text
	}
	for i, c := range calcs {
		m, _ := c.(map[string]any)
		expr, _ := m["expression"].(string)
		lines[i] = expr + " = " + lines[i]
	}
	return strings.Join(lines, "\n")
}

// liveCard draws a running tool call with the tail of its output
// (details: its latest partial result's, for the tools that draw them).
func (r *renderer) liveCard(call *ai.ToolCall, partial string, details any, spin string) string {
	if call.Name == "github" {
		return r.githubLiveCard(call, details, spin)
	}
	head := r.cardHead(r.th.warn.Render(spin), call, liveTailLines)
	tail := strings.TrimRight(clean(partial), "\n")
	if tail == "" {
		return head
	}
	return head + "\n" + strings.Join(r.indent(lastLines(tail, liveTailLines), r.th.dim), "\n")
}

// diagnostics draws what the language servers reported after a write:
// the summary (red with errors, else yellow) and the first
// cardDiagnosticLines problems, and the files the change left clean.
func (r *renderer) diagnostics(d *tool.FileDiagnostics) []string {
	if d == nil {
		return nil
	}
	var out []string
	if len(d.Messages) > 0 {
		st := r.th.warn
		if d.Errored {
			st = r.th.err
		}
		out = append(out, "  "+st.Render("LSP: "+clean(d.Summary)))
		for i, m := range d.Messages {
			if i == cardDiagnosticLines {
				out = append(out, "  "+r.th.dim.Render(fmt.Sprintf("… %d more", len(d.Messages)-i)))
				break
			}
			out = append(out, "  "+r.th.dim.Render(ansi.Truncate(clean(m), max(10, r.width-3), "…")))
		}
	}
	if len(d.Cleared) > 0 {
		out = append(out, "  "+r.th.ok.Render("LSP: no issues left in "+clean(strings.Join(d.Cleared, ", "))))
	}
	return out
}

// diff colours diff lines, at most cardDiffLines of them.
func (r *renderer) diff(d string) []string {
	lines := strings.Split(strings.TrimRight(clean(d), "\n"), "\n")
	var out []string
	for i, l := range lines {
		if i == r.lineLimit(cardDiffLines) {
			out = append(out, "  "+r.th.dim.Render(fmt.Sprintf("… %d more diff lines %s", len(lines)-i, expandHint)))
			break
		}
		if w, ok := r.wordDiffLine(lines, i); ok {
			out = append(out, "  "+w)
			continue
		}
		l = ansi.Truncate(strings.ReplaceAll(l, "\t", "    "), max(10, r.width-3), "…")
		st := r.th.dim
		switch {
		case strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---"):
			st = r.th.title
		case strings.HasPrefix(l, "+"):
			st = r.th.add
		case strings.HasPrefix(l, "-"):
			st = r.th.del
		case strings.HasPrefix(l, "@@"):
			st = r.th.hunk
		}
		out = append(out, "  "+st.Render(l))
	}
	return out
}

// indent draws text lines two columns in; a line wider than the card
// wraps onto more rows (as omp's boxes wrap), so no output is cut off.
func (r *renderer) indent(text string, st interface{ Render(...string) string }) []string {
	if text == "" {
		return nil
	}
	var out []string
	width := max(10, r.width-3)
	for _, l := range strings.Split(text, "\n") {
		l = strings.ReplaceAll(l, "\t", "    ")
		if ansi.StringWidth(l) > width {
			l = ansi.Wrap(l, width, "")
		}
		for _, row := range strings.Split(l, "\n") {
			out = append(out, "  "+st.Render(row))
		}
	}
	return out
}

// marker draws a one-line notice across the width (compaction, branch
// summary, session switch).
func (r *renderer) marker(text string) string {
	line := "── " + clean(text) + " "
	if pad := r.width - ansi.StringWidth(line); pad > 0 {
		line += strings.Repeat("─", min(pad, 200))
	}
	return r.th.dim.Render(ansi.Truncate(line, max(10, r.width), ""))
}

// notice draws a dim informational line.
func (r *renderer) notice(text string) string { return r.th.dim.Render(r.wrap(text)) }

// warning draws a warning.
func (r *renderer) warning(text string) string { return r.th.warn.Render(r.wrap("⚠ " + text)) }

// errorLine draws an error in red.
func (r *renderer) errorLine(text string) string { return r.th.err.Render(r.wrap("✗ " + text)) }

// bashRun draws a command the user ran with "!" and its output (the last
// 20 lines).
func (r *renderer) bashRun(command, output string, exit *int, cancelled bool) string {
	head := r.th.accent.Render("$ " + clean(command))
	out := strings.TrimRight(clean(output), "\n")
	var body []string
	if out != "" {
		body = r.indent(lastLines(out, 20), r.th.dim)
	}
	switch {
	case cancelled:
		body = append(body, "  "+r.th.warn.Render("cancelled"))
	case exit != nil && *exit != 0:
		body = append(body, "  "+r.th.err.Render(fmt.Sprintf("exit code %d", *exit)))
	}
	if len(body) == 0 {
		return head
	}
	return head + "\n" + strings.Join(body, "\n")
}

// historyMessage draws one message of a loaded conversation; calls maps
// tool call ids to their calls (for tool results).
func (r *renderer) historyMessage(m ai.Message, calls map[string]*ai.ToolCall, expandThinking bool) string {
	switch m := m.(type) {
	case *ai.UserMessage:
		return r.user(userText(m.Content), imageCount(m.Content))
	case *ai.AssistantMessage:
		return r.assistantMessage(m, expandThinking)
	case *ai.ToolResultMessage:
		call := calls[m.ToolCallID]
		if call == nil {
			call = &ai.ToolCall{Name: m.ToolName}
		}
		return r.card(call, m.Content, m.Details, m.IsError)
	case *message.BashExecution:
		return r.bashRun(m.Command, m.Output, m.ExitCode, m.Cancelled)
	case *message.FileMention:
		return r.mention(m)
	case *message.CompactionSummary:
		return r.marker(fmt.Sprintf("earlier conversation summarised (%d tokens)", m.TokensBefore))
	case *message.BranchSummary:
		return r.marker("summary of the branch left behind")
	case *message.Custom:
		if !m.Display {
			return ""
		}
		if r.custom != nil {
			if text, ok := r.custom(m, expandThinking, r.width-1); ok {
				return r.th.label.Render("["+clean(m.CustomType)+"]") + "\n" + clean(text)
			}
		}
		return r.th.label.Render("["+clean(m.CustomType)+"]") + "\n" + r.markdown(m.Content.Text())
	}
	return ""
}

// resultText joins the text blocks of a tool result.
func resultText(content []ai.Content) string {
	var b strings.Builder
	for _, c := range content {
		if t, ok := c.(*ai.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// userText joins the text blocks of a user message.
func userText(content ai.ContentList) string { return resultText(content) }

func imageCount(content []ai.Content) int {
	n := 0
	for _, c := range content {
		if _, ok := c.(*ai.ImageContent); ok {
			n++
		}
	}
	return n
}

// lastLines keeps the last n lines, noting how many were left out.
func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return fmt.Sprintf("… %d earlier lines\n", len(lines)-n) + strings.Join(lines[len(lines)-n:], "\n")
}

// oneLine joins the lines of s and keeps its first n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// mention draws the files attached to a message, one line each.
func (r *renderer) mention(m *message.FileMention) string {
	var lines []string
	for _, f := range m.Files {
		what := ""
		switch {
		case f.SkippedReason != "":
			what = "not attached: " + f.SkippedReason
		case f.Image != nil:
			what = "image"
		case f.LineCount != nil:
			what = fmt.Sprintf("%d lines", *f.LineCount)
		}
		lines = append(lines, r.th.userBar.Render("▌")+" "+r.th.dim.Render("@"+clean(f.Path)+" ("+what+")"))
	}
	return strings.Join(lines, "\n")
}

// customRenderer adapts Options.Renderers for the renderer: a failing
// renderer falls back to the message's own text.
func customRenderer(ctx context.Context, opts Options) func(*message.Custom, bool, int) (string, bool) {
	if len(opts.Renderers) == 0 {
		return nil
	}
	return func(m *message.Custom, expanded bool, width int) (string, bool) {
		render := opts.Renderers[m.CustomType]
		if render == nil {
			return "", false
		}
		text, err := render(ctx, m, expanded, width)
		return text, err == nil
	}
}

// drawnTool is what an extension's renderers drew for a card.
type drawnTool struct {
	call, result string // "" when not drawn
}

// toolCard asks the tool's extension renderers for its card; ok is false
// when the tool has none or they all failed.
func (r *renderer) toolCard(call *ai.ToolCall, content []ai.Content, details any, isError bool) (drawnTool, bool) {
	tr, found := r.tools[call.Name]
	if !found {
		return drawnTool{}, false
	}
	ctx := r.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	args, _ := json.Marshal(call.Arguments)
	var d drawnTool
	if tr.Call != nil {
		if text, err := tr.Call(ctx, args, r.width-3); err == nil {
			d.call = text
		}
	}
	if tr.Result != nil {
		res, _ := json.Marshal(map[string]any{"content": content, "details": details, "isError": isError})
		if text, err := tr.Result(ctx, res, args, false, false, r.width-3); err == nil {
			d.result = text
		}
	}
	return d, d.call != "" || d.result != ""
}

// drawnCard lays out a card from an extension's drawing: the call line
// replaces the usual description, the result lines the body.
func drawnCard(icon, head string, d drawnTool, r *renderer) string {
	if d.call != "" {
		first, _, _ := strings.Cut(clean(d.call), "\n")
		head = icon + " " + r.th.accent.Render(ansi.Truncate(first, max(10, r.width-3), "…"))
	}
	if d.result == "" {
		return head
	}
	var body []string
	for _, l := range strings.Split(strings.TrimRight(clean(d.result), "\n"), "\n") {
		body = append(body, "  "+l)
	}
	return head + "\n" + strings.Join(body, "\n")
}
