package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/perf"
)

// The tests of this file hold the area scripts of bench/ to what
// bench/README.md promises: they parse, they record raw samples through
// bench/lib/record.sh whose lines the validator accepts, and the
// path-to-area map of bench-compare names real paths and real areas.

// TestMain lets the test binary stand in for the benchreport command, so
// record.sh can be driven without building it: with BENCHREPORT_AS_MAIN
// set, the binary is benchreport.
func TestMain(m *testing.M) {
	if os.Getenv("BENCHREPORT_AS_MAIN") == "1" {
		os.Args = append([]string{"benchreport"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// repoRoot is the repository's root, three levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "bench", "run.sh")); err != nil {
		t.Fatalf("no bench/run.sh above the test: %v", err)
	}
	return root
}

// areaScripts lists the areas bench/run.sh runs by default, the way its
// known_areas does: every bench/*.sh but run, compare and the opt-in
// beforeafter.
func areaScripts(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("bash", "-c", `eval "$(sed -n '/^known_areas()/,/^}/p;/^OPT_IN=/p' bench/run.sh)" && known_areas`)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("known_areas from bench/run.sh: %v\n%s", err, out)
	}
	areas := strings.Fields(string(out))
	if len(areas) < 20 {
		t.Fatalf("known_areas lists only %d areas: %q", len(areas), areas)
	}
	return areas
}

func TestBenchScriptsParse(t *testing.T) {
	root := repoRoot(t)
	var scripts []string
	for _, pat := range []string{"bench/*.sh", "bench/*.bash", "bench/lib/*.sh"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		scripts = append(scripts, m...)
	}
	if len(scripts) < 25 {
		t.Fatalf("found only %d bench scripts", len(scripts))
	}
	for _, s := range scripts {
		if out, err := exec.Command("bash", "-n", s).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", s, err, out)
		}
	}
}

// recordCall finds the record.sh helpers that write measured samples.
var recordCall = regexp.MustCompile(`(?m)^[^#\n]*\bbench_(record_(hyperfine|gobench|samples)|gobench)\b`)

// TestAreaScriptsRecordSamples: every area sources record.sh, starts its
// records afresh, records measured samples (not only tables for
// benchreport to read back) and checks them before it ends.
func TestAreaScriptsRecordSamples(t *testing.T) {
	root := repoRoot(t)
	for _, area := range areaScripts(t, root) {
		if area == "search" {
			continue // benchreport's search report writes search.jsonl itself (records.go)
		}
		data, err := os.ReadFile(filepath.Join(root, "bench", area+".sh"))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, want := range []string{". bench/lib/record.sh", "bench_records_reset " + area, "bench_records_check " + area} {
			if !strings.Contains(text, want) {
				t.Errorf("bench/%s.sh: no %q", area, want)
			}
		}
		if !recordCall.MatchString(text) {
			t.Errorf("bench/%s.sh records no samples (bench_record_hyperfine, _gobench, _samples or bench_gobench)", area)
		}
	}
}

