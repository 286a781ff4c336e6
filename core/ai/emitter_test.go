package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestStalledConsumerQueueStaysSmall pushes 100k deltas per block while
// the consumer reads nothing and the throttle interval runs out again and
// again: the queue must hold about one event per block boundary, and the
// work must stay linear (no copy of the message or text per delta).
func TestStalledConsumerQueueStaysSmall(t *testing.T) {
	const n = 100_000
	clk := &manualClock{}
	em, s := newEmitter(nil, newStream(clk.after, DeltaInterval))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	em.Start()
	text := em.StartText()
	longest := 0
	for i := range n {
		em.TextDelta(text, "word ")
		if i%100 == 99 { // another 50 ms passed
			clk.fire()
			longest = max(longest, len(queued(s)))
		}
	}
	em.EndText(text)
	call := em.StartToolCall("c1", "write")
	em.ToolCallDelta(call, `{"content":"`)
	for i := range n {
		em.ToolCallDelta(call, "line\\n")
		if i%100 == 99 {
			clk.fire()
			longest = max(longest, len(queued(s)))
		}
	}
	em.ToolCallDelta(call, `"}`)
	em.EndToolCall(call)
	em.Done(nil)
	runtime.ReadMemStats(&after)
	if longest > 6 {
		t.Errorf("the queue grew to %d events with a stalled consumer", longest)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("%d MB allocated for 2×%d deltas (%d KB of text): not linear", alloc>>20, n, 11*n>>10)
	}
	evs, final := s.Collect()
	var types []string
	for _, ev := range evs {
		types = append(types, string(ev.Type))
	}
	want := "start text_start text_delta text_end toolcall_start toolcall_delta toolcall_end done"
	if got := strings.Join(types, " "); got != want {
		if len(types) > 20 {
			got = fmt.Sprintf("%d events", len(types))
		}
		t.Fatalf("got %s, want %s", got, want)
	}
	if len(evs[2].Delta) != 5*n || evs[2].Partial.Content[0].(*TextContent).Text != evs[2].Delta {
		t.Errorf("merged text delta has %d bytes, want %d", len(evs[2].Delta), 5*n)
	}
	args := evs[5].Partial.Content[1].(*ToolCall).Arguments
	if c, _ := args["content"].(string); len(c) != 5*n {
		t.Errorf("the delivered toolcall_delta's partial arguments hold %d bytes of content, want %d", len(c), 5*n)
	}
	if c, _ := final.ToolCalls()[0].Arguments["content"].(string); len(c) != 5*n || final.Text() != evs[2].Delta {
		t.Errorf("final message: %d bytes of text, %d of content", len(final.Text()), len(c))
	}
}

// TestConcurrentSnapshotsMatchDeltas runs producer and consumer at once
// (run it with -race): every delivered snapshot of a block holds exactly
// the deltas delivered for it so far, and reading the whole snapshot
// races with nothing the producer does.
func TestConcurrentSnapshotsMatchDeltas(t *testing.T) {
	em, s := NewEmitter(&Model{ID: "m"})
	go func() {
		em.Start()
		th := em.StartThinking()
		for i := range 300 {
			em.ThinkingDelta(th, "hmm ")
			em.AppendThinkingSignature(th, "s")
			if i%100 == 0 {
				time.Sleep(2 * DeltaInterval / 3)
			}
		}
		em.EndThinking(th)
		tx := em.StartText()
		for i := range 300 {
			em.TextDelta(tx, "text ")
			em.SetTextSignature(tx, "sig")
			if i%100 == 0 {
				time.Sleep(2 * DeltaInterval / 3)
			}
		}
		call := em.StartToolCall("", "read")
		em.ToolCallDelta(call, `{"path":"`)
		for i := range 300 {
			em.ToolCallDelta(call, "a/")
			em.SetToolCallID(call, "c1")
			em.UpdateUsage(func(u *Usage) { u.Output++ })
			if i%100 == 0 {
				time.Sleep(2 * DeltaInterval / 3)
			}
		}
		em.ToolCallDelta(call, `x"}`)
		em.EndOpenBlocks()
		em.Done(nil)
	}()
	got := map[int]string{}
	deliveredDeltas := 0
	for ev := range s.Events() {
		if ev.Partial != nil {
			if _, err := json.Marshal(ev.Partial); err != nil {
				t.Fatal(err)
			}
		}
		if !ev.Type.IsDelta() {
			continue
		}
		deliveredDeltas++
		got[ev.ContentIndex] += ev.Delta
		var have string
		switch b := ev.Partial.Content[ev.ContentIndex].(type) {
		case *ThinkingContent:
			have = b.Thinking
		case *TextContent:
			have = b.Text
		case *ToolCall:
			have = b.PartialJSON
			if want := ParseStreamingJSON(have); len(b.Arguments) != len(want) || b.Arguments["path"] != want["path"] {
				t.Fatalf("snapshot arguments %v for text %q", b.Arguments, have)
			}
		}
		if have != got[ev.ContentIndex] {
			t.Fatalf("%s snapshot of block %d holds %d bytes, the deltas so far %d", ev.Type, ev.ContentIndex, len(have), len(got[ev.ContentIndex]))
		}
	}
	final := s.Result(context.Background())
	if final.Content[0].(*ThinkingContent).Thinking != got[0] || final.Text() != got[1] || final.ToolCalls()[0].Arguments["path"] != strings.Repeat("a/", 300)+"x" {
		t.Fatalf("final message differs from the deltas")
	}
	if deliveredDeltas < 4 {
		t.Logf("only %d deltas delivered; the producer was too fast to interleave", deliveredDeltas)
	}
}
