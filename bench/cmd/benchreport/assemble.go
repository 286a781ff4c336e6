package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gopi-agent/gopi/perf"
)

// areaResult is one area's records, in file order.
type areaResult struct {
	name string
	recs []perf.Record
}

// loadResults reads every results/*.jsonl.
func loadResults(dir string) ([]areaResult, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []areaResult
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		recs, err := perf.ReadRecords(fh)
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, areaResult{strings.TrimSuffix(filepath.Base(f), ".jsonl"), recs})
	}
	return out, nil
}

// headline is one of the figures README shows: gopi against a peer over
// the matching cases of an area.
type headline struct {
	Name    string  `json:"name"`
	Area    string  `json:"area"`
	Peer    string  `json:"peer"`
	Ratio   float64 `json:"ratio"` // geometric mean of peer ÷ gopi over the cases (above 1: gopi is faster)
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Cases   int     `json:"cases"`
	Verdict string  `json:"verdict"`
}

// headlineSpec selects a headline's series.
type headlineSpec struct {
	name, area, peer string
	caseHas, metric  string // substrings the case and metric must contain
}

var headlineSpecs = []headlineSpec{
	{"grep vs ripgrep", "search", "rg", "grep", "wall"},
	{"AST search vs ast-grep", "ast", "ast-grep", "", "wall"},
	{"agent start-up vs omp", "agent", "omp", "start-up", "wall"},
}

// pairsOf returns, per case and metric, gopi's record and the peer's.
func pairsOf(recs []perf.Record, peer, caseHas, metric string) [][2]perf.Record {
	byKey := map[string]*[2]perf.Record{}
	var order []string
	for _, r := range recs {
		if !strings.Contains(r.Case, caseHas) || !strings.Contains(r.Metric, metric) {
			continue
		}
		k := r.Case + "\x00" + r.Metric
		p := byKey[k]
		if p == nil {
			p = &[2]perf.Record{}
			byKey[k] = p
			order = append(order, k)
		}
		switch r.Tool {
		case "gopi":
			p[0] = r
		case peer:
			p[1] = r
		}
	}
	var out [][2]perf.Record
	for _, k := range order {
		if p := byKey[k]; len(p[0].Samples) > 0 && len(p[1].Samples) > 0 {
			out = append(out, *p)
		}
	}
	return out
}

// compareRecords compares a with b, paired when they alternated.
func compareRecords(a, b perf.Record) perf.Comparison {
	if a.Pair == b.Tool && b.Pair == a.Tool && len(a.Samples) == len(b.Samples) {
		return perf.ComparePaired(a.Samples, b.Samples)
	}
	return perf.CompareUnpaired(a.Samples, b.Samples)
}

// computeHeadlines evaluates the headline specs over the areas present.
// The figure is the geometric mean over cases of peer ÷ gopi; its interval
// is the geometric mean of the per-case interval ends, which is wider than
// a joint interval would be (the cases' errors are not all in one
// direction), so "faster" from it is conservative.
func computeHeadlines(areas []areaResult) []headline {
	var out []headline
	for _, spec := range headlineSpecs {
		for _, a := range areas {
			if a.name != spec.area {
				continue
			}
			pairs := pairsOf(a.recs, spec.peer, spec.caseHas, spec.metric)
			if len(pairs) == 0 {
				continue
			}
			var lr, llo, lhi float64
			n, withCI := 0, 0
			for _, p := range pairs {
				c := compareRecords(p[1], p[0]) // peer ÷ gopi
				if math.IsNaN(c.Ratio) || c.Ratio <= 0 {
					continue
				}
				n++
				lr += math.Log(c.Ratio)
				if c.N >= 2 && c.Lo > 0 {
					withCI++
					llo += math.Log(c.Lo)
					lhi += math.Log(c.Hi)
				} else {
					llo += math.Log(c.Ratio)
					lhi += math.Log(c.Ratio)
				}
			}
			if n == 0 {
				continue
			}
			h := headline{Name: spec.name, Area: spec.area, Peer: spec.peer, Ratio: math.Exp(lr / float64(n)),
				Lo: math.Exp(llo / float64(n)), Hi: math.Exp(lhi / float64(n)), Cases: n}
			switch {
			case withCI < n:
				h.Verdict = "no interval (medians only)"
			case h.Lo > 1:
				h.Verdict = "gopi faster"
			case h.Hi < 1:
				h.Verdict = "gopi slower"
			default:
				h.Verdict = "within noise"
			}
			out = append(out, h)
		}
	}
	return out
}

