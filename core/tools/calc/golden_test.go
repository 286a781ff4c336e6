package calc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/native/libm"
)

var update = flag.Bool("update", false, "rewrite the golden files from this implementation")

// goldenFiles hold expressions and their results, one a line: cases.txt
// every documented output and error text, random.txt random expressions
// (numbers of every form, all operators, nesting) whose results omp gave.
var goldenFiles = []string{"cases.txt", "random.txt"}

// goldenLine evaluates one expression and formats it as a line of
// testdata/cases.txt: the expression as a JSON string, a tab, and the
// result text or "ERROR: " and the error text.
func goldenLine(expr string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep < > & readable, as JSON.stringify does
	_ = enc.Encode(expr)
	q := strings.TrimSuffix(b.String(), "\n")
	out := ""
	d, err := Run(context.Background(), []Calculation{{Expression: expr}})
	if err != nil {
		out = "ERROR: " + err.Error()
	} else {
		out = d.Results[0].Output
	}
	return q + "\t" + out
}

// readCases returns the lines of a golden file and the expressions of
// their first column.
func readCases(t *testing.T, name string) (lines, exprs []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		q, _, _ := strings.Cut(line, "\t")
		var expr string
		if err := json.Unmarshal([]byte(q), &expr); err != nil {
			t.Fatalf("%s: %q: %v", name, line, err)
		}
		lines, exprs = append(lines, line), append(exprs, expr)
	}
	return lines, exprs
}

// Every golden line comes out the same; the same files are checked
// against omp itself by TestAgainstOmp.
func TestGolden(t *testing.T) {
	if !libm.Native && !*update {
		t.Skip("built without cgo: powers come from math.Pow, not the C library's pow omp's engine uses, and may differ in the last digit")
	}
	for _, name := range goldenFiles {
		lines, exprs := readCases(t, name)
		var got []string
		for i, expr := range exprs {
			g := goldenLine(expr)
			got = append(got, g)
			if !*update && g != lines[i] {
				t.Errorf("%s:\ngot  %s\nwant %s", name, g, lines[i])
			}
		}
		if *update {
			if err := os.WriteFile(filepath.Join("testdata", name), []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The golden cases give the same text under omp 14.9.9's own calculator,
// run with bun from the omp-reference install (skipped without it).
func TestAgainstOmp(t *testing.T) {
	home, _ := os.UserHomeDir()
	ref := filepath.Join(home, ".cache", "omp-reference")
	bun := filepath.Join(ref, "node_modules", ".bin", "bun")
	src := filepath.Join(ref, "node_modules", "@oh-my-pi", "pi-coding-agent", "src", "tools", "calculator.ts")
	for _, p := range []string{bun, src} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("omp 14.9.9 is not installed at %s (the shared omp-reference.sh installs it): not compared", ref)
		}
	}
	var lines, exprs []string
	for _, name := range goldenFiles {
		l, e := readCases(t, name)
		lines, exprs = append(lines, l...), append(exprs, e...)
	}
	var in bytes.Buffer
	for _, e := range exprs {
		q, _ := json.Marshal(e)
		in.Write(append(q, '\n'))
	}
	cmd := exec.CommandContext(t.Context(), bun, "compare-omp-calc.ts")
	cmd.Dir = "testdata"
	cmd.Stdin = &in
	cmd.Env = append(os.Environ(), "OMP_REFERENCE_DIR="+ref)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("bun compare-omp-calc.ts: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	omp := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(omp) != len(lines) {
		t.Fatalf("omp answered %d lines for %d cases", len(omp), len(lines))
	}
	for i := range omp {
		// omp's JSON quoting of the expression is JSON.stringify's; compare the results.
		_, want, _ := strings.Cut(omp[i], "\t")
		_, got, _ := strings.Cut(lines[i], "\t")
		if got != want {
			t.Errorf("%s: gopi %q, omp %q", exprs[i], got, want)
		}
	}
}
