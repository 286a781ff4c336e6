package ai

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkParseStreamingJSON measures one re-parse of a half-streamed
// write call (4 KiB of content, cut inside the string), the work done per
// toolcall_delta.
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
// Emitter does for toolcall_delta. One op is the whole stream.
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
