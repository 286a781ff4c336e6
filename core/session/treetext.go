package session

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// The one-line descriptions of entries in a tree view.

// lineChars is how much of a message's text a row shows.
const lineChars = 200

// entryKind returns the role of a message entry, else the entry type.
func entryKind(e *Entry) string {
	if e.Type == TypeMessage && e.Message != nil {
		return string(e.Message.MessageRole())
	}
	return e.Type
}

// entryLine describes an entry in one line: "user: …", "assistant: …",
// a tool result as its call ("[read: a.go]"), "[compaction: 12k tokens]",
// "[model: provider/id]", … calls maps tool call ids to their calls.
func entryLine(e *Entry, calls map[string]*ai.ToolCall) string {
	switch e.Type {
	case TypeMessage:
		return messageLine(e.Message, calls)
	case TypeCustomMessage:
		return "[" + e.CustomMessage.CustomType + "]: " + oneLine(e.CustomMessage.Content.Text(), lineChars)
	case TypeCompaction:
		return fmt.Sprintf("[compaction: %dk tokens]", int(math.Round(float64(e.Compaction.TokensBefore)/1000)))
	case TypeBranchSummary:
		return "[branch summary]: " + oneLine(e.BranchSummary.Summary, lineChars)
	case TypeModelChange:
		return "[model: " + e.ModelChange.Model + "]"
	case TypeThinkingLevelChange:
		l := "off"
		if p := e.ThinkingLevelChange.ThinkingLevel; p != nil {
			l = *p
		}
		return "[thinking: " + l + "]"
	case TypeServiceTierChange:
		t := "default"
		if p := e.ServiceTierChange.ServiceTier; p != nil {
			t = *p
		}
		return "[service tier: " + t + "]"
	case TypeCustom:
		return "[custom: " + e.Custom.CustomType + "]"
	case TypeLabel:
		if e.Label.Label == "" {
			return "[label: (cleared)]"
		}
		return "[label: " + e.Label.Label + "]"
	case TypeTTSRInjection:
		return "[rules: " + strings.Join(e.TTSRInjection.InjectedRules, ", ") + "]"
	case TypeSessionInit:
		return "[session init: " + oneLine(e.SessionInit.Task, 80) + "]"
	case TypeModeChange:
		return "[mode: " + e.ModeChange.Mode + "]"
	case TypeMCPToolSelection:
		return "[mcp tools: " + strings.Join(e.MCPToolSelection.SelectedToolNames, ", ") + "]"
	}
	return "[" + e.Type + "]"
}

func messageLine(m ai.Message, calls map[string]*ai.ToolCall) string {
	switch m := m.(type) {
	case *ai.UserMessage:
		return "user: " + oneLine(contentText(m.Content), lineChars)
	case *ai.AssistantMessage:
		switch text := oneLine(m.Text(), lineChars); {
		case text != "":
			return "assistant: " + text
		case m.StopReason == ai.StopReasonAborted:
			return "assistant: (aborted)"
		case m.ErrorMessage != "":
			return "assistant: " + oneLine(m.ErrorMessage, 80)
		}
		return "assistant: (no content)"
	case *ai.ToolResultMessage:
		if c := calls[m.ToolCallID]; c != nil {
			return callLine(c)
		}
		name := m.ToolName
		if name == "" {
			name = "tool"
		}
		return "[" + name + "]"
	case *message.BashExecution:
		return "[bash]: " + oneLine(m.Command, lineChars)
	case *message.Custom:
		return "[" + m.CustomType + "]: " + oneLine(m.Content.Text(), lineChars)
	case nil:
		return "[message]"
	}
	return "[" + string(m.MessageRole()) + "]"
}

// DescribeToolCall describes a tool call in one line by its main argument,
// as the tree view shows it: "[read: a.go:10-29]", "[bash: go test ./...]".
func DescribeToolCall(c *ai.ToolCall) string { return callLine(c) }

// callLine describes a tool call by its main argument: "[read: a.go:10-29]",
// "[bash: go test ./...]", "[ssh: web $ uptime]", "[checkpoint: <goal>]",
// "[calc: 2 + 2 (3 calcs)]",
// "[recipe: test --watch]", "[inspect_image: shot.png: <question>]",
// other tools with their arguments as JSON.
func callLine(c *ai.ToolCall) string {
	str := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := c.Arguments[k].(string); ok && v != "" {
				return v
			}
		}
		return ""
	}
	switch c.Name {
	case "read":
		where := str("path", "file_path")
		off, hasOff := c.Arguments["offset"].(float64)
		lim, hasLim := c.Arguments["limit"].(float64)
		if hasOff || hasLim {
			if !hasOff {
				off = 1
			}
			where += fmt.Sprintf(":%d", int(off))
			if hasLim {
				where += fmt.Sprintf("-%d", int(off+lim-1))
			}
		}
		return "[read: " + where + "]"
	case "write", "edit":
		path := str("path", "file_path", "file") // file: the edit tool in vim mode
		if path == "" {
			path = editedFiles(str("input"))
		}
		return "[" + c.Name + ": " + path + "]"
	case "bash":
		return "[bash: " + oneLine(str("command"), 50) + "]"
	case "ssh":
		return "[ssh: " + str("host") + " $ " + oneLine(str("command"), 50) + "]"
	case "search", "grep", "find", "ast_grep", "web_search":
		return "[" + c.Name + ": " + oneLine(str("pattern", "query", "path"), 50) + "]"
	case "checkpoint", "rewind":
		return "[" + c.Name + ": " + oneLine(str("goal", "report"), 50) + "]"
	case "calc":
		// The first expression and how many there are, as omp's header.
		calcs, _ := c.Arguments["calculations"].([]any)
		first := ""
		if len(calcs) > 0 {
			if m, ok := calcs[0].(map[string]any); ok {
				first, _ = m["expression"].(string)
			}
		}
		n := "1 calc"
		if len(calcs) != 1 {
			n = fmt.Sprintf("%d calcs", len(calcs))
		}
		return "[calc: " + oneLine(first, 50) + " (" + n + ")]"
	case "recipe":
		return "[recipe: " + oneLine(str("op"), 50) + "]"
	case "inspect_image":
		return "[inspect_image: " + str("path") + ": " + oneLine(str("question"), 40) + "]"
	case "eval":
		return "[eval: " + oneLine(evalSummary(str("input")), 50) + "]"
	case "github":
		return "[github: " + githubMeta(c.Arguments) + "]"
	}
	args, _ := json.Marshal(c.Arguments)
	return "[" + c.Name + ": " + oneLine(string(args), 40) + "]"
}

