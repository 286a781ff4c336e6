package compaction

import (
	"runtime"
	"sync"
	"weak"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/tokens"
)

// imageTokens is what one image counts: it has no text, and providers
// bill an inline image at roughly this much.
const imageTokens = 1200

// Counter estimates how many tokens messages take in a model's context:
// the text a provider is sent (message text, thinking, tool names and
// arguments, tool output, command runs, summaries; images at a fixed
// 1200), counted with the model's encoding — exactly for OpenAI models,
// scaled by the family's ratio for the others (tokens.ForModel). Counts
// are remembered per message (messages are never modified once stored),
// so a session pays for each message once; the memory does not keep a
// message alive (see Count). A Counter is safe for concurrent use.
type Counter struct {
	enc   *tokens.Encoding
	model tokens.ModelEncoding

	mu    sync.Mutex
	cache map[any]int // by weakKey of the message
}

// NewCounter returns a counter for a model id (e.g. "claude-sonnet-4-5",
// "gpt-5"); "" counts with o200k_base and the generic ratio.
func NewCounter(modelID string) *Counter {
	me := tokens.ForModel(modelID)
	enc, err := tokens.Get(me.Encoding)
	if err != nil {
		// The encodings are embedded; this does not happen.
		enc, _ = tokens.Get(tokens.O200kBase)
	}
	return &Counter{enc: enc, model: me, cache: map[any]int{}}
}

// Count returns the estimated tokens of one message; roles that never
// reach the model count 0.
//
// The count is remembered under a weak reference to the message and
// forgotten once the message is collected: a strong one kept every
// message ever counted alive for the counter's lifetime, which is the
// session's (the previous conversations after new_session, tool output
// after pruning replaced it).
func (c *Counter) Count(m ai.Message) int {
	if m == nil {
		return 0
	}
	key, onCollect := weakKey(m)
	if key == nil {
		return c.count(m)
	}
	c.mu.Lock()
	n, ok := c.cache[key]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = c.count(m)
	c.mu.Lock()
	if _, ok := c.cache[key]; !ok {
		c.cache[key] = n
		onCollect(c.forget)
	}
	c.mu.Unlock()
	return n
}

// forget drops the count of a collected message.
func (c *Counter) forget(key any) {
	c.mu.Lock()
	delete(c.cache, key)
	c.mu.Unlock()
}

// weakKey returns a cache key for m that does not keep it alive (a
// weak.Pointer to its concrete type) and a function that arranges for
// a function to be called with the key once m is collected; nil for a
// message of another type, which is not remembered.
func weakKey(m ai.Message) (key any, onCollect func(func(any))) {
	switch m := m.(type) {
	case *ai.UserMessage:
		return weakRef(m)
	case *ai.AssistantMessage:
		return weakRef(m)
	case *ai.ToolResultMessage:
		return weakRef(m)
	case *message.Custom:
		return weakRef(m)
	case *message.BashExecution:
		return weakRef(m)
	case *message.PythonExecution:
		return weakRef(m)
	case *message.FileMention:
		return weakRef(m)
	case *message.BranchSummary:
		return weakRef(m)
	case *message.CompactionSummary:
		return weakRef(m)
	}
	return nil, nil
}

func weakRef[T any](p *T) (any, func(func(any))) {
	if p == nil {
		return nil, nil
	}
	key := weak.Make(p)
	return key, func(forget func(any)) { runtime.AddCleanup(p, forget, any(key)) }
}

// countEntry returns the tokens of the message an entry puts in the
// context, and false for entries that put none. Messages of message
// entries are cached; the few built from other entries are counted anew.
func (c *Counter) countEntry(e *session.Entry) (int, bool) {
	if e.Type == session.TypeMessage {
		return c.Count(e.Message), true
	}
	if m := entryMessage(e); m != nil {
		return c.count(m), true
	}
	return 0, false
}

// CountText returns the estimated tokens of a text.
func (c *Counter) CountText(s string) int { return c.model.Scale(c.enc.Estimate(s)) }

func (c *Counter) count(m ai.Message) int {
	n, extra := 0, 0
	text := func(s string) {
		if s != "" {
			n += c.enc.Estimate(s)
		}
	}
	blocks := func(list ai.ContentList) {
		for _, b := range list {
			switch b := b.(type) {
			case *ai.TextContent:
				text(b.Text)
			case *ai.ThinkingContent:
				text(b.Thinking)
			case *ai.ToolCall:
				text(b.Name)
				text(argumentsText(b))
			case *ai.ImageContent:
				extra += imageTokens
			}
		}
	}
	switch m := m.(type) {
	case *ai.UserMessage:
		blocks(m.Content)
	case *ai.AssistantMessage:
		blocks(m.Content)
	case *ai.ToolResultMessage:
		blocks(m.Content)
	case *message.Custom:
		blocks(m.Content.Blocks)
	case *message.BashExecution:
		if m.ExcludeFromContext {
			return 0
		}
		text(m.Command)
		text(m.Output)
	case *message.PythonExecution:
		if m.ExcludeFromContext {
			return 0
		}
		text(m.Code)
		text(m.Output)
	case *message.FileMention:
		for _, f := range m.Files {
			text(f.Content)
			if f.Image != nil {
				extra += imageTokens
			}
		}
	case *message.BranchSummary:
		text(m.Summary)
	case *message.CompactionSummary:
		text(m.Summary)
	default:
		return 0
	}
	return c.model.Scale(n) + extra
}

// Size returns the bytes of text a message contributes to Count (images
// excluded): the cheap measure used to extrapolate counts.
func Size(m ai.Message) int {
	n := 0
	blocks := func(list ai.ContentList) {
		for _, b := range list {
			switch b := b.(type) {
			case *ai.TextContent:
				n += len(b.Text)
			case *ai.ThinkingContent:
				n += len(b.Thinking)
			case *ai.ToolCall:
				n += len(b.Name) + 16*len(b.Arguments)
			}
		}
	}
	switch m := m.(type) {
	case *ai.UserMessage:
		blocks(m.Content)
	case *ai.AssistantMessage:
		blocks(m.Content)
	case *ai.ToolResultMessage:
		blocks(m.Content)
	case *message.Custom:
		blocks(m.Content.Blocks)
	case *message.BashExecution:
		n += len(m.Command) + len(m.Output)
	case *message.PythonExecution:
		n += len(m.Code) + len(m.Output)
	case *message.FileMention:
		for _, f := range m.Files {
			n += len(f.Content)
		}
	case *message.BranchSummary:
		n += len(m.Summary)
	case *message.CompactionSummary:
		n += len(m.Summary)
	}
	return n
}

// argumentsText returns a tool call's arguments as compact JSON.
func argumentsText(tc *ai.ToolCall) string {
	if len(tc.Arguments) == 0 {
		return "{}"
	}
	return jsonText(tc.Arguments)
}
