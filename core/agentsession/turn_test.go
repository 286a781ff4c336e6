package agentsession

import (
	"context"
	"errors"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// The turn is held by one worker at a time, and nobody gets it once the
// session is closed.
func TestTurnGate(t *testing.T) {
	t.Parallel()
	g := newTurn(nil)
	if !g.tryAcquire() || g.tryAcquire() || !g.busy() {
		t.Fatal("the turn is not exclusive")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := g.acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("acquire of a held turn with an ended context: %v", err)
	}
	g.release()
	if g.busy() || !g.tryAcquire() {
		t.Fatal("released turn not free")
	}
	g.release()

	gen := g.abortGeneration()
	g.newGeneration()
	if !g.abortedSince(gen) || g.abortedSince(g.abortGeneration()) {
		t.Fatal("abort generations")
	}

	if !g.close() || g.close() || !g.isClosed() {
		t.Fatal("close reports the first call only")
	}
	if g.tryAcquire() {
		t.Fatal("turn taken after close")
	}
	if err := g.acquire(context.Background()); !errors.Is(err, errClosed) {
		t.Fatalf("acquire after close: %v", err)
	}
	if err := g.take(context.Background()); !errors.Is(err, errClosed) {
		t.Fatalf("take after close: %v", err)
	}
}

// Messages kept for the next prompt are handed out once.
func TestTurnKeepsMessagesForTheNextPrompt(t *testing.T) {
	t.Parallel()
	g := newTurn(nil)
	m := &message.Custom{CustomType: "note", Content: message.PlainText("x")}
	g.keepForNext(m)
	if g.keptCount() != 1 {
		t.Fatalf("kept %d", g.keptCount())
	}
	if got := g.takeNext(); len(got) != 1 || got[0] != ai.Message(m) || g.keptCount() != 0 || g.takeNext() != nil {
		t.Fatalf("takeNext %v, then %d kept", got, g.keptCount())
	}
}
