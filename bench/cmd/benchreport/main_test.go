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
