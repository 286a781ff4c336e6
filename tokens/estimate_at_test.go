package tokens

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// estimateWhole is Estimate as it was written over the whole text in
// memory: the oracle EstimateAt's windows must reproduce.
func estimateWhole(e *Encoding, text string) int {
	if len(text) <= estimateExact {
		return e.Count(text)
	}
	stride := len(text) / estimateWindows
	sampled, tokens := 0, 0
	for w := range estimateWindows {
		start := alignStart(text, w*stride)
		end := alignStart(text, min(start+estimateWindow, len(text)))
		if end <= start {
			continue
		}
		sampled += end - start
		tokens += e.Count(text[start:end])
	}
	return int(float64(tokens) * float64(len(text)) / float64(sampled))
}

// EstimateAt, reading only its windows, gives what sampling the whole
// text in memory gives: lines of every length, multi-byte characters cut
// at sample points, no line breaks at all.
func TestEstimateAtMatchesWholeText(t *testing.T) {
	e := mustGet(t, O200kBase)
	rng := rand.New(rand.NewSource(1))
	words := []string{"alpha", "βeta", "γάμμα", "世界", "x", "\t", "  ", "{", "}", "0x1f", "🙂"}
	for _, lineMax := range []int{10, 200, 3000, 0} {
		var b strings.Builder
		for b.Len() < 5<<20+rng.Intn(1<<20) {
			b.WriteString(words[rng.Intn(len(words))])
			b.WriteByte(' ')
			if lineMax > 0 && rng.Intn(lineMax) == 0 {
				b.WriteByte('\n')
			}
		}
		text := b.String()
		if !utf8.ValidString(text) {
			t.Fatal("bad test text")
		}
		want := estimateWhole(e, text)
		got, err := e.EstimateAt(strings.NewReader(text), int64(len(text)))
		if err != nil || got != want {
			t.Errorf("lines up to %d words: EstimateAt %d, %v; whole text %d", lineMax, got, err, want)
		}
	}
}

// gopi tokens --estimate samples a file of any size: a 300 MiB file
// (sparse, so cheap to make) gets the sampled estimate, not an exact
// count streamed through every byte.
func TestEstimateLargeFileSampled(t *testing.T) {
	e := mustGet(t, O200kBase)
	path := filepath.Join(t.TempDir(), "big")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300 << 20); err != nil {
		t.Fatal(err)
	}
	// Text at the start (sampled) and in the middle of a gap between
	// windows (not sampled): the exact count and the estimate differ.
	f.WriteAt([]byte(strings.Repeat("hello world, ", 4000)), 0)
	f.WriteAt([]byte(strings.Repeat("unsampled text ", 40000)), 5<<20)
	f.Close()
	want, err := e.EstimateAt(mustOpen(t, path), 300<<20)
	if err != nil {
		t.Fatal(err)
	}
	o := &InputOptions{Encoding: e, Estimate: true}
	rep := o.countOne(context.Background(), path, NewWorkers(1))
	if rep.err != nil || rep.tokens != want {
		t.Errorf("--estimate of a 300 MiB file: %d tokens (%v), want the sampled %d", rep.tokens, rep.err, want)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
