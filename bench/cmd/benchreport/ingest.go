package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/perf"
)

// exitError is a subcommand's chosen exit status (not a failure to report).
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// subcommand is one of benchreport's verbs.
type subcommand struct {
	run func(args []string) error
}

var subcommands map[string]subcommand

func init() {
	subcommands = map[string]subcommand{
		"hyperfine": {runHyperfine},
		"gobench":   {runGobench},
		"samples":   {runSamples},
		"check":     {runCheck},
		"tables":    {runTables},
		"assemble":  {runAssemble},
		"compare":   {runCompare},
	}
}

// resultsFlags are the flags the ingesting subcommands share.
type resultsFlags struct {
	area, out string
	replace   bool
}

func (f *resultsFlags) declare(fs *flag.FlagSet) {
	fs.StringVar(&f.area, "area", "", "the area the records belong to (required)")
	fs.StringVar(&f.out, "o", "", "JSON-lines file (default bench/results/AREA.jsonl)")
	fs.BoolVar(&f.replace, "replace", false, "replace the file instead of appending to it")
}

func (f *resultsFlags) write(recs []perf.Record) error {
	if f.area == "" {
		return fmt.Errorf("-area is required")
	}
	path := f.out
	if path == "" {
		path = filepath.Join("bench", "results", f.area+".jsonl")
	}
	if f.replace {
		return writeRecordsFile(path, recs)
	}
	return appendRecordsFile(path, recs)
}

// runHyperfine converts hyperfine --export-json files: one record per
// command, every run's time as a sample in ms. Tools are named by -tools
// (comma-separated, in the export's order) or by each command's first word.
func runHyperfine(args []string) error {
	fs := flag.NewFlagSet("hyperfine", flag.ContinueOnError)
	var rf resultsFlags
	rf.declare(fs)
	cas := fs.String("case", "", "the case measured (required)")
	tools := fs.String("tools", "", "tool names for the export's commands, comma-separated")
	metric := fs.String("metric", "wall", "metric name")
	perCommand := fs.Bool("command-cases", false, "every command is a case of its own (\"CASE: NAME\"), all by the first of -tools (default gopi): variants of one tool")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cas == "" || fs.NArg() == 0 {
		return fmt.Errorf("usage: benchreport hyperfine -area A -case C [-tools a,b] EXPORT.json...")
	}
	st := newStamp()
	var recs []perf.Record
	for _, file := range fs.Args() {
		t := readTiming(file)
		if len(t.names) == 0 {
			return fmt.Errorf("%s: not a hyperfine JSON export (or it has no results)", file)
		}
		names := strings.Split(*tools, ",")
		for i, name := range t.names {
			tool, c := toolName(name), *cas
			if *tools != "" && i < len(names) {
				tool = names[i]
			}
			if *perCommand {
				tool, c = names[0], *cas+": "+name
				if *tools == "" {
					tool = "gopi"
				}
			}
			samples := make([]float64, len(t.times[i]))
			for j, s := range t.times[i] {
				samples[j] = s * 1000
			}
			if len(samples) == 0 {
				samples = []float64{t.mean[i] * 1000}
			}
			recs = append(recs, st.rec(rf.area, c, tool, *metric, "ms", "hyperfine", samples))
		}
	}
	return rf.write(recs)
}

// runGobench converts go test -bench output (best run with -count N).
func runGobench(args []string) error {
	fs := flag.NewFlagSet("gobench", flag.ContinueOnError)
	var rf resultsFlags
	rf.declare(fs)
	tool := fs.String("tool", "gopi", "who the benchmarks measure (a benchmark of a peer library: its name)")
	trim := fs.String("trim", "", "a prefix to cut from the benchmark names after Benchmark (ReferenceCount → Count with -trim Reference), so a peer's case is named as gopi's")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: benchreport gobench -area A [-tool T -trim PREFIX] GO-TEST-BENCH-OUTPUT")
	}
	lines, _ := readGoBench(fs.Arg(0))
	if len(lines) == 0 {
		return fmt.Errorf("%s: no benchmark result lines", fs.Arg(0))
	}
	recs := goBenchRecords(newStamp(), rf.area, lines)
	for i := range recs {
		recs[i].Tool = *tool
		recs[i].Case = strings.TrimPrefix(recs[i].Case, *trim)
	}
	return rf.write(recs)
}