// evalHeader is an eval cell header with its title: `*** Cell py:"load"`.
var evalHeader = regexp.MustCompile(`(?i)^\*{2,}\s*cell\b.*?["']([^"']+)["']`)

// evalSummary describes an eval input by its cells' titles, or by its
// first line of code when no cell has a title.
func evalSummary(input string) string {
	var titles []string
	first := ""
	for line := range strings.SplitSeq(input, "\n") {
		line = strings.TrimSpace(line)
		if m := evalHeader.FindStringSubmatch(line); m != nil {
			titles = append(titles, m[1])
		} else if first == "" && line != "" && !strings.HasPrefix(line, "**") {
			first = line
		}
	}
	if len(titles) > 0 {
		return strings.Join(titles, ", ")
	}
	return first
}

// githubMeta is a github call's op and its subject, as omp's header
// shows them: the query or PRs, then the repository ("search_issues
// crash · owner/repo").
func githubMeta(args map[string]any) string {
	str := func(k string) string { v, _ := args[k].(string); return v }
	parts := []string{str("op")}
	switch pr := args["pr"].(type) {
	case string:
		parts = append(parts, pr)
	case []any:
		var ids []string
		for _, p := range pr {
			if s, ok := p.(string); ok {
				ids = append(ids, s)
			}
		}
		parts = append(parts, strings.Join(ids, ", "))
	}
	parts = append(parts, oneLine(str("query"), 40), str("run"), str("repo"), str("branch"))
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

// editedFiles names the files an edit's input changes: the "@@ path"
// headers of hashline input and the "*** Update File: path" lines of a
// patch, in order, each once.
func editedFiles(input string) string {
	var files []string
	seen := map[string]bool{}
	patch := strings.Contains(input, "*** Begin Patch") // its "@@ " lines are hunk contexts
	for line := range strings.SplitSeq(input, "\n") {
		line = strings.TrimRight(line, "\r")
		var f string
		switch {
		case !patch && strings.HasPrefix(line, "@@ "):
			f = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "*** "):
			for _, op := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
				if strings.HasPrefix(line, op) {
					f = strings.TrimSpace(line[len(op):])
				}
			}
		}
		if f != "" && !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	return oneLine(strings.Join(files, ", "), 80)
}

// toolCallIndex maps the ids of the tool calls in a forest to the calls.
func toolCallIndex(roots []*TreeNode) map[string]*ai.ToolCall {
	calls := map[string]*ai.ToolCall{}
	stack := append([]*TreeNode(nil), roots...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a, ok := n.Entry.Message.(*ai.AssistantMessage); ok {
			for _, c := range a.ToolCalls() {
				calls[c.ID] = c
			}
		}
		stack = append(stack, n.Children...)
	}
	return calls
}

// toolCallsOnly reports an assistant message without text that ended
// normally: its tool results stand for it in a tree view.
func toolCallsOnly(e *Entry) bool {
	a, ok := e.Message.(*ai.AssistantMessage)
	if !ok || strings.TrimSpace(a.Text()) != "" {
		return false
	}
	return a.StopReason == ai.StopReasonStop || a.StopReason == ai.StopReasonToolUse || a.StopReason == ""
}

// searchText is what a tree search looks in: the label, the kind, the
// line, and for shell runs the whole command.
func searchText(r TreeRow) string {
	parts := []string{r.Label, r.Kind, r.Text}
	switch e := r.Entry; {
	case e.BranchSummary != nil:
		parts = append(parts, "branch summary", e.BranchSummary.Summary)
	case e.Custom != nil:
		parts = append(parts, "custom")
	}
	if b, ok := r.Entry.Message.(*message.BashExecution); ok {
		parts = append(parts, b.Command)
	}
	return strings.Join(parts, " ")
}

// contentText joins the text blocks of a content list.
func contentText(c ai.ContentList) string {
	var b strings.Builder
	for _, blk := range c {
		if t, ok := blk.(*ai.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// oneLine turns newlines and tabs into spaces, trims, and keeps the first
// max characters, followed by "…" when it cut.
func oneLine(s string, max int) string {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, s))
	n := 0
	for i := range s {
		if n == max {
			// Say that it was cut: a shortened command must not read as
			// another, complete one.
			return s[:i] + "…"
		}
		n++
	}
	return s
}
