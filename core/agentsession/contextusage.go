package agentsession

import (
	"encoding/json"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/message"
)

// ContextPart is one part of what the model is sent, with its estimated
// size.
type ContextPart struct {
	Label  string `json:"label"`  // e.g. "System prompt", "Tool results"
	Tokens int    `json:"tokens"` // estimated with the model's tokenizer (see compaction.Counter)
}

// ContextUsage breaks the next request down by part (/context): the
// parts do not overlap, so they add up to Used. Free is what is left of
// the window before the automatic-compaction buffer.
type ContextUsage struct {
	Model  string        `json:"model"`  // provider/id ("" without a model)
	Window int           `json:"window"` // the model's context window (0 when unknown)
	Parts  []ContextPart `json:"parts"`
	Used   int           `json:"used"`   // sum of Parts
	Buffer int           `json:"buffer"` // tokens kept free for automatic compaction (and the answer)
	Free   int           `json:"free"`   // Window - Used - Buffer, at least 0
}

// ContextUsage estimates what fills the context window: the system prompt
// (without its skills list), the skills list, the tools' definitions (sent
// beside the prompt as JSON), and the conversation by kind of message —
// the user's messages, files attached to them, the answers, tool results,
// summaries of compacted or abandoned history, and everything else
// (extension messages, ! runs). Tokens are estimated with the current
// model's tokenizer.
func (c *Conversation) ContextUsage() ContextUsage {
	s := c.s
	cnt := s.counter()
	out := ContextUsage{}
	model := s.agent.Model()
	if model != nil {
		out.Model, out.Window = model.Provider+"/"+model.ID, model.ContextWindow
	}
	skills := 0
	for _, sk := range s.res.Skills() {
		skills += cnt.CountText(sk.Name) + cnt.CountText(sk.Description)
	}
	sys := max(0, cnt.CountText(s.agent.SystemPrompt())-skills)
	defs := 0
	for _, t := range s.agent.Tools() {
		d := t.Definition()
		defs += cnt.CountText(d.Name) + cnt.CountText(d.Description)
		if d.Parameters != nil {
			if b, err := json.Marshal(d.Parameters); err == nil {
				defs += cnt.CountText(string(b))
			}
		}
	}
	var user, files, answers, results, summaries, other int
	for _, m := range s.agent.Messages() {
		n := cnt.Count(m)
		switch m.(type) {
		case *ai.UserMessage:
			user += n
		case *message.FileMention:
			files += n
		case *ai.AssistantMessage:
			answers += n
		case *ai.ToolResultMessage:
			results += n
		case *message.CompactionSummary, *message.BranchSummary:
			summaries += n
		default:
			other += n
		}
	}
	out.Parts = []ContextPart{
		{"System prompt", sys},
		{"Skills", skills},
		{"Tool definitions", defs},
		{"Your messages", user},
		{"Attached files", files},
		{"Answers", answers},
		{"Tool results", results},
		{"Summaries", summaries},
		{"Other messages", other},
	}
	for _, p := range out.Parts {
		out.Used += p.Tokens
	}
	if out.Window > 0 {
		set := s.compactor.settings()
		if set.Auto() {
			out.Buffer = out.Window - compaction.Threshold(out.Window, set)
		} else if set.Enabled {
			out.Buffer = compaction.Reserve(out.Window, set)
		}
		out.Buffer = min(max(0, out.Buffer), max(0, out.Window-out.Used))
		out.Free = max(0, out.Window-out.Used-out.Buffer)
	}
	return out
}