// TestRecordHelpersWriteValidLines drives record.sh's helpers with a
// hyperfine export, go test -bench output and a script's own values, and
// runs its validator on what they wrote; a broken line must be refused.
func TestRecordHelpersWriteValidLines(t *testing.T) {
	root := repoRoot(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "repo")
	for _, d := range []string{"bench/lib", "bench/results"} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := os.ReadFile(filepath.Join(root, "bench", "lib", "record.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "bench", "lib", "record.sh"), lib, 0o644); err != nil {
		t.Fatal(err)
	}
	export := `{"results":[{"command":"gopi","mean":0.012,"stddev":0.001,"median":0.012,"user":0.01,"system":0.001,"times":[0.011,0.012,0.013]},
{"command":"omp","mean":0.5,"stddev":0.01,"median":0.5,"user":0.4,"system":0.05,"times":[0.49,0.5,0.52]}]}`
	gobench := "goos: linux\npkg: example\nBenchmarkCount/o200k-2 \t 3\t 40000000 ns/op\t 250.0 MB/s\t 260.5 cpu-MB/s\n" +
		"BenchmarkCount/o200k-2 \t 3\t 41000000 ns/op\t 245.0 MB/s\t 255.0 cpu-MB/s\nPASS\n"
	for name, body := range map[string]string{"export.json": export, "bench.txt": gobench} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := `set -euo pipefail
. bench/lib/record.sh
bench_records_reset demo
bench_record_hyperfine demo "start-up" export.json
bench_record_gobench demo bench.txt
BENCH_COMMAND_CASES=1 bench_record_hyperfine demo "variants" export.json
printf 'BenchmarkReferenceCount/o200k-2 1 90000000 ns/op\n' | BENCH_TOOL=tiktoken-go BENCH_TRIM=Reference bench_record_gobench demo -
bench_record_samples demo "peer loop" bun wall ms 1.5 1.25 1.75
printf '9\n8 7\n' | BENCH_HIGHER=1 bench_record_samples demo "throughput" gopi rate tokens/s
bench_record_samples demo "difference" gopi "ms beyond python" ms -12.5 3 -0.5
bench_records_check demo
`
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "BENCHREPORT="+self, "BENCHREPORT_AS_MAIN=1", "BENCH_BENCHSTAT=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("record.sh helpers: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "well formed") {
		t.Errorf("the validator said nothing about the records:\n%s", out)
	}
	jsonl := filepath.Join(work, "bench", "results", "demo.jsonl")
	f, err := os.Open(jsonl)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := perf.ReadRecords(bufio.NewReader(f))
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]float64{}
	var keys []string
	for _, r := range recs {
		k := r.Case + "/" + r.Tool + "/" + r.Metric + "/" + r.Unit + "/" + r.Source
		if r.Lower {
			k += "/lower"
		}
		got[k] = r.Samples
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := map[string]int{
		"start-up/gopi/wall/ms/hyperfine/lower":            3,
		"start-up/omp/wall/ms/hyperfine/lower":             3,
		"Count/o200k/gopi/time/op/ms/gobench/lower":        2,
		"Count/o200k/gopi/MB/s/MB/s/gobench":               2,
		"Count/o200k/gopi/cpu-MB/s/cpu-MB/s/gobench":       2,
		"variants: gopi/gopi/wall/ms/hyperfine/lower":      3,
		"variants: omp/gopi/wall/ms/hyperfine/lower":       3,
		"Count/o200k/tiktoken-go/time/op/ms/gobench/lower": 1,
		"difference/gopi/ms beyond python/ms/script/lower": 3,
		"peer loop/bun/wall/ms/script/lower":               3,
		"throughput/gopi/rate/tokens/s/script":             3,
	}
	for k, n := range want {
		if len(got[k]) != n {
			t.Errorf("series %s: %d samples, want %d (have %q)", k, len(got[k]), n, keys)
		}
	}
	if s := got["start-up/omp/wall/ms/hyperfine/lower"]; len(s) == 3 && s[2] != 520 {
		t.Errorf("hyperfine samples not in run order or not in ms: %v", s)
	}

	// The validator refuses what an unconverted or broken script leaves.
	bad := []string{
		`{"area":"demo","case":"c","tool":"gopi","metric":"wall","unit":"ms","samples":[],"lower":true,"source":"script","machine":"m","load":1,"commit":"x","date":"2026-11-30T08:00:00Z"}`,
		`{"area":"demo","case":"c","tool":"gopi","metric":"wall","unit":"ms","samples":[1],"lower":true,"source":"table","machine":"m","load":1,"commit":"x","date":"2026-11-30T08:00:00Z"}`,
		`{"area":"demo","case":"c","tool":"gopi","metric":"wall","unit":"ms","samples":[1],"lower":true,"source":"script","machine":"","load":1,"commit":"x","date":"yesterday"}`,
		`{"area":"other","case":"c","tool":"gopi","metric":"wall","unit":"ms","samples":[1],"lower":true,"source":"script","machine":"m","load":1,"commit":"x","date":"2026-11-30T08:00:00Z"}`,
		`{"area":"demo","case":"c","tool":"gopi","metric":"wall","unit":"ms","samples":[1],"extra":1}`,
	}
	for i, line := range bad {
		if err := os.WriteFile(jsonl, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "-c", ". bench/lib/record.sh && bench_records_check demo")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "BENCHREPORT="+self, "BENCHREPORT_AS_MAIN=1")
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Errorf("bad line %d accepted:\n%s\n%s", i, line, out)
		}
	}
}

// TestAreasMap holds bench/areas.tsv (bench-compare's path → area map) to
// the tree: every prefix names something that exists, every area has a
// script, and typical changes map to the areas they can slow down.
func TestAreasMap(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "bench", "areas.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, a := range areaScripts(t, root) {
		known[a] = true
	}
	rows := 0
	for n, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 2 || f[0] == "" || strings.TrimSpace(f[1]) == "" {
			t.Errorf("areas.tsv line %d: want prefix<TAB>areas, got %q", n+1, line)
			continue
		}
		rows++
		// A prefix is a directory (ending in /), a file, or the start of
		// file names in a directory (cmd/gopi/grep matches grep.go, grep_test.go).
		matches, _ := filepath.Glob(filepath.Join(root, f[0]) + "*")
		if len(matches) == 0 {
			t.Errorf("areas.tsv line %d: nothing in the tree starts with %q", n+1, f[0])
		}
		for _, a := range strings.Fields(f[1]) {
			if !known[a] {
				t.Errorf("areas.tsv line %d: area %q has no bench/%s.sh", n+1, a, a)
			}
		}
	}
	if rows < 10 {
		t.Fatalf("areas.tsv has only %d rows", rows)
	}
	cases, err := os.ReadFile(filepath.Join(root, "bench", "compare.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(cases), "\n") {
		if f := strings.Split(line, "\t"); len(f) == 3 && !strings.HasPrefix(line, "#") && !known[f[0]] {
			t.Errorf("compare.tsv case %q: area %q has no script", f[1], f[0])
		}
	}

	for _, c := range []struct{ paths, want string }{
		{"search/grep/grep.go", "search"},
		{"cmd/gopi/grep.go", "search"},
		{"fscache/cache.go", "ast search"},
		{"native/src/ast/split.rs", "ast search"},
		{"core/tools/astgrep/tool.go", "ast"},
		{"tokens/count.go", "tokens"},
		{"core/tools/read/read.go", "read"},
		{"core/agent/loop.go", "agent"},
		{"go.mod", "agent ast read search tokens"},
		{"cmd/gopi/main.go\ntokens/count.go", "agent ast read search tokens"},
		{"README.md", ""},
		{"docs/tools.md\ncore/modes/tui/frame.go", ""},
		{"searcher/x.go", ""}, // a prefix is a path prefix, not a word
	} {
		cmd := exec.Command("bash", "-c", ". bench/lib/areas.sh && bench_areas_of bench/areas.tsv")
		cmd.Dir = root
		cmd.Stdin = strings.NewReader(c.paths + "\n")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bench_areas_of: %v\n%s", err, out)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("changed %q → areas %q, want %q", c.paths, got, c.want)
		}
	}
}