// historyEntry is bench/history/<commit>.json: the headline figures and
// the median and interval (no samples) of every series measured with a
// known commit, so trends and regressions can be read across commits.
type historyEntry struct {
	Commit    string          `json:"commit"`
	Date      string          `json:"date"`
	Machine   string          `json:"machine"`
	Load      float64         `json:"load"`
	Headlines []headline      `json:"headlines"`
	Series    []historySeries `json:"series"`
}

// historySeries is one record reduced to its summary.
type historySeries struct {
	Area   string  `json:"area"`
	Case   string  `json:"case"`
	Tool   string  `json:"tool"`
	Metric string  `json:"metric"`
	Unit   string  `json:"unit"`
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	N      int     `json:"n"`
	Commit string  `json:"commit"` // the commit the area was last measured at
}

func runAssemble(args []string) error {
	fs := flag.NewFlagSet("assemble", flag.ContinueOnError)
	results := fs.String("results", "bench/results", "directory of the areas' *.md and *.jsonl")
	history := fs.String("history", "bench/history", "directory of per-commit history files")
	out := fs.String("out", "bench/RESULTS.md", "the assembled Markdown")
	noHistory := fs.Bool("no-history", false, "do not write a history file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	areas, err := loadResults(*results)
	if err != nil {
		return err
	}
	st := newStamp()
	heads := computeHeadlines(areas)
	for _, a := range areas {
		if err := writeAreaSVG(filepath.Join(*results, a.name+".svg"), a); err != nil {
			return fmt.Errorf("area %s: %w", a.name, err)
		}
	}
	if len(heads) > 0 {
		if err := writeHeadlineSVG(filepath.Join(*results, "headline.svg"), heads); err != nil {
			return err
		}
	}
	if !*noHistory && st.commit != "" {
		if err := writeHistory(*history, st, heads, areas); err != nil {
			return err
		}
	}
	trend, err := readHistory(*history)
	if err != nil {
		return err
	}
	if len(trend) > 0 {
		if err := writeTrendSVG(filepath.Join(*results, "trend.svg"), trend); err != nil {
			return err
		}
	}
	doc, err := resultsMarkdown(*results, *out, st, heads, areas, len(trend))
	if err != nil {
		return err
	}
	if err := writeFileAtomic(*out, []byte(doc)); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "benchreport: wrote %s, %d area charts, headline and trend (%d commits in history)\n", *out, len(areas), len(trend))
	return nil
}

