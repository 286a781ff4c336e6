package htmlexport

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

// pngData is a 1×1 PNG, base64.
const pngData = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

func clock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// fixture is a session with everything a page draws: two branches off one
// user message (the older one left with a branch summary), a compaction,
// thinking, tool calls with results (an edit with its diff, an error, an
// image), a shell run by the user, extension messages, labels, and text
// that must stay text (HTML, a script, invalid UTF-8, a remote image).
type fixture struct {
	path                     string
	m                        *session.Manager
	firstUser, oldBranchTip  string // the fork's parent, the abandoned branch's last entry
	leaf, compaction, summID string
	editResult, labelled     string
	answer                   string // the last assistant message
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	opts := session.Options{Cwd: "/work/project", Dir: filepath.Join(dir, "sessions"), BlobDir: filepath.Join(dir, "blobs"),
		Now: clock(), Rand: rand.NewChaCha8([32]byte{7})}
	m := must[*session.Manager](t)(session.Create(opts))
	f := &fixture{m: m}
	add := func(msg ai.Message) string { return must[string](t)(m.AppendMessage(msg)) }
	asst := func(blocks ...ai.Content) *ai.AssistantMessage {
		return &ai.AssistantMessage{Content: blocks, API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5",
			StopReason: ai.StopReasonToolUse, Usage: ai.Usage{Input: 1200, Output: 80, CacheRead: 300, Cost: ai.Cost{Total: 0.0123}}, Duration: 1500}
	}
	must[string](t)(m.Record(session.ModelChange{Model: "anthropic/claude-sonnet-4-5", Role: ""}))
	f.firstUser = add(&ai.UserMessage{Content: ai.ContentList{ai.Text("Make Hello end with an exclamation mark <b>now</b>"),
		&ai.ImageContent{Data: pngData, MIMEType: "image/png"}}})
	// The abandoned branch.
	add(asst(ai.Text("First try: I will **guess**.")))
	f.oldBranchTip = add(&ai.UserMessage{Content: ai.ContentList{ai.Text("no, read the file first")}})
	// The branch kept.
	f.summID = must[string](t)(m.BranchWithSummary(f.firstUser, "The user wanted the file read first.", nil, false))
	add(asst(&ai.ThinkingContent{Thinking: "The file is greet.go; read it."}, ai.Text("Reading `greet.go`."),
		&ai.ToolCall{ID: "call_1", Name: "read", Arguments: map[string]any{"path": "greet.go"}}))
	add(&ai.ToolResultMessage{ToolCallID: "call_1", ToolName: "read", Content: ai.ContentList{ai.Text("1ab|package greet\n2cd|func Hello() string { return \"hi\" }\n\xff\xfe bad bytes")}})
	add(asst(&ai.ToolCall{ID: "call_2", Name: "edit", Arguments: map[string]any{"path": "greet.go", "edits": []any{}}}))
	f.editResult = add(&ai.ToolResultMessage{ToolCallID: "call_2", ToolName: "edit", Content: ai.ContentList{ai.Text("Updated greet.go")},
		Details: map[string]any{"mode": "replace", "diff": "--- a/greet.go\n+++ b/greet.go\n@@ -2 +2 @@\n-func Hello() string { return \"hi\" }\n+func Hello() string { return \"hi!\" }\n"}})
	add(asst(&ai.ToolCall{ID: "call_3", Name: "bash", Arguments: map[string]any{"command": "go test ./..."}}))
	add(&ai.ToolResultMessage{ToolCallID: "call_3", ToolName: "bash", IsError: true, Content: ai.ContentList{ai.Text("FAIL greet 0.01s\nCommand exited with code 1")}})
	add(asst(&ai.ToolCall{ID: "call_4", Name: "screenshot", Arguments: map[string]any{}}))
	add(&ai.ToolResultMessage{ToolCallID: "call_4", ToolName: "screenshot", Content: ai.ContentList{&ai.ImageContent{Data: pngData, MIMEType: "image/png"}}})
	kept := add(&ai.UserMessage{Content: ai.ContentList{ai.Text("now tidy up")}})
	f.compaction = must[string](t)(m.Record(session.Compaction{Summary: "## Goal\nHello ends with `!`.", FirstKeptEntryID: kept, TokensBefore: 45210}))
	exit := 0
	add(&message.BashExecution{Command: "git diff --stat", Output: " greet.go | 2 +-", ExitCode: &exit})
	must[string](t)(m.Record(session.CustomMessage{CustomType: "todo", Content: message.PlainText("1. tidy"), Display: true}))
	must[string](t)(m.Record(session.CustomMessage{CustomType: "secret-context", Content: message.PlainText("hidden from the UI"), Display: false}))
	f.answer = add(&ai.AssistantMessage{Content: ai.ContentList{ai.Text("Done. <script>alert('x')</script> and Vec<T> stay text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![remote](https://example.com/x.png)")},
		API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5", StopReason: ai.StopReasonStop})
	f.labelled = f.editResult
	must[string](t)(m.Record(session.Label{TargetID: f.editResult, Label: "the fix"}))
	f.leaf = m.LeafID()
	if err := m.Flush(); err != nil {
		t.Fatal(err)
	}
	f.path = m.File()
	return f
}

// render renders a session and parses the page.
func render(t testing.TB, m *session.Manager, opts Options) (string, *html.Node) {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, m, opts); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), doc
}

// find returns the elements under n for which match is true, in document order.
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for c := range n.Descendants() {
		if c.Type == html.ElementNode && match(c) {
			out = append(out, c)
		}
	}
	return out
}

func attr(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	return strings.Contains(" "+v+" ", " "+class+" ")
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// byID returns the element with the id, or nil.
func byID(doc *html.Node, id string) *html.Node {
	els := find(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == id })
	if len(els) == 0 {
		return nil
	}
	return els[0]
}

func bufioWriter(b *bytes.Buffer) *bufio.Writer { return bufio.NewWriter(b) }
