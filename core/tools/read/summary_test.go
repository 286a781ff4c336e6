package read

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/native/outline"
)

// goSource returns a Go file of n functions whose bodies have body+2
// lines; each function takes body+6 lines.
func goSource(n, body int) string {
	var s strings.Builder
	s.WriteString("package p\n\n")
	for i := range n {
		fmt.Fprintf(&s, "// F%d adds.\nfunc F%d(a, b int) int {\n\tx := a + %d\n", i, i, i)
		for range body {
			s.WriteString("\tx = x*31 + b\n")
		}
		s.WriteString("\treturn x\n}\n\n")
	}
	return s.String()
}

// summaryEnv writes name with text into a fresh directory and returns a
// session there.
func summaryEnv(tb testing.TB, name, text string) *tool.Env {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	return tool.NewEnv(dir)
}

// TestSummaryLargeFile: a 10,000-line file with 250 functions comes
// back whole as a summary, every body elided, and a second read answers
// from the span cache.
func TestSummaryLargeFile(t *testing.T) {
	t.Parallel()
	if _, err := outline.Bodies(context.Background(), "go", []byte("package p\n"), 1); err != nil {
		t.Skip("no grammars in this build:", err)
	}
	env := summaryEnv(t, "big.go", goSource(250, 34))
	res := call(t, env, "big.go")
	d := res.Details.(*Details)
	if s := d.Summary; s == nil || s.Lines != 10002 || s.ElidedSpans != 250 || s.ElidedLines != 250*36 || d.Truncation.NextOffset != 0 {
		t.Fatalf("summary %+v, window %+v", s, d.Truncation)
	}
	text := res.FirstText()
	if !strings.Contains(text, "|func F249(a, b int) int {\n\t...\n") || !strings.HasSuffix(text, "big.go:5-40 for verbatim content]") {
		t.Fatalf("text tail %q", text[len(text)-300:])
	}
	hits := spanCache.order.Len()
	call(t, env, "big.go")
	if spanCache.order.Len() != hits {
		t.Fatal("a repeated read parsed again")
	}
}

// TestSummaryCut: a summary larger than the output cap stops at a row
// boundary and says where to read on.
func TestSummaryCut(t *testing.T) {
	t.Parallel()
	if _, err := outline.Bodies(context.Background(), "go", []byte("package p\n"), 1); err != nil {
		t.Skip("no grammars in this build:", err)
	}
	env := summaryEnv(t, "big.go", goSource(1000, 4))
	res := call(t, env, "big.go")
	d := res.Details.(*Details)
	w := d.Truncation
	if d.Summary == nil || d.Summary.ElidedSpans >= 1000 || w.TruncatedBy != "bytes" || w.NextOffset != w.EndLine+1 || w.EndLine >= 10002 {
		t.Fatalf("summary %+v, window %+v", d.Summary, w)
	}
	text := res.FirstText()
	if len(text) > tool.DefaultMaxBytes || !strings.HasSuffix(text, fmt.Sprintf("[The summary stops at line %d of 10002 (50.0KB output limit). Use :%d to read on.]", w.EndLine, w.NextOffset)) {
		t.Fatalf("%d bytes, tail %q", len(text), text[len(text)-300:])
	}
}

// TestSummaryTooManyLines: past 20,000 lines a file is paged as usual.
func TestSummaryTooManyLines(t *testing.T) {
	t.Parallel()
	env := summaryEnv(t, "huge.go", goSource(2001, 4))
	res := call(t, env, "huge.go")
	if res.Details.(*Details).Summary != nil || !strings.Contains(res.FirstText(), "[Showing lines 1-500 of 20013.") {
		t.Fatalf("huge file summarised: %.300s", res.FirstText())
	}
}

// TestSpanCacheBound: the cache keeps at most summaryCacheSize entries,
// dropping the least recently used.
func TestSpanCacheBound(t *testing.T) {
	t.Parallel()
	c := newLRU(2)
	k := func(i int) spanKey { return spanKey{lang: "go", minBody: i} }
	c.put(k(1), spanResult{})
	c.put(k(2), spanResult{})
	c.get(k(1))
	c.put(k(3), spanResult{})
	if _, ok := c.get(k(2)); ok {
		t.Fatal("least recently used entry kept")
	}
	if _, ok := c.get(k(1)); !ok {
		t.Fatal("recently used entry dropped")
	}
}

// BenchmarkSummary10k reads a 10,000-line Go file through the tool: cold
// (the span cache emptied before each read, so the file is parsed) and
// cached (the spans come from the cache; the file is still read, hashed
// and rendered with anchors).
func BenchmarkSummary10k(b *testing.B) {
	src := goSource(250, 34)
	env := summaryEnv(b, "big.go", src)
	tl := New(env, nil)
	raw := []byte(`{"path": "big.go"}`)
	run := func(b *testing.B) {
		res, err := tool.Run(context.Background(), tl, raw, nil)
		if err != nil || res.Details.(*Details).Summary == nil {
			b.Fatal("no summary", err)
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			spanCache = newLRU(summaryCacheSize)
			run(b)
		}
	})
	b.Run("cached", func(b *testing.B) {
		run(b)
		for b.Loop() {
			run(b)
		}
	})
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := outline.Bodies(context.Background(), "go", []byte(src), 4); err != nil {
				b.Fatal(err)
			}
		}
	})
}
