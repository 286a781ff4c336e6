package htmlexport

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// entry draws one entry as a <section>, hidden unless it is on the path
// to the leaf.
func (p *page) entry(e *session.Entry) {
	kind := e.Type
	if e.Type == session.TypeMessage && e.Message != nil {
		kind = string(e.Message.MessageRole())
	}
	class := "entry kind-" + cssName(kind)
	if r, ok := e.Message.(*ai.ToolResultMessage); ok && r.IsError {
		class += " error"
	}
	p.raw("<section")
	p.attr("class", class)
	p.attr("id", "e-"+e.ID)
	p.attr("data-id", e.ID)
	if e.ParentID != "" {
		p.attr("data-parent", e.ParentID)
	}
	if r, _ := p.row(e.ID); !r.Active {
		p.raw(" hidden")
	}
	p.raw(">\n")
	switch {
	case e.Type == session.TypeMessage:
		p.message(e)
	case e.Compaction != nil:
		c := e.Compaction
		p.head(e, "Compaction", "")
		p.summary("compaction", fmt.Sprintf("Earlier conversation summarised (%s tokens before)", count(c.TokensBefore)), c.Summary)
	case e.BranchSummary != nil:
		p.head(e, "Branch summary", "")
		p.summary("branch", "Summary of the branch left behind", e.BranchSummary.Summary)
	case e.CustomMessage != nil:
		cm := e.CustomMessage
		p.custom(e, cm.CustomType, cm.Content, cm.Display)
	default:
		p.head(e, "", "")
		p.elem("div", "marker", p.rowText(e))
	}
	p.raw("</section>\n")
}

// rowText is the entry's one-line description from the tree view.
func (p *page) rowText(e *session.Entry) string {
	if r, ok := p.row(e.ID); ok {
		return r.Text
	}
	return "[" + e.Type + "]"
}

// head draws an entry's heading: who, a detail, its label and its time
// (a link to the entry).
func (p *page) head(e *session.Entry, who, detail string) {
	p.raw("<div class=\"head\">")
	if who != "" {
		p.elem("span", "who", who)
	}
	if detail != "" {
		p.elem("span", "detail", detail)
	}
	if r, _ := p.row(e.ID); r.Label != "" {
		p.elem("span", "label", r.Label)
	}
	p.raw("<a class=\"time\"")
	p.attr("href", "#e-"+e.ID)
	p.raw(">")
	p.text(displayTime(e.Timestamp))
	p.raw("</a></div>\n")
}

func (p *page) message(e *session.Entry) {
	switch m := e.Message.(type) {
	case *ai.UserMessage:
		who := "User"
		if m.Synthetic {
			who = "User (added by the agent)"
		}
		p.head(e, who, "")
		p.userContent(m.Content)
	case *ai.AssistantMessage:
		p.head(e, "Assistant", modelName(m))
		p.assistant(m)
	case *ai.ToolResultMessage:
		line := "[" + m.ToolName + "]"
		if c := p.calls[m.ToolCallID]; c != nil {
			line = session.DescribeToolCall(c)
		}
		who := "Tool result"
		if m.IsError {
			who = "Tool error"
		}
		p.head(e, who, line)
		p.toolResult(m)
	case *message.BashExecution:
		p.head(e, "Shell", "run by the user")
		p.execution("$ ", m.Command, m.Output, m.ExitCode, m.Cancelled, m.Truncated, m.ExcludeFromContext)
	case *message.PythonExecution:
		p.head(e, "Python", "run by the user")
		p.execution(">>> ", m.Code, m.Output, m.ExitCode, m.Cancelled, m.Truncated, m.ExcludeFromContext)
	case *message.Custom:
		p.custom(e, m.CustomType, m.Content, m.Display)
	case *message.FileMention:
		p.head(e, "Files", "attached by the user")
		for _, f := range m.Files {
			p.raw("<details class=\"file\"><summary>")
			p.text(f.Path)
			if f.SkippedReason != "" {
				p.text(" (skipped: " + f.SkippedReason + ")")
			}
			p.raw("</summary>")
			if f.Image != nil {
				p.image(f.Image)
			}
			if f.Content != "" {
				p.elem("pre", "output", f.Content)
			}
			p.raw("</details>\n")
		}
	case *message.CompactionSummary:
		p.head(e, "Compaction", "")
		p.summary("compaction", fmt.Sprintf("Earlier conversation summarised (%s tokens before)", count(m.TokensBefore)), m.Summary)
	case *message.BranchSummary:
		p.head(e, "Branch summary", "")
		p.summary("branch", "Summary of the branch left behind", m.Summary)
	default:
		p.head(e, "", "")
		p.elem("div", "marker", p.rowText(e))
	}
}

