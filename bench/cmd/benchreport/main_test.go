package main

import (
	"strings"
	"testing"
)

func TestExtractNotesKeepsText(t *testing.T) {
	doc := "# x\n\n## Why\n\n" + notesBegin + "\nGopi is slower here because…\n" + notesEnd + "\n"
	got, ok := extractNotes(doc)
	if !ok || got != "Gopi is slower here because…" {
		t.Fatalf("extractNotes = %q, %v", got, ok)
	}
	if _, ok := extractNotes("no markers"); ok {
		t.Fatal("found notes in a document without markers")
	}
	r := &report{}
	if out := r.markdown(got); !strings.Contains(out, notesBegin+"\n"+got+"\n"+notesEnd) {
		t.Fatalf("markdown does not carry the notes over:\n%s", out)
	}
}

func TestGrepItemEqualAndDiffs(t *testing.T) {
	g := grepItem{
		gopi: counts{ok: true, files: map[string]int{"a.go": 2, "b.go": 1}, total: 3},
		rg:   counts{ok: true, files: map[string]int{"a.go": 2, "c.go": 4}, total: 6},
	}
	if g.equal() {
		t.Fatal("different per-file counts reported equal")
	}
	lines, total := g.diffs(10)
	if total != 2 || len(lines) != 2 || lines[0] != "b.go: gopi 1, rg 0" || lines[1] != "c.go: gopi 0, rg 4" {
		t.Fatalf("diffs = %q, %d", lines, total)
	}
	g.rg = g.gopi
	if !g.equal() {
		t.Fatal("identical counts reported different")
	}
}

func TestMedianRunsPerBenchmark(t *testing.T) {
	runs := []goBench{{name: "BenchmarkA", nsPerOp: 30}, {name: "BenchmarkB", nsPerOp: 5}, {name: "BenchmarkA", nsPerOp: 10},
		{name: "BenchmarkA", nsPerOp: 20}, {name: "BenchmarkA", nsPerOp: 40}}
	got := medianRuns(runs)
	if len(got) != 2 || got[0].name != "BenchmarkA" || got[0].nsPerOp != 20 || got[1].name != "BenchmarkB" || got[1].nsPerOp != 5 {
		t.Fatalf("medianRuns = %+v, want A's lower-middle run (20) then B's only run", got)
	}
}
