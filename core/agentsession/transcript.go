package agentsession

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// Text renders the conversation the model sees as Markdown
// (/dump): the system prompt, the model and thinking level, the tools
// offered with their parameters, then every message under a heading of
// its role — thinking in <thinking> tags, tool calls with their JSON
// arguments, tool results and command runs in fenced blocks. Runs kept
// out of the context (!!) are left out. It returns "" when the
// conversation is empty.
func (c *Conversation) Text() string {
	s := c.s
	msgs := s.agent.Messages()
	if len(msgs) == 0 {
		return ""
	}
	var b strings.Builder
	if sp := s.agent.SystemPrompt(); sp != "" {
		b.WriteString("## System Prompt\n\n" + sp + "\n\n")
	}
	model := "(none selected)"
	if m := s.agent.Model(); m != nil {
		model = m.Provider + "/" + m.ID
	}
	fmt.Fprintf(&b, "## Configuration\n\nModel: %s\nThinking Level: %s\n\n", model, s.agent.Thinking())
	if tools := s.agent.Tools(); len(tools) > 0 {
		b.WriteString("## Available Tools\n\n")
		for _, t := range tools {
			d := t.Definition()
			params := "{}"
			if d.Parameters != nil {
				if j, err := json.MarshalIndent(d.Parameters, "", "  "); err == nil {
					params = string(j)
				}
			}
			fmt.Fprintf(&b, "### %s\n\n%s\n\nParameters:\n```json\n%s\n```\n\n", d.Name, strings.TrimSpace(d.Description), params)
		}
	}
	for _, m := range msgs {
		writeTranscriptMessage(&b, m)
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// writeTranscriptMessage appends one message of TranscriptText.
func writeTranscriptMessage(b *strings.Builder, m ai.Message) {
	switch m := m.(type) {
	case *ai.UserMessage:
		b.WriteString("## User\n\n" + contentText(m.Content) + "\n\n")
	case *ai.AssistantMessage:
		b.WriteString("## Assistant\n\n")
		for _, c := range m.Content {
			switch c := c.(type) {
			case *ai.TextContent:
				b.WriteString(c.Text + "\n\n")
			case *ai.ThinkingContent:
				if strings.TrimSpace(c.Thinking) != "" {
					b.WriteString("<thinking>\n" + c.Thinking + "\n</thinking>\n\n")
				}
			case *ai.ToolCall:
				args, _ := json.Marshal(c.Arguments)
				fmt.Fprintf(b, "Tool call `%s`:\n```json\n%s\n```\n\n", c.Name, args)
			}
		}
		if m.StopReason == ai.StopReasonError && m.ErrorMessage != "" {
			b.WriteString("(error: " + m.ErrorMessage + ")\n\n")
		}
	case *ai.ToolResultMessage:
		fmt.Fprintf(b, "### Tool Result: %s", m.ToolName)
		if m.IsError {
			b.WriteString(" (error)")
		}
		b.WriteString("\n\n```\n" + contentText(m.Content) + "\n```\n\n")
	case *message.BashExecution:
		if !m.ExcludeFromContext {
			b.WriteString("## Bash Execution\n\n```\n$ " + m.Command + "\n" + m.Output + "\n```\n\n")
		}
	case *message.PythonExecution:
		if !m.ExcludeFromContext {
			b.WriteString("## Python Execution\n\n```\n" + m.Code + "\n---\n" + m.Output + "\n```\n\n")
		}
	case *message.Custom:
		b.WriteString("## " + m.CustomType + "\n\n" + m.Content.Text() + "\n\n")
	case *message.BranchSummary:
		b.WriteString("## Branch Summary\n\n(left at " + m.FromID + ")\n\n" + m.Summary + "\n\n")
	case *message.CompactionSummary:
		b.WriteString("## Compaction Summary\n\n" + m.Summary + "\n\n")
	case *message.FileMention:
		b.WriteString("## Attached Files\n\n")
		for _, f := range m.Files {
			b.WriteString("- " + f.Path + "\n")
		}
		b.WriteString("\n")
	}
}

// contentText joins a message's text blocks; images become [Image].
func contentText(c ai.ContentList) string {
	var parts []string
	for _, b := range c {
		switch b := b.(type) {
		case *ai.TextContent:
			parts = append(parts, b.Text)
		case *ai.ImageContent:
			parts = append(parts, "[Image]")
		}
	}
	return strings.Join(parts, "\n")
}
