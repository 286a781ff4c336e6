package printmode

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// fakeSession answers every prompt with a fixed assistant message,
// announcing it to the subscriber as the session would.
type fakeSession struct {
	answer  *ai.AssistantMessage
	err     error // Prompt's error
	sub     func(agent.Event)
	prompts []string
	store   *session.Manager
	aborted bool
	events  []agent.Event // sent before the answer
}

func (f *fakeSession) Prompt(_ context.Context, text string, _ agentsession.PromptOptions) error {
	f.prompts = append(f.prompts, text)
	if f.err != nil {
		return f.err
	}
	for _, ev := range f.events {
		f.sub(ev)
	}
	f.sub(agent.MessageStart{Message: f.answer})
	f.sub(agent.MessageEnd{Message: f.answer})
	return nil
}
func (f *fakeSession) Abort() { f.aborted = true }
func (f *fakeSession) Subscribe(fn func(agent.Event)) func() {
	f.sub = fn
	return func() { f.sub = nil }
}
func (f *fakeSession) Store() *session.Manager { return f.store }
func (f *fakeSession) Err() error              { return nil }
func (f *fakeSession) LastAssistant() *ai.AssistantMessage {
	if len(f.prompts) == 0 || f.err != nil {
		return nil
	}
	return f.answer
}
func (f *fakeSession) WaitJobs(context.Context, func(int)) error { return nil }

func TestRunPrintsTheLastAnswer(t *testing.T) {
	t.Parallel()
	f := &fakeSession{answer: &ai.AssistantMessage{Content: ai.ContentList{ai.Text("four")}, StopReason: ai.StopReasonStop}, store: session.InMemory(t.TempDir())}
	var out, errOut bytes.Buffer
	status := Run(context.Background(), f, []Prompt{{Text: "2+2?"}, {Text: "again"}}, Options{Format: Text, Stdout: &out, Stderr: &errOut})
	if status != ExitOK || out.String() != "four\n" || errOut.Len() != 0 {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out.String(), errOut.String())
	}
	if len(f.prompts) != 2 || f.prompts[1] != "again" || f.sub != nil {
		t.Fatalf("prompts %q, still subscribed %v", f.prompts, f.sub != nil)
	}
}

// -v prints tool calls and results without the escape sequences and
// control characters a web page put in them.
func TestVerboseStripsEscapes(t *testing.T) {
	t.Parallel()
	evil := "T\x1b]0;pwned\x07itle\x1b[2J \u202eevil"
	f := &fakeSession{answer: &ai.AssistantMessage{Content: ai.ContentList{ai.Text("ok")}, StopReason: ai.StopReasonStop},
		store: session.InMemory(t.TempDir()), events: []agent.Event{
			agent.ToolExecutionStart{ToolCallID: "1", ToolName: "web_search", Args: map[string]any{"query": evil}},
			agent.ToolExecutionEnd{ToolCallID: "1", ToolName: "web_search", Result: tool.TextResult(evil+"\nmore", nil)},
			// A failed search is text with the failure in its details.
			agent.ToolExecutionEnd{ToolCallID: "2", ToolName: "web_search", Result: tool.TextResult("Error: cancelled", map[string]any{"error": "cancelled"})},
		}}
	var out, errOut bytes.Buffer
	Run(context.Background(), f, []Prompt{{Text: "go"}}, Options{Format: Text, Verbose: true, Stdout: &out, Stderr: &errOut})
	got := errOut.String()
	if strings.ContainsAny(got, "\x1b\x07\u202e") || !strings.Contains(got, "✓ web_search Title evil …") || !strings.Contains(got, "✗ web_search Error: cancelled") {
		t.Fatalf("stderr %q", got)
	}
}

func TestRunReportsAFailedPrompt(t *testing.T) {
	t.Parallel()
	f := &fakeSession{err: errors.New("no API key"), store: session.InMemory(t.TempDir())}
	var out, errOut bytes.Buffer
	status := Run(context.Background(), f, []Prompt{{Text: "hi"}}, Options{Format: Text, Stdout: &out, Stderr: &errOut})
	if status != ExitFailed || out.Len() != 0 || errOut.String() != "gopi: no API key\n" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out.String(), errOut.String())
	}
}
