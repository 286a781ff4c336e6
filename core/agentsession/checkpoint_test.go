package agentsession

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// enableCheckpoints writes checkpoint.enabled into the fixture's settings.
func enableCheckpoints(t *testing.T, f *fixture) {
	t.Helper()
	dir := filepath.Join(f.home, ".gopi", "agent")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yml"), []byte("checkpoint:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An aborted run drops its open checkpoint (a later rewind has none to
// end), and so does a move in the session tree.
func TestCheckpointDroppedByAbortAndTreeMove(t *testing.T) {
	t.Parallel()
	f := newFixture(t, keyEnv)
	enableCheckpoints(t, f)
	started := make(chan struct{})
	f.script.add(
		callTool("c1", "checkpoint", `{"goal":"explore"}`),
		func(ctx context.Context, req *ai.Request, em *ai.Emitter) { // stalls until aborted
			em.Start()
			close(started)
			<-ctx.Done()
			em.Fail(ctx, req.Model, ctx.Err())
		},
		callTool("r1", "rewind", `{"report":"late"}`),
		say("ok"),
		callTool("c2", "checkpoint", `{"goal":"again"}`),
		say("stopping"),
		say("still stopping"),
		say("stopping for good"),
		say("really"),
	)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	go func() {
		<-started
		s.Abort()
	}()
	if err := s.Prompt(context.Background(), "explore", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.svc.Checkpoint.Active(); ok {
		t.Fatal("the checkpoint survived the aborted run")
	}
	if err := s.Prompt(context.Background(), "rewind now", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	var rewound *ai.ToolResultMessage
	for _, m := range s.Messages() {
		if r, ok := m.(*ai.ToolResultMessage); ok && r.ToolName == "rewind" {
			rewound = r
		}
	}
	if rewound == nil || !rewound.IsError || rewound.Content[0].(*ai.TextContent).Text != "No active checkpoint." {
		t.Fatalf("rewind after the abort: %+v", rewound)
	}

	// A checkpoint left open: the model is reminded three times at most,
	// then the prompt ends with the checkpoint still open.
	if err := s.Prompt(context.Background(), "checkpoint again", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.svc.Checkpoint.Active(); !ok {
		t.Fatal("no checkpoint open after the reminders")
	}
	if n := len(f.script.requests()); n != 9 {
		t.Fatalf("%d requests, want 9 (3 reminders)", n)
	}
	first := s.Store().Entries()[0].ID
	if _, err := s.Tree().Navigate(context.Background(), first, NavigateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.svc.Checkpoint.Active(); ok {
		t.Fatal("the checkpoint survived a move in the tree")
	}
}
