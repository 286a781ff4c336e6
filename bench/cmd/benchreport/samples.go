package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/perf"
)

// runSamples records one series from values an area script measured
// itself (a timing loop of its own, a peer's runtime printing every run):
// the values come as arguments, or on standard input separated by white
// space when there are none.
func runSamples(args []string) error {
	fs := flag.NewFlagSet("samples", flag.ContinueOnError)
	var rf resultsFlags
	rf.declare(fs)
	cas := fs.String("case", "", "the case measured (required)")
	tool := fs.String("tool", "gopi", "who was measured")
	metric := fs.String("metric", "wall", "metric name")
	unit := fs.String("unit", "ms", "unit of the values")
	source := fs.String("source", "script", "how the values were taken (see bench/README.md)")
	pair := fs.String("pair", "", "a tool whose samples of this case alternated with these, index by index")
	higher := fs.Bool("higher", false, "a higher value is better (default: lower is better, except for units per second)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cas == "" {
		return fmt.Errorf("usage: benchreport samples -area A -case C [-tool T -metric M -unit U] [VALUE…] (values on stdin when none are given)")
	}
	var fields []string
	if fs.NArg() > 0 {
		fields = fs.Args()
	} else {
		data, err := io.ReadAll(io.LimitReader(os.Stdin, 16<<20))
		if err != nil {
			return fmt.Errorf("reading the samples from stdin: %w", err)
		}
		fields = strings.Fields(string(data))
	}
	samples, err := parseSamples(fields)
	if err != nil {
		return fmt.Errorf("%s/%s/%s: %w", *cas, *tool, *metric, err)
	}
	r := newStamp().rec(rf.area, *cas, *tool, *metric, *unit, *source, samples)
	r.Pair = *pair
	if *higher {
		r.Lower = false
	}
	return rf.write([]perf.Record{r})
}

// parseSamples reads numbers; anything else (a "-" for a run that did not
// happen, a unit glued on) is an error naming it, so a script that lost
// its measurements fails loudly instead of recording nothing.
func parseSamples(fields []string) ([]float64, error) {
	if len(fields) == 0 {
		return nil, fmt.Errorf("no samples (the measurement printed nothing)")
	}
	out := make([]float64, 0, len(fields))
	for _, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("sample %q is not a finite number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// runCheck is record.sh's validator: every line of the files must be a
// complete record (area, case, tool, metric, unit, finite samples, source,
// machine, load, commit, date). With -raw, records read back from Markdown
// tables (source "table") are refused too: a converted area records what
// it measured.
func runCheck(args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	raw := fs.Bool("raw", false, "refuse records recovered from Markdown tables")
	area := fs.String("area", "", "every record must belong to this area")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("usage: benchreport check [-raw] [-area A] FILE.jsonl…")
	}
	bad := 0
	for _, path := range fs.Args() {
		n, problems, err := checkFile(path, *area, *raw)
		if err != nil {
			return err
		}
		for _, p := range problems {
			fmt.Fprintf(os.Stderr, "%s: %s\n", path, p)
		}
		bad += len(problems)
		if len(problems) == 0 {
			fmt.Printf("%s: %d records, well formed\n", path, n)
		}
	}
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "benchreport check: %d problem(s); fix the area script that wrote them\n", bad)
		return exitError(1)
	}
	return nil
}

// checkFile validates one JSON-lines file; problems name their line.
func checkFile(path, area string, raw bool) (int, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, fmt.Errorf("opening the records: %w", err)
	}
	defer f.Close()
	var problems []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	n := 0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		recs, err := perf.ReadRecords(strings.NewReader(text))
		if err != nil {
			problems = append(problems, fmt.Sprintf("line %d: %v", line, err))
			continue
		}
		n++
		for _, p := range recordProblems(recs[0], area, raw) {
			problems = append(problems, fmt.Sprintf("line %d (%s / %s / %s): %s", line, recs[0].Case, recs[0].Tool, recs[0].Metric, p))
		}
	}
	if err := sc.Err(); err != nil {
		return n, problems, fmt.Errorf("reading %s: %w", path, err)
	}
	if n == 0 {
		problems = append(problems, "no records")
	}
	return n, problems, nil
}

// recordProblems lists what a parsed record lacks beyond perf's Validate.
func recordProblems(r perf.Record, area string, raw bool) []string {
	var out []string
	if area != "" && r.Area != area {
		out = append(out, fmt.Sprintf("area %q, want %q", r.Area, area))
	}
	for i, v := range r.Samples {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			out = append(out, fmt.Sprintf("sample %d is not finite", i))
			break
		}
	}
	if r.Source == "" {
		out = append(out, "no source")
	}
	if raw && r.Source == "table" {
		out = append(out, "read back from a Markdown table, not measured samples")
	}
	if r.Machine == "" {
		out = append(out, "no machine")
	}
	if r.Date == "" {
		out = append(out, "no date")
	} else if _, err := time.Parse(time.RFC3339, r.Date); err != nil {
		out = append(out, fmt.Sprintf("date %q is not RFC 3339", r.Date))
	}
	if r.Load < 0 && r.Source != "table" {
		out = append(out, "no load")
	}
	return out
}