// runTables extracts records from an area's Markdown result: the fallback
// for areas whose script does not write records itself. Each table cell
// under a column naming a known tool (gopi, omp, rg, fd, ast-grep, …)
// that holds a number with a unit becomes a one-sample record: the area's
// own text states how that number was taken (usually a median), and with
// one sample no interval is claimed.
func runTables(args []string) error {
	fs := flag.NewFlagSet("tables", flag.ContinueOnError)
	var rf resultsFlags
	rf.declare(fs)
	backfill := fs.Bool("backfill", false, "the Markdown was written earlier: leave commit, date and load unknown")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: benchreport tables -area A RESULT.md")
	}
	doc, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	st := newStamp()
	if *backfill {
		st.commit, st.date, st.load = "", "", -1
	}
	recs := tableRecords(st, rf.area, string(doc))
	if len(recs) == 0 {
		// Nothing comparable: still leave a file, so the area is known
		// to have been measured.
		fmt.Fprintf(os.Stderr, "benchreport tables: %s: no tool columns with numbers\n", fs.Arg(0))
	}
	rf.replace = true
	return rf.write(recs)
}

// knownTools are the column words that name who was measured.
var knownTools = []string{"gopi", "omp", "rg", "ripgrep", "fd", "fdfind", "find", "ast-grep", "pi-natives", "natives", "python3", "python", "node", "bun", "jq", "git", "bash", "tiktoken", "codex", "pi"}

// numberCell matches a cell holding one number and an optional unit.
var numberCell = regexp.MustCompile(`^~?(-?[0-9][0-9,]*(?:\.[0-9]+)?)\s*(ns|µs|us|ms|s|KB|KiB|MB|MiB|GB|GiB|B|%|MB/s|MiB/s|GB/s|tokens/s|/s)?(?:\s+\(.*\))?$`)

// unitWord finds a unit named in a header ("gopi wall s", "omp RSS (MB)").
var unitWord = regexp.MustCompile(`(?:^|[\s(])(ns|µs|us|ms|s|KB|KiB|MB|MiB|GB|GiB|MB/s|MiB/s)\)?$`)

// tableRecords walks the Markdown tables of doc.
func tableRecords(st stamp, area, doc string) []perf.Record {
	var out []perf.Record
	var header []string
	section := ""
	inTable := false
	var lastCase []string
	for _, line := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") {
			section = strings.TrimSpace(strings.TrimLeft(t, "#"))
		}
		if !strings.HasPrefix(t, "|") {
			inTable, header = false, nil
			continue
		}
		cells := splitRow(t)
		if !inTable {
			inTable, header, lastCase = true, cells, nil
			continue
		}
		if isRule(cells) {
			continue
		}
		colTools := false
		for _, h := range header {
			if toolOf(h) != "" && !isRatioHeader(h) {
				colTools = true
			}
		}
		if colTools {
			out = append(out, columnToolRecords(st, area, section, header, cells, &lastCase)...)
		} else {
			out = append(out, rowToolRecords(st, area, section, header, cells, &lastCase)...)
		}
	}
	return out
}

// isRatioHeader tells a column of ratios or targets, which are not samples.
func isRatioHeader(h string) bool {
	l := strings.ToLower(h)
	return strings.ContainsAny(h, "÷×") || strings.Contains(l, "ratio") || strings.Contains(l, " vs ") || strings.HasPrefix(l, "vs ") || strings.Contains(l, "target")
}

// leadingCase joins the row's leading non-numeric cells (up to stop), an
// empty cell repeating the row above's.
func leadingCase(cells []string, stop int, lastCase *[]string) []string {
	var parts []string
	for i, c := range cells {
		if i >= stop {
			break
		}
		if _, _, ok := parseCell(c, ""); ok {
			break
		}
		if c == "" && i < len(*lastCase) {
			c = (*lastCase)[i]
		}
		parts = append(parts, c)
	}
	*lastCase = parts
	return parts
}

