package grep

import (
	"context"
	"fmt"
	"iter"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/native/rure"
)

// formatRecord is the line a test renders for one match.
func formatRecord(path string, line int, text string, cut bool, spans []Span) string {
	return fmt.Sprintf("%s:%d:%q:%v:%v\n", path, line, text, cut, spans)
}

// Needs.Render sees exactly the matches Stream builds as records (line
// numbers, cut text, spans), whole or read in blocks, and its output
// replaces Matches.
func TestRenderMatchesRecords(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"big.txt": fooLines("é"), "a/small.go": "foo\nbar foo\n", "a/none.txt": "bar\n"})
	render := func(out *Rendering, path string, matches iter.Seq[*MatchView]) {
		for m := range matches {
			out.Buf = append(out.Buf, formatRecord(path, m.Line, string(m.Text), m.Truncated, m.Spans)...)
			if !out.Spill() {
				return
			}
		}
	}
	cases := []struct {
		name    string
		pattern string
		opt     func(*Options)
	}{
		{"plain", "foo", func(*Options) {}},
		{"cut", "foo", func(o *Options) { o.MaxColumns = 20 }},
		{"cut before the match", "tail", func(o *Options) { o.MaxColumns = 20 }},
		{"invert", "foo", func(o *Options) { o.Invert = true }},
		{"max-count", "foo", func(o *Options) { o.MaxCount = 5 }},
		{"multiline", `foo\nline`, func(o *Options) { o.Multiline = true }},
	}
	for _, tc := range cases {
		for _, blocks := range []bool{false, true} {
			for _, spill := range []int{defaultRenderSpill, 1} {
				testRenderCase(t, dir, tc.name, tc.pattern, tc.opt, blocks, spill, render)
			}
		}
	}
	// With context lines, records are built whatever Render says.
	o := DefaultOptions("foo", filepath.Join(dir, "a"))
	o.ContextAfter = 1
	res := 0
	if _, err := StreamTo(context.Background(), o, needing(Needs{Render: render}, func(fr *FileResult) error {
		if fr.Rendered != nil {
			t.Error("rendered with context lines")
		}
		res += len(fr.Matches)
		return nil
	})); err != nil || res != 2 {
		t.Fatalf("context: %d matches, %v", res, err)
	}
}

// testRenderCase is one case of TestRenderMatchesRecords: the files are
// read whole or in blocks, and Render's output is spilled to the printer
// once it holds spill bytes (1: after every line).
func testRenderCase(t *testing.T, dir, name, pattern string, opt func(*Options), blocks bool, spill int, render func(*Rendering, string, iter.Seq[*MatchView])) {
	t.Helper()
	o := DefaultOptions(pattern, dir)
	o.tuning.renderSpill = spill
	if blocks {
		o = withBlocks(o, 64, 256)
	}
	o.MaxColumns = 0
	opt(&o)
	var want strings.Builder
	wantSum, err := Stream(context.Background(), o, func(fr *FileResult) error {
		for _, m := range fr.Matches {
			want.WriteString(formatRecord(fr.Path, m.Line, m.Text, m.Truncated, m.Spans))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	parts := 0
	gotSum, err := StreamTo(context.Background(), o, needing(Needs{Render: render, ReuseRendered: spill == 1}, func(fr *FileResult) error {
		if len(fr.Matches) > 0 {
			t.Errorf("%s: records built with Render set", name)
		}
		got.Write(fr.Rendered)
		parts++
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if want.Len() == 0 || got.String() != want.String() {
		t.Errorf("%s (blocks %v, spill %d): rendered %d bytes, records %d:\n%.400s\nwant\n%.400s", name, blocks, spill, got.Len(), want.Len(), got.String(), want.String())
	}
	if gotSum.TotalMatches != wantSum.TotalMatches || gotSum.FilesWithMatches != wantSum.FilesWithMatches {
		t.Errorf("%s: summary %+v, want %+v", name, gotSum, wantSum)
	}
	if spill == 1 && parts <= gotSum.FilesWithMatches {
		t.Errorf("%s (blocks %v): %d parts for %d files: nothing spilled", name, blocks, parts, gotSum.FilesWithMatches)
	}
}

// FirstMatchOnly finds the same lines with only their first span.
func TestFirstMatchOnly(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.txt": "foo foo foo\nbar\nx foo\n", "b.txt": fooLines("y")})
	collect := func(first bool) (lines []string, spans int) {
		o := DefaultOptions("foo", dir)
		if _, err := StreamTo(context.Background(), o, needing(Needs{FirstMatchOnly: first}, func(fr *FileResult) error {
			for _, m := range fr.Matches {
				lines = append(lines, fmt.Sprintf("%s:%d:%s:%v", fr.Path, m.Line, m.Text, m.Spans[0]))
				spans += len(m.Spans)
			}
			return nil
		})); err != nil {
			t.Fatal(err)
		}
		return lines, spans
	}
	all, allSpans := collect(false)
	first, firstSpans := collect(true)
	if strings.Join(all, "\n") != strings.Join(first, "\n") || len(first) == 0 {
		t.Fatalf("lines differ:\n%v\n%v", all, first)
	}
	// A hint: the Go fallback (no cgo) keeps every span.
	if rure.Available && (firstSpans != len(first) || allSpans <= firstSpans) {
		t.Errorf("%d spans for %d lines (all spans: %d)", firstSpans, len(first), allSpans)
	}
}

// needingSink is the Sink needing(n, fn) returns.
type needingSink struct {
	n  Needs
	fn func(*FileResult) error
}

func (s needingSink) Needs() Needs              { return s.n }
func (s needingSink) File(fr *FileResult) error { return s.fn(fr) }

// needing returns a Sink that needs n and hands each file to fn.
func needing(n Needs, fn func(*FileResult) error) Sink { return needingSink{n, fn} }
