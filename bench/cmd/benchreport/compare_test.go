package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/perf"
)

// fakeGopi writes a stand-in for a gopi build whose grep takes ms
// milliseconds (a sleep: its duration does not depend on the machine's
// load the way CPU work does, so the test is about the statistics).
func fakeGopi(t *testing.T, dir, name string, ms int) string {
	t.Helper()
	path := filepath.Join(dir, name)
	script := fmt.Sprintf("#!/bin/sh\n[ \"$1\" = grep ] || exit 3\nsleep %.3f\n", float64(ms)/1000)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompareDetectsTwentyPercentSlowdown is bench-compare's promise: a
// grep made 20 % slower is a regression (exit status 1), an unchanged
// one is not (exit status 0).
func TestCompareDetectsTwentyPercentSlowdown(t *testing.T) {
	if testing.Short() {
		t.Skip("times processes for about 25 seconds")
	}
	dir := t.TempDir()
	cases := filepath.Join(dir, "cases.tsv")
	if err := os.WriteFile(cases, []byte("# test\nsearch\tgrep literal\t\"$GOPI\" grep x\nast\tnot selected\t\"$GOPI\" ast\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// 300 ms against 360 ms: long enough that the start-up jitter of a
	// loaded machine (tens of ms at a load of 25) stays well below 20 %.
	base := fakeGopi(t, dir, "base", 300)
	same := fakeGopi(t, dir, "same", 300)
	slow := fakeGopi(t, dir, "slow", 360)
	out := filepath.Join(dir, "out.jsonl")
	args := func(head string) []string {
		return []string{"-base", base, "-head", head, "-areas", "search", "-cases", cases, "-runs", "16", "-warmup", "1", "-o", out}
	}
	err := runCompare(args(slow))
	var ex exitError
	if !errors.As(err, &ex) || ex != 1 {
		t.Fatalf("a 20%% slower grep: %v, want exit status 1", err)
	}
	if err := runCompare(args(same)); err != nil {
		t.Fatalf("an unchanged grep: %v, want no regression", err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := perf.ReadRecords(f)
	if err != nil || len(recs) != 4 || recs[0].Tool != "base" || recs[1].Metric != "cpu" || recs[2].Pair != "base" || len(recs[2].Samples) != 16 {
		t.Fatalf("records of the unchanged run: %v %+v", err, recs)
	}
}

func TestReadCompareCasesRejectsBadLines(t *testing.T) {
	for _, in := range []string{"search\tx\n", "search\tx\tgopi grep x\n", "\tx\t$GOPI\n"} {
		if _, err := readCompareCases(strings.NewReader(in)); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
	f, err := os.Open(filepath.Join("..", "..", "compare.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cs, err := readCompareCases(f)
	if err != nil || len(cs) == 0 {
		t.Fatalf("bench/compare.tsv: %v (%d cases)", err, len(cs))
	}
}