// columnToolRecords reads a row of a table whose columns name the tools
// ("gopi wall s", "omp median").
func columnToolRecords(st stamp, area, section string, header, cells []string, lastCase *[]string) []perf.Record {
	stop := len(cells)
	for i, h := range header {
		if toolOf(h) != "" {
			stop = i
			break
		}
	}
	cas := strings.Join(nonEmpty(leadingCase(cells, stop, lastCase)), " · ")
	if cas == "" {
		cas = orUntitled(section)
	}
	var out []perf.Record
	for i, c := range cells {
		if i >= len(header) {
			break
		}
		tool := toolOf(header[i])
		if tool == "" || isRatioHeader(header[i]) {
			continue
		}
		v, unit, ok := parseCell(c, header[i])
		if !ok {
			continue
		}
		metric := strings.TrimSpace(strings.Replace(header[i], toolWordIn(header[i]), "", 1))
		if metric == "" {
			metric = "value"
		}
		out = append(out, st.rec(area, cas, tool, metric, unit, "table", []float64{v}))
	}
	return out
}

// rowToolRecords reads a row of a table whose columns are metrics: the
// tool is named in the row's first cell (gopi when none is), the case is
// the section with the row's leading text.
func rowToolRecords(st stamp, area, section string, header, cells []string, lastCase *[]string) []perf.Record {
	parts := leadingCase(cells, len(cells), lastCase)
	tool := ""
	if len(parts) > 0 {
		tool = toolOf(parts[0])
	}
	cas := strings.Join(nonEmpty(parts), " · ")
	if tool == "" {
		tool = "gopi"
	} else {
		cas = section
	}
	if cas == "" {
		cas = orUntitled(section)
	}
	var out []perf.Record
	for i, c := range cells {
		if i >= len(header) || i < len(parts) || strings.TrimSpace(header[i]) == "" || isRatioHeader(header[i]) {
			continue
		}
		v, unit, ok := parseCell(c, header[i])
		if !ok {
			continue
		}
		out = append(out, st.rec(area, cas, tool, strings.TrimSpace(header[i]), unit, "table", []float64{v}))
	}
	return out
}

func splitRow(t string) []string {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|")
	// Split on | not escaped as \|.
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == '\\' && i+1 < len(t) && t[i+1] == '|' {
			cur.WriteByte('|')
			i++
			continue
		}
		if t[i] == '|' {
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteByte(t[i])
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func isRule(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" {
			return false
		}
	}
	return true
}

func nonEmpty(s []string) []string {
	var out []string
	for _, x := range s {
		if x = strings.TrimSpace(strings.NewReplacer("`", "", `\$`, "$").Replace(x)); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// toolWordIn returns the tool word a header starts with or contains.
func toolWordIn(header string) string {
	for _, w := range strings.FieldsFunc(header, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ',' }) {
		lw := strings.ToLower(w)
		for _, t := range knownTools {
			if lw == t {
				return w
			}
		}
	}
	return ""
}

// toolOf names the tool of a header column, or "".
func toolOf(header string) string {
	w := strings.ToLower(toolWordIn(header))
	switch w {
	case "ripgrep":
		return "rg"
	case "fdfind":
		return "fd"
	case "natives":
		return "pi-natives"
	}
	return w
}

// parseCell reads "12.5 ms", "1,234", "0.34" (unit from the header).
func parseCell(c, header string) (float64, string, bool) {
	c = strings.Trim(strings.TrimSpace(c), "*`")
	m := numberCell.FindStringSubmatch(c)
	if m == nil {
		return 0, "", false
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
	if err != nil {
		return 0, "", false
	}
	unit := m[2]
	if unit == "" {
		if u := unitWord.FindStringSubmatch(strings.TrimSpace(header)); u != nil {
			unit = u[1]
		}
	}
	return v, unit, true
}

// orUntitled names a case that has no text of its own nor a heading.
func orUntitled(s string) string {
	if strings.TrimSpace(s) == "" {
		return "untitled"
	}
	return s
}
