package compaction

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

// builder appends entries to an in-memory session and names them.
type builder struct {
	t   testing.TB
	m   *session.Manager
	ids map[string]string // name → entry id
	n   int
}

func newBuilder(t testing.TB) *builder {
	return &builder{t: t, m: session.InMemory("/p"), ids: map[string]string{}}
}

func (b *builder) ok(id string, err error) string {
	b.t.Helper()
	if err != nil {
		b.t.Fatal(err)
	}
	return id
}

func (b *builder) name(name, id string) {
	if name != "" {
		b.ids[name] = id
	}
}

func (b *builder) user(name, text string) {
	b.name(name, b.ok(b.m.AppendMessage(&ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Attribution: "user"})))
}

func (b *builder) assistant(name, text string, calls ...*ai.ToolCall) {
	content := ai.ContentList{}
	if text != "" {
		content = append(content, ai.Text(text))
	}
	stop := ai.StopReasonStop
	for _, c := range calls {
		content = append(content, c)
		stop = ai.StopReasonToolUse
	}
	b.name(name, b.ok(b.m.AppendMessage(&ai.AssistantMessage{Content: content, Provider: "p", Model: "m", StopReason: stop})))
}

// usage appends an assistant answer that reports usage.
func (b *builder) usage(name, text string, u ai.Usage) {
	b.name(name, b.ok(b.m.AppendMessage(&ai.AssistantMessage{Content: ai.ContentList{ai.Text(text)}, Provider: "p", Model: "m", StopReason: ai.StopReasonStop, Usage: u})))
}

func (b *builder) call(name string, args map[string]any) *ai.ToolCall {
	b.n++
	return &ai.ToolCall{ID: fmt.Sprintf("call_%d", b.n), Name: name, Arguments: args}
}

func (b *builder) result(name string, call *ai.ToolCall, text string) {
	b.name(name, b.ok(b.m.AppendMessage(&ai.ToolResultMessage{ToolCallID: call.ID, ToolName: call.Name, Content: ai.ContentList{ai.Text(text)}})))
}

func (b *builder) bash(name, cmd, out string) {
	b.name(name, b.ok(b.m.AppendMessage(&message.BashExecution{Command: cmd, Output: out})))
}

func (b *builder) modelChange(name string) {
	b.name(name, b.ok(b.m.Record(session.ModelChange{Model: "p/m2", Role: ""})))
}

func (b *builder) label(name, target string) {
	b.name(name, b.ok(b.m.Record(session.Label{TargetID: b.ids[target], Label: "mark"})))
}

func (b *builder) customMessage(name, text string) {
	b.name(name, b.ok(b.m.Record(session.CustomMessage{CustomType: "ext", Content: message.PlainText(text), Display: true})))
}

func (b *builder) compaction(name, summary, firstKept string, details string) {
	c := session.Compaction{Summary: summary, FirstKeptEntryID: b.ids[firstKept], TokensBefore: 100}
	if details != "" {
		c.Details = []byte(details)
	}
	b.name(name, b.ok(b.m.Record(c)))
}

func (b *builder) path() []*session.Entry { return b.m.Path("") }

// index returns the position of a named entry on the path.
func (b *builder) index(name string) int {
	b.t.Helper()
	for i, e := range b.path() {
		if e.ID == b.ids[name] {
			return i
		}
	}
	b.t.Fatalf("no entry %q on the path", name)
	return -1
}

// words returns n words of one o200k_base token each.
func words(n int) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString([]string{"one", "two", "three", "four", "five", "six", "seven", "eight"}[i%8])
	}
	return sb.String()
}