// userContent draws what the user typed (as typed, not as Markdown) and
// the images attached.
func (p *page) userContent(c ai.ContentList) {
	for _, b := range c {
		switch b := b.(type) {
		case *ai.TextContent:
			p.elem("div", "user-text", b.Text)
		case *ai.ImageContent:
			p.image(b)
		}
	}
}

// assistant draws the blocks in stream order, then usage and any error.
func (p *page) assistant(m *ai.AssistantMessage) {
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			p.markdownBlock("md", b.Text)
		case *ai.ThinkingContent:
			p.raw("<details class=\"thinking\"><summary>Thinking")
			if b.Redacted {
				p.raw(" (hidden by the provider)")
			}
			p.raw("</summary>")
			p.elem("div", "thinking-text", b.Thinking)
			p.raw("</details>\n")
		case *ai.ToolCall:
			p.toolCall(b)
		case *ai.ImageContent:
			p.image(b)
		}
	}
	switch {
	case m.StopReason == ai.StopReasonAborted:
		p.elem("div", "error", "Aborted"+suffix(": ", m.ErrorMessage))
	case m.ErrorMessage != "":
		p.elem("div", "error", m.ErrorMessage)
	case m.StopReason == ai.StopReasonLength:
		p.elem("div", "error", "Stopped at the output token limit")
	}
	var parts []string
	u := m.Usage
	if !u.IsZero() {
		est := ""
		if u.Estimated {
			est = "~"
		}
		parts = append(parts, est+count(u.Input+u.CacheRead+u.CacheWrite)+" in", est+count(u.Output)+" out")
		if u.CacheRead > 0 {
			parts = append(parts, count(u.CacheRead)+" cached")
		}
	}
	if u.Cost.Total > 0 {
		parts = append(parts, fmt.Sprintf("$%.4f", u.Cost.Total))
	}
	if m.Duration > 0 {
		parts = append(parts, fmt.Sprintf("%.1f s", float64(m.Duration)/1000))
	}
	if len(parts) > 0 {
		p.elem("div", "usage", strings.Join(parts, " · "))
	}
}

