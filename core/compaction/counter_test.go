package compaction

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// A count is remembered for the message it was made for, and the memory
// goes with the message: it neither keeps the message alive nor outlives
// it.
func TestCounterRemembersWithoutRetaining(t *testing.T) {
	c := NewCounter("claude-sonnet-4-5")
	size := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.cache)
	}
	keep := &ai.UserMessage{Content: ai.ContentList{&ai.TextContent{Text: strings.Repeat("kept words ", 200)}}}
	n := c.Count(keep)
	if n <= 0 {
		t.Fatalf("count %d", n)
	}
	keep.Content = ai.ContentList{&ai.TextContent{Text: "changed"}} // a cached count does not look again
	if again := c.Count(keep); again != n {
		t.Fatalf("second count %d, want the remembered %d", again, n)
	}
	for range 100 {
		c.Count(&ai.ToolResultMessage{Content: ai.ContentList{&ai.TextContent{Text: strings.Repeat("dropped ", 500)}}})
	}
	if s := size(); s != 101 {
		t.Fatalf("%d counts remembered, want 101", s)
	}
	// Cleanups run on their own goroutine after a collection: wait for
	// them (no timing is asserted).
	testwait.Until(t, "the cleanups of the dropped messages", func() bool {
		runtime.GC()
		return size() <= 1
	})
	if s := size(); s != 1 {
		t.Fatalf("%d counts remembered after the messages were dropped, want 1", s)
	}
	if again := c.Count(keep); again != n {
		t.Fatalf("count of the kept message %d, want %d", again, n)
	}
	runtime.KeepAlive(keep)
}
