package tui

import (
	"testing"

	"github.com/gopi-agent/gopi/core/agentsession"
)

// Memories the hindsight backend could not write are reported in the
// transcript; they were dropped without a word.
func TestMemoryWriteFailedShown(t *testing.T) {
	r := newRig(t)
	r.update(eventMsg{agentsession.MemoryWriteFailed{Error: "hindsight retain failed (HTTP 500): boom"}})
	r.settle()
	if !r.printedHas("hindsight retain failed (HTTP 500): boom") {
		t.Fatalf("not reported:\n%s", r.transcript())
	}
}
