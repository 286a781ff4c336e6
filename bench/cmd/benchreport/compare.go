package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/perf"
)

// compareCase is one line of bench/compare.tsv: a command an area's
// regression check times with both builds; "$GOPI" in it names the build.
type compareCase struct {
	area, name, command string
}

// readCompareCases reads area<TAB>case<TAB>command lines ('#' comments).
func readCompareCases(r io.Reader) ([]compareCase, error) {
	var out []compareCase
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 || f[0] == "" || f[1] == "" || !strings.Contains(f[2], "$GOPI") {
			return nil, fmt.Errorf("line %d: want area<TAB>case<TAB>command using $GOPI", n)
		}
		out = append(out, compareCase{f[0], f[1], f[2]})
	}
	return out, sc.Err()
}

// compareOutcome is one case's verdict.
type compareOutcome struct {
	c          compareCase
	base, head perf.Summary
	cmp        perf.Comparison // head ÷ base, wall time
	cpu        perf.Comparison // head ÷ base, CPU time
	verdict    perf.Verdict    // Slower when either is
}

// runCompare times each selected case with the base build and the head
// build in alternated rounds and reports head ÷ base per case, in wall
// time and in CPU time (user + system: far less sensitive to other work
// on the machine than wall time, which a busy machine stretches by tens of
// percent). Exit status 1 when either is slower beyond the noise and
// beyond -min-effect.
func runCompare(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	base := fs.String("base", "", "the base build of gopi (required)")
	head := fs.String("head", "", "the build under test (required)")
	areas := fs.String("areas", "", "space-separated areas to check (default: every area in the cases file)")
	casesFile := fs.String("cases", "bench/compare.tsv", "the cases file")
	runs := fs.Int("runs", 15, "alternated rounds per case")
	warmup := fs.Int("warmup", 2, "warm-up runs of each build per case")
	minEffect := fs.Float64("min-effect", 0.05, "smallest slowdown reported as a regression (fraction)")
	timeout := fs.Duration("timeout", 2*time.Minute, "bound on one run")
	out := fs.String("o", "", "also write the samples as JSON lines to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *head == "" {
		return fmt.Errorf("give -base and -head (two gopi binaries)")
	}
	f, err := os.Open(*casesFile)
	if err != nil {
		return err
	}
	cases, err := readCompareCases(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *casesFile, err)
	}
	want := map[string]bool{}
	for _, a := range strings.Fields(*areas) {
		want[a] = true
	}
	var selected []compareCase
	for _, c := range cases {
		if len(want) == 0 || want[c.area] {
			selected = append(selected, c)
		}
	}
	if len(selected) == 0 {
		fmt.Printf("bench-compare: no cases for areas %q in %s: nothing to compare\n", *areas, *casesFile)
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	st := newStamp()
	fmt.Printf("bench-compare: %d cases, %d alternated rounds each, regression = head slower than base (wall or CPU time) beyond the 95%% interval and by more than %.0f%%; load %.1f\n",
		len(selected), *runs, *minEffect*100, st.load)
	var outcomes []compareOutcome
	var recs []perf.Record
	for _, c := range selected {
		cmds := []perf.Command{
			{Name: "base", Argv: []string{"sh", "-c", "GOPI=" + shellQuote(*base) + "; " + c.command}},
			{Name: "head", Argv: []string{"sh", "-c", "GOPI=" + shellQuote(*head) + "; " + c.command}},
		}
		res, err := perf.Run(ctx, cmds, perf.Options{Runs: *runs, Warmup: *warmup, Timeout: *timeout})
		if err != nil {
			return fmt.Errorf("%s/%s: %w", c.area, c.name, err)
		}
		o := compareOutcome{c: c, base: perf.Summarize(res[0].Wall), head: perf.Summarize(res[1].Wall),
			cmp: perf.ComparePaired(res[1].Wall, res[0].Wall), cpu: perf.ComparePaired(res[1].CPU, res[0].CPU)}
		o.verdict = o.cmp.Verdict(*minEffect)
		if v := o.cpu.Verdict(*minEffect); v == perf.Slower || (v == perf.Faster && o.verdict != perf.Slower) {
			o.verdict = v
		}
		outcomes = append(outcomes, o)
		fmt.Printf("  %-8s %-30s base %7s ms  head %7s ms  head÷base wall %.3f (%.3f–%.3f) cpu %.3f (%.3f–%.3f)  %s\n", c.area, c.name,
			perf.FormatValue(o.base.Median), perf.FormatValue(o.head.Median), o.cmp.Ratio, o.cmp.Lo, o.cmp.Hi, o.cpu.Ratio, o.cpu.Lo, o.cpu.Hi, o.verdict)
		for i, tool := range []string{"base", "head"} {
			for _, m := range []struct {
				name    string
				samples []float64
			}{{"wall", res[i].Wall}, {"cpu", res[i].CPU}} {
				r := st.rec(c.area, c.name, tool, m.name, "ms", "alternated", m.samples)
				r.Pair = []string{"head", "base"}[i]
				recs = append(recs, r)
			}
		}
	}
	if *out != "" {
		if err := writeRecordsFile(*out, recs); err != nil {
			return err
		}
	}
	regressions := 0
	for _, o := range outcomes {
		if o.verdict == perf.Slower {
			regressions++
			fmt.Printf("REGRESSION %s/%s: head takes %.0f%% more wall time (95%% interval %.0f%%–%.0f%%) and %.0f%% more CPU time (%.0f%%–%.0f%%)\n", o.c.area, o.c.name,
				(o.cmp.Ratio-1)*100, (o.cmp.Lo-1)*100, (o.cmp.Hi-1)*100, (o.cpu.Ratio-1)*100, (o.cpu.Lo-1)*100, (o.cpu.Hi-1)*100)
		}
	}
	if regressions > 0 {
		fmt.Printf("bench-compare: %d of %d cases regressed (load %.1f at the end)\n", regressions, len(outcomes), perf.Load())
		return exitError(1)
	}
	fmt.Printf("bench-compare: no regression beyond the noise in %d cases (load %.1f at the end)\n", len(outcomes), perf.Load())
	return nil
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
