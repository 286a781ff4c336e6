package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/perf"
)

// runBenchCLI runs `gopi bench ARGS` in process.
func runBenchCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}
	code = run(context.Background(), env, append([]string{"bench"}, args...))
	return code, out.String(), errb.String()
}

func TestBenchJSONRecords(t *testing.T) {
	code, out, errs := runBenchCLI(t, "-r", "3", "-w", "0", "-n", "one", "-n", "two", "--case", "c", "--json", "-", "true", "true")
	if code != exitMatch {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs, err := perf.ReadRecords(strings.NewReader(out))
	if err != nil {
		t.Fatalf("--json - is not records: %v\n%s", err, out)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want wall and cpu of two commands", len(recs))
	}
	for _, r := range recs {
		if r.Area != "user" || r.Case != "c" || len(r.Samples) != 3 || r.Unit != "ms" || r.Source != "alternated" || r.Machine == "" || r.Date == "" {
			t.Errorf("record %+v", r)
		}
	}
	if recs[0].Tool != "one" || recs[0].Pair != "two" || recs[2].Tool != "two" || recs[2].Pair != "one" {
		t.Errorf("tools and pairs: %+v", recs)
	}
}

func TestBenchTableSaysVerdict(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.jsonl")
	code, out, errs := runBenchCLI(t, "-r", "4", "-w", "0", "--json", file, "true", "sleep 0.05")
	if code != exitMatch {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"#1 true", "#2 sleep 0.05", "median, 95% CI", "n=4", "true vs sleep 0.05:", "paired runs): faster", "alternated; load"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil || strings.Count(string(b), "\n") != 4 {
		t.Fatalf("--json FILE: %v %q", err, b)
	}
	// --fail-slower: the slow command first loses.
	if code, out, _ := runBenchCLI(t, "-r", "4", "-w", "0", "--fail-slower", "sleep 0.05", "true"); code != exitNoMatch {
		t.Fatalf("--fail-slower with a slower first command: exit %d\n%s", code, out)
	}
}

func TestBenchUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "give at least one command to time"},
		{[]string{"-n", "a", "-n", "b", "true"}, "2 --name labels for 1 commands"},
		{[]string{"-r", "0", "true"}, "--runs must be at least 1"},
		{[]string{"-r", "1", "-w", "0", "exit 4"}, "exited with status 4 (pass --ignore-failure"},
	} {
		code, _, errs := runBenchCLI(t, tc.args...)
		if code != exitError || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	code, out, _ := runBenchCLI(t, "--help")
	if code != exitMatch || !strings.Contains(out, "alternated rounds") || !strings.Contains(out, "--fail-slower") {
		t.Fatalf("--help: %d\n%s", code, out)
	}
}
