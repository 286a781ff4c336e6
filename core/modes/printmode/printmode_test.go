package printmode

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
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
}

func (f *fakeSession) Prompt(_ context.Context, text string, _ agentsession.PromptOptions) error {
	f.prompts = append(f.prompts, text)
	if f.err != nil {
		return f.err
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

func TestRunReportsAFailedPrompt(t *testing.T) {
	t.Parallel()
	f := &fakeSession{err: errors.New("no API key"), store: session.InMemory(t.TempDir())}
	var out, errOut bytes.Buffer
	status := Run(context.Background(), f, []Prompt{{Text: "hi"}}, Options{Format: Text, Stdout: &out, Stderr: &errOut})
	if status != ExitFailed || out.Len() != 0 || errOut.String() != "gopi: no API key\n" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out.String(), errOut.String())
	}
}
