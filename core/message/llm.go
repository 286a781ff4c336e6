package message

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

// compactionTemplate introduces a compaction summary to the model. %s is
// the summary.
const compactionTemplate = `Earlier parts of this conversation were condensed to save context. The summary below, written when that happened, stands for everything before the messages that follow. Continue the work from where it describes; do not redo steps it reports as done.

<summary>
%s
</summary>`

// branchTemplate introduces the summary of a branch the user left. %s is
// the summary.
const branchTemplate = `The user returned to an earlier point of this conversation. The work done on the abandoned branch is summarised below for reference; it is not part of the current line of work unless the user brings it back.

<summary>
%s
</summary>`

// prunedPlaceholder replaces pruned tool output that kept no text.
const prunedPlaceholder = "[Output truncated]"

// CompactionText returns the user-message text that carries a compaction
// summary to the model.
func CompactionText(summary string) string { return fmt.Sprintf(compactionTemplate, summary) }

// BranchText returns the user-message text that carries a branch summary to
// the model.
func BranchText(summary string) string { return fmt.Sprintf(branchTemplate, summary) }

// ToLLM converts a conversation to the messages a provider is sent. User,
// assistant and tool-result messages pass through (a user message without
// attribution is the user's, a tool result without one the agent's; a pruned
// tool result keeps only its text, or a placeholder); custom messages become
// user messages with their content; summaries and the user's command runs
// become user messages whose text says what they are; runs excluded from the
// context, opaque roles and anything else a provider cannot take are
// dropped. The input is not modified; unchanged messages are shared.
func ToLLM(msgs []ai.Message) []ai.Message {
	out := make([]ai.Message, 0, len(msgs))
	for _, m := range msgs {
		if c := toLLM(m); c != nil {
			out = append(out, withoutBlobRefs(c))
		}
	}
	return out
}

// blobRefPrefix starts the data of an image whose bytes live in a session's
// blob store (see core/session).
const blobRefPrefix = "blob:"

// MissingImageText replaces an image whose bytes could not be found (a
// session file moved without its blob store): a provider would reject the
// reference as image data.
const MissingImageText = "[An image was here, but its data is no longer available.]"

// withoutBlobRefs returns m with unresolved blob references in user and
// tool-result images replaced by MissingImageText (m itself when it has
// none).
func withoutBlobRefs(m ai.Message) ai.Message {
	fix := func(list ai.ContentList) (ai.ContentList, bool) {
		changed := false
		for _, b := range list {
			if img, ok := b.(*ai.ImageContent); ok && strings.HasPrefix(img.Data, blobRefPrefix) {
				changed = true
				break
			}
		}
		if !changed {
			return list, false
		}
		out := make(ai.ContentList, len(list))
		for i, b := range list {
			if img, ok := b.(*ai.ImageContent); ok && strings.HasPrefix(img.Data, blobRefPrefix) {
				out[i] = ai.Text(MissingImageText)
				continue
			}
			out[i] = b
		}
		return out, true
	}
	switch m := m.(type) {
	case *ai.UserMessage:
		if c, ok := fix(m.Content); ok {
			u := *m
			u.Content = c
			return &u
		}
	case *ai.ToolResultMessage:
		if c, ok := fix(m.Content); ok {
			r := *m
			r.Content = c
			return &r
		}
	}
	return m
}

func toLLM(m ai.Message) ai.Message {
	switch m := m.(type) {
	case *ai.UserMessage:
		if m.Attribution != "" {
			return m
		}
		c := *m
		c.Attribution = "user"
		return &c
	case *ai.AssistantMessage:
		return m
	case *ai.ToolResultMessage:
		if m.Attribution != "" && m.PrunedAt == 0 {
			return m
		}
		c := *m
		if c.Attribution == "" {
			c.Attribution = "agent"
		}
		if c.PrunedAt != 0 {
			c.Content = prunedContent(m.Content)
		}
		return &c
	case *Custom:
		return &ai.UserMessage{Content: append(ai.ContentList(nil), m.Content.Blocks...), Attribution: m.Attribution, Timestamp: m.Timestamp}
	case *BranchSummary:
		return agentText(BranchText(m.Summary), m.Timestamp)
	case *CompactionSummary:
		return agentText(CompactionText(m.Summary), m.Timestamp)
	case *BashExecution:
		if m.ExcludeFromContext {
			return nil
		}
		return userText(runText("shell command", "$ "+m.Command, m.Output, m.ExitCode, m.Cancelled, m.Meta), m.Timestamp)
	case *PythonExecution:
		if m.ExcludeFromContext {
			return nil
		}
		return userText(runText("Python code", "```python\n"+m.Code+"\n```", m.Output, m.ExitCode, m.Cancelled, m.Meta), m.Timestamp)
	case *FileMention:
		return fileMentionMessage(m)
	}
	return nil
}

func prunedContent(content ai.ContentList) ai.ContentList {
	var b strings.Builder
	for _, c := range content {
		if t, ok := c.(*ai.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	text := b.String()
	if text == "" {
		text = prunedPlaceholder
	}
	return ai.ContentList{ai.Text(text)}
}

func agentText(text string, ts int64) *ai.UserMessage {
	return &ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Attribution: "agent", Timestamp: ts}
}

func userText(text string, ts int64) *ai.UserMessage {
	return &ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Attribution: "user", Timestamp: ts}
}

// runText describes a command the user ran from the prompt.
func runText(what, shown, output string, exitCode *int, cancelled bool, meta json.RawMessage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The user ran this %s from the prompt:\n%s\n", what, shown)
	if output == "" {
		b.WriteString("It printed nothing.")
	} else {
		fmt.Fprintf(&b, "Its output:\n```\n%s\n```", output)
	}
	switch {
	case cancelled:
		b.WriteString("\nThe user cancelled it before it finished.")
	case exitCode != nil && *exitCode != 0:
		fmt.Fprintf(&b, "\nIt failed with exit code %d.", *exitCode)
	}
	if id := metaArtifact(meta); id != "" {
		fmt.Fprintf(&b, "\n[The output above is cut; the full output is at artifact://%s]", id)
	}
	return b.String()
}

// metaArtifact returns the artifact id holding a run's full output, if the
// output metadata names one.
func metaArtifact(meta json.RawMessage) string {
	if len(meta) == 0 {
		return ""
	}
	var v struct {
		Truncation *struct {
			ArtifactID any `json:"artifactId"`
		} `json:"truncation"`
	}
	if json.Unmarshal(meta, &v) != nil || v.Truncation == nil || v.Truncation.ArtifactID == nil {
		return ""
	}
	return fmt.Sprint(v.Truncation.ArtifactID)
}

func fileMentionMessage(m *FileMention) *ai.UserMessage {
	var b strings.Builder
	b.WriteString("The user attached these files to the message:\n")
	for _, f := range m.Files {
		fmt.Fprintf(&b, "\n<file path=%q>\n", f.Path)
		switch {
		case f.SkippedReason != "":
			fmt.Fprintf(&b, "(content not included: %s)\n", f.SkippedReason)
		case f.Content != "":
			b.WriteString(f.Content)
			if !strings.HasSuffix(f.Content, "\n") {
				b.WriteByte('\n')
			}
		}
		b.WriteString("</file>\n")
	}
	content := ai.ContentList{ai.Text(b.String())}
	for _, f := range m.Files {
		if f.Image != nil {
			content = append(content, f.Image)
		}
	}
	return &ai.UserMessage{Content: content, Attribution: "user", Timestamp: m.Timestamp}
}