// writeHistory writes history/<commit>.json for the current tree, with
// the series measured at that commit. It writes nothing for a tree with
// uncommitted changes (no commit names what was measured) or when no
// series was measured at this commit (an assembly after a merge, say):
// history is what each commit measured, not a copy of older results.
func writeHistory(dir string, st stamp, heads []headline, areas []areaResult) error {
	if strings.HasSuffix(st.commit, "+dirty") {
		return nil
	}
	e := historyEntry{Commit: st.commit, Date: st.date, Machine: st.machine, Load: st.load, Headlines: heads}
	for _, a := range areas {
		for _, r := range a.recs {
			if r.Commit != st.commit {
				continue // measured at another commit (or read from tables)
			}
			s := perf.Summarize(r.Samples)
			e.Series = append(e.Series, historySeries{Area: r.Area, Case: r.Case, Tool: r.Tool, Metric: r.Metric, Unit: r.Unit,
				Median: round4(s.Median), Lo: round4(s.Lo), Hi: round4(s.Hi), N: s.N, Commit: r.Commit})
		}
	}
	if len(e.Series) == 0 {
		return nil
	}
	b, err := json.MarshalIndent(e, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	name := strings.ReplaceAll(st.commit, "+", "-") + ".json"
	return writeFileAtomic(filepath.Join(dir, name), append(b, '\n'))
}

func round4(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	mag := math.Pow(10, 4-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*mag) / mag
}

// readHistory returns the history entries, oldest first.
func readHistory(dir string) ([]historyEntry, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []historyEntry
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var e historyEntry
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out, nil
}

// resultsMarkdown builds RESULTS.md: the headline figures, then per area
// the summary generated from its records (with its chart), then the area's
// own Markdown (method and notes).
func resultsMarkdown(resultsDir, outPath string, st stamp, heads []headline, areas []areaResult, commits int) (string, error) {
	rel := func(p string) string {
		r, err := filepath.Rel(filepath.Dir(outPath), p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	var b strings.Builder
	b.WriteString("# gopi benchmark results\n\n")
	fmt.Fprintf(&b, "Assembled by `make bench` (bench/run.sh → `benchreport assemble`) on %s from\n", st.date)
	b.WriteString("bench/results/*.jsonl (the samples) and bench/results/*.md (each area's method and notes); do not\n")
	b.WriteString("edit this file by hand. Medians with 95 % bootstrap intervals; a comparison says faster, slower or\n")
	b.WriteString("within noise. Records taken from an area's tables (source `table`) carry one number each and no interval.\n\n")
	if len(heads) > 0 {
		fmt.Fprintf(&b, "![headline figures](%s)\n\n", rel(filepath.Join(resultsDir, "headline.svg")))
		b.WriteString("| headline | peer ÷ gopi (geometric mean over cases) | 95 % interval | cases | verdict |\n| --- | ---: | ---: | ---: | --- |\n")
		for _, h := range heads {
			fmt.Fprintf(&b, "| %s | %.2f× | %.2f–%.2f | %d | %s |\n", h.Name, h.Ratio, h.Lo, h.Hi, h.Cases, h.Verdict)
		}
		b.WriteString("\n")
	}
	if commits > 0 {
		fmt.Fprintf(&b, "Trend of the headline figures over %d measured commits: [trend.svg](%s).\n\n", commits, rel(filepath.Join(resultsDir, "trend.svg")))
	}
	b.WriteString("Areas: ")
	for i, a := range areas {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "[%s](%s)", a.name, rel(filepath.Join(resultsDir, a.name+".svg")))
	}
	b.WriteString(" (charts).\n")
	mds, _ := filepath.Glob(filepath.Join(resultsDir, "*.md"))
	sort.Strings(mds)
	byName := map[string]areaResult{}
	for _, a := range areas {
		byName[a.name] = a
	}
	for _, md := range mds {
		name := strings.TrimSuffix(filepath.Base(md), ".md")
		text, err := os.ReadFile(md)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n## Area: %s\n\n", name)
		if a, ok := byName[name]; ok && len(a.recs) > 0 {
			fmt.Fprintf(&b, "![%s](%s)\n\n", name, rel(filepath.Join(resultsDir, name+".svg")))
			writeAreaSummary(&b, a)
		}
		if stat, err := os.ReadFile(filepath.Join(resultsDir, name+".benchstat.txt")); err == nil && len(strings.TrimSpace(string(stat))) > 0 {
			fmt.Fprintf(&b, "In-process Go benchmarks summarised by benchstat (bench/results/%s.benchstat.txt):\n\n```\n%s\n```\n\n", name, strings.TrimRight(string(stat), "\n"))
		}
		for _, line := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
			if strings.HasPrefix(line, "#") {
				line = "##" + line
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String(), nil
}

// writeAreaSummary writes the table generated from an area's records:
// gopi's median per case and metric, and each peer compared with it.
func writeAreaSummary(b *strings.Builder, a areaResult) {
	type row struct {
		cas, metric, unit string
		gopi              *perf.Record
		peers             []perf.Record
		source            string
	}
	var rows []*row
	idx := map[string]*row{}
	for i := range a.recs {
		r := a.recs[i]
		k := r.Case + "\x00" + r.Metric
		rw := idx[k]
		if rw == nil {
			rw = &row{cas: r.Case, metric: r.Metric, unit: r.Unit, source: r.Source}
			idx[k] = rw
			rows = append(rows, rw)
		}
		if r.Tool == "gopi" && rw.gopi == nil {
			rw.gopi = &a.recs[i]
		} else {
			rw.peers = append(rw.peers, r)
		}
	}
	first := a.recs[0]
	fmt.Fprintf(b, "Generated from bench/results/%s.jsonl (%d series; commit %s, %s, load %.1f, %s).\n\n", a.name, len(a.recs), orDash(first.Commit), first.Date, first.Load, first.Machine)
	b.WriteString("| case | metric | gopi median (95 % CI, n) | peers: median, gopi ÷ peer |\n| --- | --- | --- | --- |\n")
	for _, rw := range rows {
		g := "—"
		if rw.gopi != nil {
			g = summaryText(*rw.gopi)
		}
		var ps []string
		for _, p := range rw.peers {
			s := fmt.Sprintf("%s %s", p.Tool, summaryText(p))
			if rw.gopi != nil {
				s += ": " + compareRecords(*rw.gopi, p).String()
			}
			ps = append(ps, s)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", mdCell(rw.cas), mdCell(rw.metric), g, mdCell(strings.Join(ps, "; ")))
	}
	b.WriteString("\n")
}

// summaryText is "12.3 ms (12.0–12.9, n=10)" or "12.3 ms (n=1)".
func summaryText(r perf.Record) string {
	s := perf.Summarize(r.Samples)
	unit := r.Unit
	if unit != "" {
		unit = " " + unit
	}
	if s.N < 2 {
		return fmt.Sprintf("%s%s (n=1)", perf.FormatValue(s.Median), unit)
	}
	return fmt.Sprintf("%s%s (%s–%s, n=%d)", perf.FormatValue(s.Median), unit, perf.FormatValue(s.Lo), perf.FormatValue(s.Hi), s.N)
}

func mdCell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
