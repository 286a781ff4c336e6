package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/perf"
)

const tableDoc = `# Area

## Results

| corpus | pattern | gopi wall s | ast-grep wall s | wall ratio |
| --- | --- | ---: | ---: | ---: |
| goroot | ` + "`\\$A.Lock()`" + ` | 0.34 | 6.76 | 19.8× |
| | other | 0.39 | 6.85 | 17.4× |

## Peers

| implementation | best of 10 | median | vs gopi (best) |
| --- | ---: | ---: | ---: |
| gopi parser (Go) | 17.5 ms | 24.5 ms | 1.0× |
| reference in Bun 1.4.5 | 51.6 ms | 86.9 ms | 2.9× slower |

| target | case | best | median | target |
| --- | --- | ---: | ---: | --- |
| summary ≤ 20 ms | cold | 14.74 ms | 15.08 ms (cached) | met |
`

func TestTableRecords(t *testing.T) {
	recs := tableRecords(stamp{machine: "m"}, "ast", tableDoc)
	got := map[string]float64{}
	for _, r := range recs {
		got[r.Case+"|"+r.Tool+"|"+r.Metric+"|"+r.Unit] = r.Samples[0]
	}
	want := map[string]float64{
		"goroot · $A.Lock()|gopi|wall s|s":      0.34,
		"goroot · $A.Lock()|ast-grep|wall s|s":  6.76,
		"goroot · other|gopi|wall s|s":          0.39,
		"goroot · other|ast-grep|wall s|s":      6.85,
		"Peers|gopi|best of 10|ms":              17.5,
		"Peers|gopi|median|ms":                  24.5,
		"Peers|bun|best of 10|ms":               51.6,
		"Peers|bun|median|ms":                   86.9,
		"summary ≤ 20 ms · cold|gopi|best|ms":   14.74,
		"summary ≤ 20 ms · cold|gopi|median|ms": 15.08,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("extra records: %v", got)
	}
}

// TestAssembleWritesEverything: from JSON lines and Markdown, assemble
// writes RESULTS.md with the headline and per-area summaries, an SVG per
// area, the headline and trend SVGs and a history file.
func TestAssembleWritesEverything(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results")
	hist := filepath.Join(dir, "history")
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	st := stamp{machine: "2 CPUs", commit: "abc", date: "2026-11-30T05:00:00Z", load: 2}
	mk := func(cas, tool string, base float64) perf.Record {
		var s []float64
		for i := 0; i < 8; i++ {
			s = append(s, base*(1+0.01*float64(i%3)))
		}
		return st.rec("search", cas, tool, "wall", "ms", "hyperfine", s)
	}
	recs := []perf.Record{mk("grep -c goroot/literal", "gopi", 50), mk("grep -c goroot/literal", "rg", 100), mk("grep goroot/x", "gopi", 80), mk("grep goroot/x", "rg", 80)}
	if err := writeRecordsFile(filepath.Join(res, "search.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(res, "search.md"), []byte("# Search\n\nmethod text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(res, "search.benchstat.txt"), []byte("GrepWarm/goroot/literal-2   12.5m ± 3%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "RESULTS.md")
	if err := runAssemble([]string{"-results", res, "-history", hist, "-out", out}); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"![headline figures](results/headline.svg)", "| grep vs ripgrep |", "## Area: search", "![search](results/search.svg)",
		"rg 101 ms", "0.50× (", "), faster", "within noise", "### Search", "method text",
		"summarised by benchstat (bench/results/search.benchstat.txt):\n\n```\nGrepWarm/goroot/literal-2   12.5m ± 3%\n```"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, doc)
		}
	}
	for _, f := range []string{"results/search.svg", "results/headline.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: %v", f, err)
		}
	}
	// The entry of the commit that measured the records (runAssemble
	// stamps the real tree, which measured none of them).
	areas := []areaResult{{name: "search", recs: recs}}
	if err := writeHistory(hist, st, computeHeadlines(areas), areas); err != nil {
		t.Fatal(err)
	}
	if hs, err := readHistory(hist); err != nil || len(hs) != 1 || len(hs[0].Headlines) != 1 || len(hs[0].Series) != 4 {
		t.Errorf("history: %v %+v", err, hs)
	}
	// An assembly at a later commit that measured nothing, or on a tree
	// with uncommitted changes, adds no history entry.
	for _, commit := range []string{"def", "abc+dirty"} {
		later := st
		later.commit = commit
		if err := writeHistory(hist, later, nil, areas); err != nil {
			t.Fatal(err)
		}
	}
	if hs, err := readHistory(hist); err != nil || len(hs) != 1 {
		t.Errorf("history after assemblies that measured nothing: %v, %d entries", err, len(hs))
	}
}

// FuzzTableRecords: any Markdown gives records that validate, each with
// exactly one sample, and never a panic.
func FuzzTableRecords(f *testing.F) {
	f.Add(tableDoc)
	f.Add("| a | gopi ms |\n| --- | --- |\n| x | 1,234.5 (best) |\n|  | -3 s |\n")
	f.Add("| \\| | omp |\n|---|\n| ` | 1e5 |")
	f.Fuzz(func(t *testing.T, doc string) {
		for _, r := range tableRecords(stamp{machine: "m"}, "a", doc) {
			if err := r.Validate(); err != nil || len(r.Samples) != 1 {
				t.Fatalf("record %+v: %v", r, err)
			}
		}
	})
}