func suffix(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

// toolCall draws a call as a card: its one-line description, the shell
// command for bash, and the arguments collapsed.
func (p *page) toolCall(c *ai.ToolCall) {
	p.raw("<div class=\"call\"><div class=\"call-line\">")
	p.text(session.DescribeToolCall(c))
	p.raw("</div>")
	if cmd, ok := c.Arguments["command"].(string); ok && c.Name == "bash" {
		p.elem("pre", "command", "$ "+cmd)
	}
	args, err := json.MarshalIndent(c.Arguments, "", "  ")
	if err == nil && len(c.Arguments) > 0 {
		p.raw("<details class=\"args\"><summary>Arguments</summary>")
		p.elem("pre", "", string(args))
		p.raw("</details>")
	}
	p.raw("</div>\n")
}

// toolResult draws the diff an edit reports, then the output and images.
func (p *page) toolResult(m *ai.ToolResultMessage) {
	diffs := tool.EditDiffs(m.Details)
	for _, d := range diffs {
		if len(diffs) > 1 {
			p.elem("div", "diff-file", d.Path)
		}
		p.diff(d.Diff)
	}
	if m.PrunedAt > 0 {
		p.elem("div", "note", "This output was later pruned from the model's context.")
	}
	for _, b := range m.Content {
		switch b := b.(type) {
		case *ai.TextContent:
			p.elem("pre", "output", b.Text)
		case *ai.ImageContent:
			p.image(b)
		}
	}
}

// diff draws a diff with added, removed and hunk lines marked.
func (p *page) diff(d string) {
	p.raw("<pre class=\"diff\">")
	for line := range strings.SplitSeq(strings.TrimSuffix(d, "\n"), "\n") {
		class := "ctx"
		switch {
		case strings.HasPrefix(line, "+++") || strings.HasPrefix(line, "---"):
			class = "file"
		case strings.HasPrefix(line, "+"):
			class = "add"
		case strings.HasPrefix(line, "-"):
			class = "del"
		case strings.HasPrefix(line, "@@"):
			class = "hunk"
		}
		p.raw("<span class=\"" + class + "\">")
		p.text(line)
		p.raw("</span>")
	}
	p.raw("</pre>\n")
}

// execution draws a command the user ran with its output and outcome.
func (p *page) execution(prompt, command, output string, exit *int, cancelled, truncated, excluded bool) {
	p.elem("pre", "command", prompt+command)
	if output != "" {
		p.elem("pre", "output", output)
	}
	var notes []string
	switch {
	case cancelled:
		notes = append(notes, "cancelled")
	case exit != nil && *exit != 0:
		notes = append(notes, fmt.Sprintf("exit code %d", *exit))
	}
	if truncated {
		notes = append(notes, "output truncated")
	}
	if excluded {
		notes = append(notes, "not sent to the model")
	}
	if len(notes) > 0 {
		p.elem("div", "note", strings.Join(notes, " · "))
	}
}

// custom draws a message an extension added; one the UI does not show
// is collapsed.
func (p *page) custom(e *session.Entry, customType string, c message.Content, display bool) {
	p.head(e, "Extension message", customType)
	if !display {
		p.raw("<details class=\"custom-hidden\"><summary>Not shown in the UI; sent to the model</summary>")
	}
	for _, b := range c.Blocks {
		switch b := b.(type) {
		case *ai.TextContent:
			p.markdownBlock("md", b.Text)
		case *ai.ImageContent:
			p.image(b)
		}
	}
	if !display {
		p.raw("</details>")
	}
	p.raw("\n")
}

// summary draws a compaction or branch summary, collapsed.
func (p *page) summary(kind, title, text string) {
	p.raw("<details class=\"summary " + kind + "\"><summary>")
	p.text(title)
	p.raw("</summary>")
	p.markdownBlock("md", text)
	p.raw("</details>\n")
}

// markdownBlock renders Markdown inside <div class="class">; text that
// cannot be rendered, or would cost too much to (markdownTooCostly), is
// shown as it is, with a note saying why.
func (p *page) markdownBlock(class, text string) {
	if why := markdownTooCostly(text); why != "" {
		p.elem("div", class+" plain", text)
		p.elem("div", "note", "Shown as plain text: "+why+".")
		p.raw("\n")
		return
	}
	p.md.Reset()
	if err := markdown().Convert([]byte(text), &p.md); err != nil {
		p.elem("div", class+" plain", text)
		return
	}
	p.raw("<div class=\"" + class + "\">")
	p.rawBytes(p.md.Bytes())
	p.raw("</div>\n")
}

// imageTypes are the image formats the page embeds.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// image embeds an image as a data: URL; one whose data is not base64 of
// a known format, or whose blob was not found, is a placeholder.
func (p *page) image(img *ai.ImageContent) {
	if hash, ok := session.ParseBlobRef(img.Data); ok {
		p.elem("div", "image-missing", "[image "+img.MIMEType+": blob "+hash+" not found]")
		return
	}
	if !imageTypes[img.MIMEType] || !isBase64(img.Data) {
		p.elem("div", "image-missing", "[image "+img.MIMEType+": not embeddable]")
		return
	}
	p.raw("<img class=\"image\" alt=\"image\" src=\"data:" + img.MIMEType + ";base64,")
	p.raw(img.Data)
	p.raw("\">\n")
}

// isBase64 reports whether s holds only the standard base64 alphabet.
func isBase64(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// userText joins the text blocks of a user message.
func userText(u *ai.UserMessage) string {
	var b strings.Builder
	for _, c := range u.Content {
		if t, ok := c.(*ai.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
