package aicli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// fakeStream answers every request with text, or fails with fail.
func fakeStream(text string, fail error, seen *[]*ai.Request) func(context.Context, *ai.Request) *ai.Stream {
	return func(ctx context.Context, req *ai.Request) *ai.Stream {
		*seen = append(*seen, req)
		e, s := ai.NewEmitter(req.Model)
		go func() {
			e.Start()
			if fail != nil {
				e.Fail(ctx, req.Model, fail)
				return
			}
			i := e.StartText()
			e.TextDelta(i, text)
			e.EndText(i)
			e.Done(req.Model)
		}()
		return s
	}
}

// Run asks the prompt with the request's settings and prints the answer
// ending in one newline; -v adds the summary.
func TestRunPrintsAnswer(t *testing.T) {
	t.Parallel()
	model := &ai.Model{ID: "m", Provider: "p"}
	var seen []*ai.Request
	var stdout, stderr bytes.Buffer
	err := Run(context.Background(), Options{
		Stream:  fakeStream("Hello\n\n", nil, &seen),
		Request: ai.Request{Model: model, SystemPrompt: "be brief", MaxTokens: 7},
		Prompt:  "hi", Verbose: true,
	}, &stdout, &stderr)
	if err != nil || stdout.String() != "Hello\n" || !strings.HasPrefix(stderr.String(), "model p/m, stop stop, ") {
		t.Fatalf("err %v stdout %q stderr %q", err, stdout.String(), stderr.String())
	}
	if len(seen) != 1 || seen[0].SystemPrompt != "be brief" || seen[0].MaxTokens != 7 || len(seen[0].Messages) != 1 {
		t.Fatalf("requests %+v", seen)
	}
	if u, ok := seen[0].Messages[0].(*ai.UserMessage); !ok || len(u.Content) != 1 || u.Timestamp == 0 {
		t.Fatalf("message %#v", seen[0].Messages[0])
	}
}

// A failed stream is an error with the provider's message; with JSON
// every event is a line.
func TestRunFailure(t *testing.T) {
	t.Parallel()
	var seen []*ai.Request
	var stdout, stderr bytes.Buffer
	err := Run(context.Background(), Options{Stream: fakeStream("", errors.New("boom"), &seen), Prompt: "hi", JSON: true}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err %v", err)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"type":"start"`) || !strings.HasPrefix(lines[1], `{"type":"error"`) {
		t.Fatalf("json lines %q", lines)
	}
}
