package ai

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkParseStreamingJSON measures one parse of a half-streamed write
// call (4 KiB of content, cut inside the string), the work done per
// delivered toolcall_delta.
func BenchmarkParseStreamingJSON(b *testing.B) {
	doc := `{"path":"src/main.go","content":"` + strings.Repeat(`line of code\n`, 600) + `"}`
	partial := doc[:len(doc)/2]
	b.SetBytes(int64(len(partial)))
	for b.Loop() {
		ParseStreamingJSON(partial)
	}
}

// BenchmarkEmitterTextDeltas measures pushing small text deltas through
// an Emitter and draining the stream (snapshot cloning and merging).
func BenchmarkEmitterTextDeltas(b *testing.B) {
	for b.Loop() {
		em, s := NewEmitter(nil)
		em.Start()
		idx := em.StartText()
		for range 1000 {
			em.TextDelta(idx, "token ")
		}
		em.EndText(idx)
		em.Done(nil)
		s.Collect()
	}
}

// BenchmarkStreamedArgsFile replays the tool-argument streaming workload
// of bench/ai.sh: the JSON document in $AI_BENCH_FILE arrives in 16-byte
// deltas and the accumulated text is re-parsed after each one, as the
// reference agent does (the Emitter parses only delivered events; see
// BenchmarkEmitterToolCall1MB). It compares the parsers. One op is the
// whole stream.
func BenchmarkStreamedArgsFile(b *testing.B) {
	path := os.Getenv("AI_BENCH_FILE")
	if path == "" {
		b.Skip("AI_BENCH_FILE not set (bench/ai.sh sets it)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	doc := strings.TrimSpace(string(data))
	const delta = 16
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		var last map[string]any
		for end := delta; ; end += delta {
			if end > len(doc) {
				end = len(doc)
			}
			last = ParseStreamingJSON(doc[:end])
			if end == len(doc) {
				break
			}
		}
		if len(last) != 2 {
			b.Fatalf("final parse has %d keys", len(last))
		}
	}
}

// writeArgs returns the arguments of a write call whose content is about
// size bytes of Go-like source lines, and splits it into deltas of 20 to
// 100 bytes (a fixed pseudo-random sequence), the sizes models stream.
func writeArgs(size int) (string, []string) {
	var content strings.Builder
	for i := 0; content.Len() < size; i++ {
		fmt.Fprintf(&content, "\tx%d := fmt.Sprintf(\"line %%d: %%q\", %d, \"tab\\there\")\n", i, i)
	}
	data, _ := json.Marshal(map[string]string{"path": "src/big.go", "content": content.String()})
	doc := string(data)
	var deltas []string
	seed := uint32(1)
	for len(doc) > 0 {
		seed = seed*1664525 + 1013904223
		n := min(20+int(seed>>24)%81, len(doc))
		deltas = append(deltas, doc[:n])
		doc = doc[n:]
	}
	return string(data), deltas
}

// BenchmarkEmitterToolCall1MB streams a 1 MB write call through an Emitter
// in 20–100 byte deltas while a consumer drains the stream, as a provider
// and the agent loop do. One op is the whole response.
func BenchmarkEmitterToolCall1MB(b *testing.B) {
	doc, deltas := writeArgs(1 << 20)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		em, s := NewEmitter(nil)
		done := make(chan *AssistantMessage)
		go func() {
			_, final := s.Collect()
			done <- final
		}()
		em.Start()
		idx := em.StartToolCall("call_1", "write")
		for _, d := range deltas {
			em.ToolCallDelta(idx, d)
		}
		em.EndToolCall(idx)
		em.SetUsage(Usage{Input: 10, Output: 300_000}) // as the provider reports it
		em.SetStopReason(StopReasonToolUse)
		em.Done(nil)
		final := <-done
		if got := final.ToolCalls()[0].Arguments["content"].(string); len(got) < 1<<20 {
			b.Fatalf("final content %d bytes", len(got))
		}
	}
}
