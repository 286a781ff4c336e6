// Command benchreport is the reporting half of `make bench`. Without a
// subcommand it turns the raw measurements that bench/search.sh leaves in a
// work directory into bench/results/search.md (and search.jsonl), and prints
// the same tables. Its subcommands handle every area's results:
//
//	benchreport hyperfine -area A -case C EXPORT.json   hyperfine export → JSON lines
//	benchreport gobench -area A FILE                     go test -bench output → JSON lines
//	benchreport samples -area A -case C [VALUE…]         values a script measured → JSON lines
//	benchreport check [-raw] FILE.jsonl…                 validate records (record.sh's validator)
//	benchreport tables -area A RESULT.md                 an area's Markdown tables → JSON lines
//	benchreport assemble                                 JSON lines → RESULTS.md, SVGs, history
//	benchreport compare -base BIN -head BIN -areas "…"   alternated regression check
//
// (each prints its flags with -h).
//
// Usage of the search report:
//
//	benchreport -in bench/_work/out -out bench/results/search.md
//
// The work directory holds (all written by search.sh):
//
//	meta.tsv      key<TAB>value lines describing the machine and tools
//	manifest.tsv  what was measured, one line per item:
//	                corpus<TAB>NAME<TAB>PATH
//	                grep<TAB>CORPUS<TAB>NAME<TAB>FLAGS<TAB>PATTERN
//	                find<TAB>CORPUS<TAB>NAME<TAB>GLOB
//	grep/CORPUS/NAME/{gopi,rg}.counts   sorted "relpath:count" lines (-c)
//	grep/CORPUS/NAME/{gopi,rg}.status   exit codes of those runs
//	grep/CORPUS/NAME/{count,content}.json   hyperfine exports (gopi first)
//	find/CORPUS/NAME/{gopi,fd,find}.paths   sorted relative paths
//	find/CORPUS/NAME/time.json              hyperfine export
//	gobench.txt   output of go test -bench for package bench
//
// Anything missing shows as "—" rather than failing the report. The text
// between the notes markers of an existing RESULTS.md is carried over.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Targets from the benchmark brief.
const (
	targetGrepRatio    = 1.0 // gopi grep mean / rg mean, per pattern
	targetWarmMillis   = 40.0
	targetNativesRatio = 0.67 // in-process warm grep ÷ pi-natives' median // in-process warm grep per pattern on GOROOT/src
	targetFindRatio    = 1.0  // gopi find '**/*.EXT' / fd
	targetEqualPats    = 5    // patterns with identical counts on every corpus
)

const (
	notesBegin = "<!-- notes -->"
	notesEnd   = "<!-- /notes -->"
	// defaultNotes is the placeholder for the human-written analysis.
	defaultNotes = "_Why: not written yet. Replace this paragraph with a short analysis of the numbers\n" +
		"above (where gopi wins or loses and why). `make bench` keeps everything between the\n" +
		"notes markers._"
)

func main() {
	if len(os.Args) > 1 {
		if sub, ok := subcommands[os.Args[1]]; ok {
			if err := sub.run(os.Args[2:]); err != nil {
				var ex exitError
				if errors.As(err, &ex) {
					os.Exit(int(ex))
				}
				fmt.Fprintf(os.Stderr, "benchreport %s: %v\n", os.Args[1], err)
				os.Exit(2)
			}
			return
		}
	}
	in := flag.String("in", "bench/_work/out", "work directory written by search.sh")
	out := flag.String("out", "bench/results/search.md", "results file to (re)write")
	flag.Parse()
	r, err := load(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	notes := defaultNotes
	if old, err := os.ReadFile(*out); err == nil {
		if n, ok := extractNotes(string(old)); ok {
			notes = n
		}
	}
	doc := r.markdown(notes)
	if err := os.WriteFile(*out, []byte(doc), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	fmt.Print(r.terminalSummary())
	fmt.Printf("\nwrote %s\n", *out)
	jsonl := strings.TrimSuffix(*out, ".md") + ".jsonl"
	if err := writeRecordsFile(jsonl, r.records(newStamp())); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s\n", jsonl)
}

// extractNotes returns the text between the notes markers.
func extractNotes(doc string) (string, bool) {
	i := strings.Index(doc, notesBegin)
	if i < 0 {
		return "", false
	}
	rest := doc[i+len(notesBegin):]
	j := strings.Index(rest, notesEnd)
	if j < 0 {
		return "", false
	}
	return strings.Trim(rest[:j], "\n"), true
}

// report is everything loaded from the work directory.
type report struct {
	dir     string
	meta    [][2]string
	corpora []corpusInfo
	greps   []grepItem
	finds   []findItem
	bench   []goBench // per benchmark, its median run (go test -count N gives N runs)
	// benchRuns is every run of the in-process benchmarks, in output order.
	benchRuns []goBench
	failed    []string              // failed benchmarks with their first error line
	natives   map[string]nativeGrep // pi-natives' in-process grep on goroot, by pattern name
}

// nativeGrep is one line of natives.tsv: pi-natives' warm grep of a pattern.
type nativeGrep struct {
	best, median float64 // ms
	total        string
}

type corpusInfo struct{ name, path string }

type grepItem struct {
	corpus, name, flags, pattern string
	gopi, rg                     counts
	count, content               timing // gopi vs rg
}

// counts is one tool's -c output: per-file matching lines.
type counts struct {
	ok     bool           // the file existed
	status string         // the tool's exit code
	files  map[string]int // relpath -> matching lines
	total  int
}

// timing is a two-command hyperfine run; means in seconds, NaN when absent.
type timing struct {
	names []string
	mean  []float64
	sd    []float64
	times [][]float64 // every run's seconds, per command
}

func (t timing) get(i int) (mean, sd float64) {
	if i < len(t.mean) {
		return t.mean[i], t.sd[i]
	}
	return math.NaN(), math.NaN()
}

type findItem struct {
	corpus, name, glob string
	gopi, fd, find     []string // nil when absent
	time               timing   // commands in search.sh order: gopi, fd[, find]
}

// goBench is one line of go test -bench output.
type goBench struct {
	name    string // without the -GOMAXPROCS suffix
	nsPerOp float64
	metrics map[string]float64
}

func load(dir string) (*report, error) {
	r := &report{dir: dir}
	meta, err := readTSV(filepath.Join(dir, "meta.tsv"))
	if err != nil {
		return nil, err
	}
	for _, f := range meta {
		if len(f) >= 2 {
			r.meta = append(r.meta, [2]string{f[0], strings.Join(f[1:], "\t")})
		}
	}
	manifest, err := readTSV(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		return nil, err
	}
	for _, f := range manifest {
		switch {
		case f[0] == "corpus" && len(f) >= 3:
			r.corpora = append(r.corpora, corpusInfo{f[1], f[2]})
		case f[0] == "grep" && len(f) >= 5:
			g := grepItem{corpus: f[1], name: f[2], flags: f[3], pattern: strings.Join(f[4:], "\t")}
			base := filepath.Join(dir, "grep", g.corpus, g.name)
			g.gopi = readCounts(filepath.Join(base, "gopi"))
			g.rg = readCounts(filepath.Join(base, "rg"))
			g.count = readTiming(filepath.Join(base, "count.json"))
			g.content = readTiming(filepath.Join(base, "content.json"))
			r.greps = append(r.greps, g)
		case f[0] == "find" && len(f) >= 4:
			it := findItem{corpus: f[1], name: f[2], glob: f[3]}
			base := filepath.Join(dir, "find", it.corpus, it.name)
			it.gopi = readLines(filepath.Join(base, "gopi.paths"))
			it.fd = readLines(filepath.Join(base, "fd.paths"))
			it.find = readLines(filepath.Join(base, "find.paths"))
			it.time = readTiming(filepath.Join(base, "time.json"))
			r.finds = append(r.finds, it)
		}
	}
	r.benchRuns, r.failed = readGoBench(filepath.Join(dir, "gobench.txt"))
	r.bench = medianRuns(r.benchRuns)
	if rows, err := readTSV(filepath.Join(dir, "natives.tsv")); err == nil {
		r.natives = map[string]nativeGrep{}
		for _, f := range rows {
			if len(f) < 4 {
				continue
			}
			best, err1 := strconv.ParseFloat(f[1], 64)
			median, err2 := strconv.ParseFloat(f[2], 64)
			if err1 == nil && err2 == nil {
				r.natives[f[0]] = nativeGrep{best: best, median: median, total: f[3]}
			}
		}
	}
	return r, nil
}

func readTSV(path string) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, strings.Split(line, "\t"))
	}
	return out, nil
}

// readLines returns the non-empty lines of a file, or nil when it is missing.
func readLines(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	lines := []string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

func readCounts(base string) counts {
	c := counts{files: map[string]int{}}
	if st, err := os.ReadFile(base + ".status"); err == nil {
		c.status = strings.TrimSpace(string(st))
	}
	lines := readLines(base + ".counts")
	if lines == nil {
		return c
	}
	c.ok = true
	for _, l := range lines {
		i := strings.LastIndexByte(l, ':')
		if i < 0 {
			continue
		}
		n, err := strconv.Atoi(l[i+1:])
		if err != nil {
			continue
		}
		c.files[l[:i]] += n
		c.total += n
	}
	return c
}

func readTiming(path string) timing {
	var t timing
	data, err := os.ReadFile(path)
	if err != nil {
		return t
	}
	var doc struct {
		Results []struct {
			Command string    `json:"command"`
			Mean    float64   `json:"mean"`
			Stddev  float64   `json:"stddev"`
			Times   []float64 `json:"times"`
		} `json:"results"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return t
	}
	for _, res := range doc.Results {
		t.names = append(t.names, res.Command)
		t.mean = append(t.mean, res.Mean)
		t.sd = append(t.sd, res.Stddev)
		t.times = append(t.times, res.Times)
	}
	return t
}

var (
	benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$`)
	failLine  = regexp.MustCompile(`^\s*--- FAIL: (Benchmark\S+)`)
	errLine   = regexp.MustCompile(`^\s+\S+\.go:\d+: `)
)

// readGoBench parses go test -bench output: the results, and the leaf
// benchmarks that failed, each with the line that follows its FAIL line.
func readGoBench(path string) ([]goBench, []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil
	}
	var out []goBench
	var failed []string
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		if m := failLine.FindStringSubmatch(line); m != nil {
			if i+1 < len(lines) && errLine.MatchString(lines[i+1]) {
				failed = append(failed, m[1]+": "+strings.TrimSpace(lines[i+1]))
			}
			continue
		}
		m := benchLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		ns, _ := strconv.ParseFloat(m[2], 64)
		b := goBench{name: m[1], nsPerOp: ns, metrics: map[string]float64{}}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				b.metrics[f[i+1]] = v
			}
		}
		out = append(out, b)
	}
	return out, failed
}

// medianRuns keeps, per benchmark name in first-seen order, the run
// whose ns/op is the median (the lower middle for an even count).
func medianRuns(runs []goBench) []goBench {
	var order []string
	by := map[string][]goBench{}
	for _, b := range runs {
		if _, ok := by[b.name]; !ok {
			order = append(order, b.name)
		}
		by[b.name] = append(by[b.name], b)
	}
	out := make([]goBench, 0, len(order))
	for _, name := range order {
		rs := by[name]
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].nsPerOp < rs[j].nsPerOp })
		out = append(out, rs[(len(rs)-1)/2])
	}
	return out
}

// ---- derived values ----

// equal reports whether both tools produced counts and they agree per file.
func (g *grepItem) equal() bool {
	if !g.gopi.ok || !g.rg.ok || len(g.gopi.files) != len(g.rg.files) {
		return false
	}
	for p, n := range g.gopi.files {
		if g.rg.files[p] != n {
			return false
		}
	}
	return true
}

// diffs lists up to limit files whose counts differ, sorted by path.
func (g *grepItem) diffs(limit int) (lines []string, total int) {
	seen := map[string]bool{}
	var paths []string
	for p := range g.gopi.files {
		seen[p] = true
		paths = append(paths, p)
	}
	for p := range g.rg.files {
		if !seen[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		a, b := g.gopi.files[p], g.rg.files[p]
		if a == b {
			continue
		}
		total++
		if len(lines) < limit {
			lines = append(lines, fmt.Sprintf("%s: gopi %d, rg %d", p, a, b))
		}
	}
	return lines, total
}

func ratio(a, b float64) float64 {
	if b <= 0 || math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return a / b
}

func ms(sec float64) string {
	if math.IsNaN(sec) {
		return "—"
	}
	return fmt.Sprintf("%.1f", sec*1000)
}

func msSD(mean, sd float64) string {
	if math.IsNaN(mean) {
		return "—"
	}
	return fmt.Sprintf("%.1f ± %.1f", mean*1000, sd*1000)
}

func fmtRatio(r float64) string {
	if math.IsNaN(r) {
		return "—"
	}
	return fmt.Sprintf("%.2f×", r)
}

func countStr(c counts) string {
	if !c.ok {
		if c.status != "" {
			return "error (exit " + c.status + ")"
		}
		return "—"
	}
	return strconv.Itoa(c.total)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**NO**"
}

func lenOrDash(list []string) string {
	if list == nil {
		return "—"
	}
	return strconv.Itoa(len(list))
}

func sameSet(a, b []string) bool {
	if a == nil || b == nil || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// setDiff returns up to limit entries of a not in b (both sorted).
func setDiff(a, b []string, limit int) (out []string, total int) {
	in := make(map[string]bool, len(b))
	for _, s := range b {
		in[s] = true
	}
	for _, s := range a {
		if !in[s] {
			total++
			if len(out) < limit {
				out = append(out, s)
			}
		}
	}
	return out, total
}

func (r *report) metaValue(key string) string {
	for _, kv := range r.meta {
		if kv[0] == key {
			return kv[1]
		}
	}
	return ""
}

func (r *report) corpusPath(name string) string {
	for _, c := range r.corpora {
		if c.name == name {
			return c.path
		}
	}
	return name
}

// warmGrep returns the in-process count-mode benchmark for a corpus and pattern.
func (r *report) warmGrep(kind, corpus, name string) (goBench, bool) {
	want := kind + "/" + corpus + "/" + name
	for _, b := range r.bench {
		if b.name == want {
			return b, true
		}
	}
	return goBench{}, false
}

// ---- rendering ----

func mdCode(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	if strings.Contains(s, "`") {
		return "``" + s + "``"
	}
	return "`" + s + "`"
}

func (r *report) markdown(notes string) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# Search: grep and find\n\n")
	w("Generated by `%s` (bench/search.sh, bench/cmd/benchreport) on %s. Everything outside the\n", orDefault(r.metaValue("command"), "make bench"), orDefault(r.metaValue("date"), "an unknown date"))
	w("notes markers is rewritten on every run.\n\n")

	w("## Machine\n\n| | |\n| --- | --- |\n")
	for _, kv := range r.meta {
		if kv[0] == "date" || kv[0] == "command" {
			continue
		}
		w("| %s | %s |\n", kv[0], strings.ReplaceAll(kv[1], "|", `\|`))
	}
	w("\nCorpora:\n\n")
	for _, c := range r.corpora {
		w("- **%s**: `%s`%s\n", c.name, c.path, corpusNote(c.name))
	}
	w("\nTimings are hyperfine means over %s runs after %s warm-up runs, in milliseconds (mean ± σ),\n",
		orDefault(r.metaValue("hyperfine runs"), "?"), orDefault(r.metaValue("hyperfine warmup"), "?"))
	w("with each command's output fed through a pipe (`--output=pipe`: some tools take shortcuts\n")
	w("when writing to /dev/null). Ratios are gopi ÷ peer: below 1.00× gopi is faster. Page cache warm.\n\n")

	r.writeGrepTables(&b)
	r.writeFindTable(&b)
	r.writeInProcess(&b)
	r.writeTargets(&b)

	w("## Why\n\n%s\n%s\n%s\n", notesBegin, notes, notesEnd)
	return b.String()
}

func corpusNote(name string) string {
	switch name {
	case "goroot":
		return " — Go's standard library and toolchain sources (not a git work tree, so no ignore files apply)"
	case "gen":
		return " — written by bench/cmd/gentree (fixed seed); a repository root with .gitignore/.ignore/info/exclude rules, hidden files, binary and non-UTF-8 files, long lines"
	case "tiny":
		return " — written by `gentree -tiny`: 200,000 files of 2–6 short lines in 2,000 directories, where the per-file costs (open, read, close, hand-offs) are the whole search; only some patterns (BENCH_TINY_PATTERNS)"
	}
	return ""
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (r *report) writeGrepTables(b *strings.Builder) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("## grep: gopi grep vs ripgrep\n\n")
	w("Commands: counts `gopi grep -c [FLAGS] -- PATTERN DIR` vs `rg -c [FLAGS] -- PATTERN DIR`; content\n")
	w("`gopi grep [FLAGS] -- PATTERN DIR` vs `rg --no-heading -n [FLAGS] -- PATTERN DIR`. Both skip hidden files\n")
	w("and honour ignore files by default. \"Lines\" is the sum of the per-file `-c` counts; \"equal\" means the\n")
	w("per-file counts are identical for every file.\n\n")
	for _, c := range r.corpora {
		var items []*grepItem
		for i := range r.greps {
			if r.greps[i].corpus == c.name {
				items = append(items, &r.greps[i])
			}
		}
		if len(items) == 0 {
			continue
		}
		w("### %s\n\n", c.name)
		w("| pattern | lines gopi | lines rg | equal | `-c` gopi ms | `-c` rg ms | `-c` ratio | content gopi ms | content rg ms | content ratio |\n")
		w("| --- | ---: | ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, g := range items {
			cg, cgs := g.count.get(0)
			cr, crs := g.count.get(1)
			tg, tgs := g.content.get(0)
			tr, trs := g.content.get(1)
			pat := g.pattern
			if g.flags != "-" {
				pat = g.flags + " " + pat
			}
			w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mdCode(pat), countStr(g.gopi), countStr(g.rg), yesNo(g.equal()),
				msSD(cg, cgs), msSD(cr, crs), fmtRatio(ratio(cg, cr)), msSD(tg, tgs), msSD(tr, trs), fmtRatio(ratio(tg, tr)))
		}
		w("\n")
	}
	var mism []*grepItem
	for i := range r.greps {
		if !r.greps[i].equal() {
			mism = append(mism, &r.greps[i])
		}
	}
	if len(mism) > 0 {
		w("### ⚠ Count mismatches\n\n")
		for _, g := range mism {
			lines, total := g.diffs(10)
			w("- **%s / %s** (%s): gopi %s, rg %s; %d files differ", g.corpus, g.name, mdCode(g.pattern), countStr(g.gopi), countStr(g.rg), total)
			if total > len(lines) {
				w(", first %d", len(lines))
			}
			w(":\n")
			for _, l := range lines {
				w("  - `%s`\n", l)
			}
		}
		w("\n")
	}
}

func (r *report) writeFindTable(b *strings.Builder) {
	if len(r.finds) == 0 {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("## find: gopi find vs fd and GNU find\n\n")
	w("Commands: `gopi find GLOB DIR`, `fdfind -g GLOB DIR`, and for `*.EXT` also\n")
	w("`find DIR -name '*.EXT' -not -path '*/.*'` (EXT: `go`, `txt` on the tiny tree, which holds only text\n")
	w("files). gopi and fd skip hidden paths and honour ignore files\n")
	w("(inside a git work tree); GNU find skips hidden paths but knows no ignore files, so on a corpus with\n")
	w("ignore rules its count is expected to be higher. Paths are compared as sets after stripping `DIR/`.\n\n")
	w("| corpus | glob | paths gopi | paths fd | paths find | gopi = fd | gopi ms | fd ms | find ms | gopi/fd | gopi/find |\n")
	w("| --- | --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, f := range r.finds {
		mg, sg := f.time.get(0)
		mf, sf := f.time.get(1)
		mx, sx := f.time.get(2)
		findCount, findMS, findRatio := lenOrDash(f.find), msSD(mx, sx), fmtRatio(ratio(mg, mx))
		if f.find == nil {
			findCount, findMS, findRatio = "—", "—", "—"
		}
		w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f.corpus, mdCode(f.glob), lenOrDash(f.gopi), lenOrDash(f.fd), findCount,
			yesNo(sameSet(f.gopi, f.fd)), msSD(mg, sg), msSD(mf, sf), findMS, fmtRatio(ratio(mg, mf)), findRatio)
	}
	w("\n")
	for _, f := range r.finds {
		if sameSet(f.gopi, f.fd) || f.gopi == nil || f.fd == nil {
			continue
		}
		onlyG, ng := setDiff(f.gopi, f.fd, 10)
		onlyF, nf := setDiff(f.fd, f.gopi, 10)
		w("- ⚠ **%s %s**: %d paths only from gopi, %d only from fd\n", f.corpus, mdCode(f.glob), ng, nf)
		for _, p := range onlyG {
			w("  - gopi only: `%s`\n", p)
		}
		for _, p := range onlyF {
			w("  - fd only: `%s`\n", p)
		}
	}
	for _, f := range r.finds {
		if f.find == nil || f.gopi == nil || sameSet(f.gopi, f.find) {
			continue
		}
		onlyG, ng := setDiff(f.gopi, f.find, 3)
		onlyX, nx := setDiff(f.find, f.gopi, 3)
		w("- %s %s vs GNU find: %d paths only from gopi, %d only from find (find has no ignore rules)", f.corpus, mdCode(f.glob), ng, nx)
		if ex := append(onlyG, onlyX...); len(ex) > 0 {
			w("; e.g. `%s`", strings.Join(ex, "`, `"))
		}
		w("\n")
	}
	w("\n")
}

func (r *report) writeInProcess(b *strings.Builder) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("## In-process engines, warm scan cache\n\n")
	if len(r.bench) == 0 {
		w("No results: `go test ./bench -bench .` did not run or failed (see bench/_work/out/gobench.txt).\n\n")
		return
	}
	w("`go test ./bench -run '^$' -bench . -benchtime 10x -count N` (the median of the N runs below; every run is in\n")
	w("search.jsonl, benchstat's summary in search.benchstat.txt): grep.Search, glob.Find and fuzzy.Find with\n")
	w("`Cache: true` after untimed calls (two for grep, whose content cache takes a tree whole from its second\n")
	w("search), CLI defaults otherwise (GrepWarm = count mode, GrepWarmContent =\n")
	w("content mode). \"rg lines\" repeats ripgrep's total from the table above as a cross-check.\n\n")
	w("| benchmark | ms/op | result | rg lines | equal |\n| --- | ---: | ---: | ---: | :---: |\n")
	for _, bn := range r.bench {
		var res []string
		keys := make([]string, 0, len(bn.metrics))
		for k := range bn.metrics {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			res = append(res, fmt.Sprintf("%.0f %s", bn.metrics[k], k))
		}
		rgLines, eq := "", ""
		if parts := strings.Split(bn.name, "/"); len(parts) == 3 && strings.HasPrefix(parts[0], "BenchmarkGrepWarm") {
			for _, g := range r.greps {
				if g.corpus == parts[1] && g.name == parts[2] && g.rg.ok {
					rgLines = strconv.Itoa(g.rg.total)
					eq = yesNo(int(bn.metrics["lines"]) == g.rg.total)
				}
			}
		}
		w("| %s | %.1f | %s | %s | %s |\n", strings.TrimPrefix(bn.name, "Benchmark"), bn.nsPerOp/1e6, strings.Join(res, ", "), rgLines, eq)
	}
	w("\n")
	if len(r.natives) > 0 {
		w("The reference agent's native grep (`@oh-my-pi/pi-natives` `grep`, count mode, hidden files\n")
		w("skipped, ignore files honoured, run by Bun in bench/_work/tokens/peer/grep.js) over the same\n")
		w("GOROOT/src right after the benchmarks above: best and median of its timed calls after two\n")
		w("untimed ones (its walker caches the scan between calls).\n\n")
		w("| pattern | gopi ms/op | pi-natives best ms | pi-natives median ms | gopi ÷ pi-natives (median) | pi-natives total | gopi lines |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, bn := range r.bench {
			parts := strings.Split(bn.name, "/")
			if len(parts) != 3 || parts[0] != "BenchmarkGrepWarm" || parts[1] != "goroot" {
				continue
			}
			nat, ok := r.natives[parts[2]]
			if !ok {
				continue
			}
			w("| %s | %.1f | %.1f | %.1f | %s | %s | %.0f |\n", parts[2], bn.nsPerOp/1e6, nat.best, nat.median, fmtRatio(bn.nsPerOp/1e6/nat.median), nat.total, bn.metrics["lines"])
		}
		w("\n")
	}
	if len(r.failed) > 0 {
		w("⚠ Failed benchmarks:\n\n")
		for _, f := range r.failed {
			w("- `%s`\n", strings.TrimPrefix(f, "Benchmark"))
		}
		w("\n")
	}
}

// targetLine is one evaluated target.
type targetLine struct {
	name   string
	met    bool
	detail string
}

func (r *report) targets() []targetLine {
	var out []targetLine

	// 1. gopi grep ≤ 1.0× rg, per pattern (both forms, every corpus).
	var worst float64
	var worstAt string
	var misses []string
	n := 0
	for _, g := range r.greps {
		for _, form := range []struct {
			name string
			t    timing
		}{{"-c", g.count}, {"content", g.content}} {
			a, _ := form.t.get(0)
			c, _ := form.t.get(1)
			q := ratio(a, c)
			if math.IsNaN(q) {
				continue
			}
			n++
			if q > worst {
				worst, worstAt = q, fmt.Sprintf("%s/%s %s", g.corpus, g.name, form.name)
			}
			if q > targetGrepRatio {
				misses = append(misses, fmt.Sprintf("%s/%s %s %.2f× (+%.0f%%)", g.corpus, g.name, form.name, q, (q/targetGrepRatio-1)*100))
			}
		}
	}
	switch {
	case n == 0:
		out = append(out, targetLine{"gopi grep ≤ 1.0× rg per pattern", false, "not measured"})
	case len(misses) == 0:
		out = append(out, targetLine{"gopi grep ≤ 1.0× rg per pattern", true, fmt.Sprintf("all %d measurements; slowest %s at %.2f×", n, worstAt, worst)})
	default:
		out = append(out, targetLine{"gopi grep ≤ 1.0× rg per pattern", false, fmt.Sprintf("%d of %d measurements over: %s; worst %s at %.2f×", len(misses), n, strings.Join(misses, "; "), worstAt, worst)})
	}

	// 2. In-process warm grep ≤ 40 ms per pattern on GOROOT/src (count mode).
	var wmiss []string
	wn, wworst := 0, 0.0
	for _, bn := range r.bench {
		parts := strings.Split(bn.name, "/")
		if len(parts) != 3 || parts[0] != "BenchmarkGrepWarm" || parts[1] != "goroot" {
			continue
		}
		wn++
		msOp := bn.nsPerOp / 1e6
		wworst = max(wworst, msOp)
		if msOp > targetWarmMillis {
			wmiss = append(wmiss, fmt.Sprintf("%s %.1f ms (+%.1f ms)", parts[2], msOp, msOp-targetWarmMillis))
		}
	}
	for _, f := range r.failed {
		if name, ok := strings.CutPrefix(f, "BenchmarkGrepWarm/goroot/"); ok {
			wn++
			name, _, _ = strings.Cut(name, ":")
			wmiss = append(wmiss, "failed: "+name)
		}
	}
	switch {
	case wn == 0:
		out = append(out, targetLine{"in-process warm grep ≤ 40 ms per pattern (GOROOT/src)", false, "not measured"})
	case len(wmiss) == 0:
		out = append(out, targetLine{"in-process warm grep ≤ 40 ms per pattern (GOROOT/src)", true, fmt.Sprintf("all %d patterns; slowest %.1f ms", wn, wworst)})
	default:
		out = append(out, targetLine{"in-process warm grep ≤ 40 ms per pattern (GOROOT/src)", false, fmt.Sprintf("%d of %d over: %s", len(wmiss), wn, strings.Join(wmiss, "; "))})
	}

	// 2b. In-process warm grep ≤ 0.67× pi-natives' warm grep (median), per pattern.
	if len(r.natives) > 0 {
		var nmiss []string
		nn := 0
		for _, bn := range r.bench {
			parts := strings.Split(bn.name, "/")
			if len(parts) != 3 || parts[0] != "BenchmarkGrepWarm" || parts[1] != "goroot" {
				continue
			}
			nat, ok := r.natives[parts[2]]
			if !ok || nat.median <= 0 {
				continue
			}
			nn++
			if q := bn.nsPerOp / 1e6 / nat.median; q > targetNativesRatio {
				nmiss = append(nmiss, fmt.Sprintf("%s %.2f×", parts[2], q))
			}
		}
		name := "in-process warm grep ≤ 0.67× pi-natives' (GOROOT/src)"
		if len(nmiss) == 0 {
			out = append(out, targetLine{name, nn > 0, fmt.Sprintf("all %d patterns", nn)})
		} else {
			out = append(out, targetLine{name, false, fmt.Sprintf("%d of %d over: %s", len(nmiss), nn, strings.Join(nmiss, "; "))})
		}
	}

	// 3. gopi find '**/*.EXT' ≤ 1.0× fd.
	var fdetail []string
	fmet, fn := true, 0
	for _, f := range r.finds {
		if !strings.HasPrefix(f.glob, "**/*.") {
			continue
		}
		a, _ := f.time.get(0)
		c, _ := f.time.get(1)
		q := ratio(a, c)
		if math.IsNaN(q) {
			continue
		}
		fn++
		if q > targetFindRatio {
			fmet = false
			fdetail = append(fdetail, fmt.Sprintf("%s %.2f× (+%.0f%%)", f.corpus, q, (q/targetFindRatio-1)*100))
		} else {
			fdetail = append(fdetail, fmt.Sprintf("%s %.2f×", f.corpus, q))
		}
	}
	if fn == 0 {
		out = append(out, targetLine{"gopi find '**/*.EXT' ≤ 1.0× fd", false, "not measured"})
	} else {
		out = append(out, targetLine{"gopi find '**/*.EXT' ≤ 1.0× fd", fmet, strings.Join(fdetail, "; ")})
	}

	// 4. Identical counts on ≥ 5 patterns (a pattern counts when it agrees on every corpus).
	byName := map[string]bool{}
	var order []string
	for _, g := range r.greps {
		if _, seen := byName[g.name]; !seen {
			order = append(order, g.name)
			byName[g.name] = true
		}
		byName[g.name] = byName[g.name] && g.equal()
	}
	eq := 0
	var bad []string
	for _, name := range order {
		if byName[name] {
			eq++
		} else {
			bad = append(bad, name)
		}
	}
	detail := fmt.Sprintf("%d of %d patterns identical on every corpus", eq, len(order))
	if len(bad) > 0 {
		detail += "; differing: " + strings.Join(bad, ", ")
	}
	if eq < targetEqualPats {
		detail += fmt.Sprintf(" (%d short)", targetEqualPats-eq)
	}
	out = append(out, targetLine{"identical match counts on ≥ 5 patterns", eq >= targetEqualPats, detail})
	return out
}

func (r *report) writeTargets(b *strings.Builder) {
	fmt.Fprintf(b, "## Targets\n\n| target | met | detail |\n| --- | :---: | --- |\n")
	for _, t := range r.targets() {
		met := "yes"
		if !t.met {
			met = "**no**"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", t.name, met, strings.ReplaceAll(t.detail, "|", `\|`))
	}
	fmt.Fprintf(b, "\n")
}

// terminalSummary is a compact plain-text version for the console, with
// mismatches called out.
func (r *report) terminalSummary() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("\n== grep (ms; ratio = gopi/rg) ==\n")
	w("%-7s %-12s %10s %10s %-8s %9s %9s %7s %9s %9s %7s\n", "corpus", "pattern", "gopi", "rg", "equal", "-c gopi", "-c rg", "ratio", "txt gopi", "txt rg", "ratio")
	for _, g := range r.greps {
		cg, _ := g.count.get(0)
		cr, _ := g.count.get(1)
		tg, _ := g.content.get(0)
		tr, _ := g.content.get(1)
		eq := "yes"
		if !g.equal() {
			eq = "MISMATCH"
		}
		w("%-7s %-12s %10s %10s %-8s %9s %9s %7s %9s %9s %7s\n", g.corpus, g.name, countStr(g.gopi), countStr(g.rg), eq,
			ms(cg), ms(cr), fmtRatio(ratio(cg, cr)), ms(tg), ms(tr), fmtRatio(ratio(tg, tr)))
	}
	w("\n== find (ms) ==\n")
	for _, f := range r.finds {
		mg, _ := f.time.get(0)
		mf, _ := f.time.get(1)
		eq := "equal"
		if !sameSet(f.gopi, f.fd) {
			eq = "MISMATCH"
		}
		w("%-7s %-10s gopi %s (%s paths) fd %s (%s paths) %s ratio %s\n", f.corpus, f.glob, ms(mg), lenOrDash(f.gopi), ms(mf), lenOrDash(f.fd), eq, fmtRatio(ratio(mg, mf)))
	}
	var mism []string
	for i := range r.greps {
		g := &r.greps[i]
		if !g.equal() {
			lines, total := g.diffs(5)
			mism = append(mism, fmt.Sprintf("grep %s/%s: gopi %s vs rg %s lines, %d files differ: %s", g.corpus, g.name, countStr(g.gopi), countStr(g.rg), total, strings.Join(lines, "; ")))
		}
	}
	for _, f := range r.finds {
		if !sameSet(f.gopi, f.fd) {
			mism = append(mism, fmt.Sprintf("find %s %s: gopi %s paths vs fd %s", f.corpus, f.glob, lenOrDash(f.gopi), lenOrDash(f.fd)))
		}
	}
	for _, f := range r.failed {
		mism = append(mism, "go benchmark failed: "+f)
	}
	if len(mism) > 0 {
		w("\n!!!!!!!! %d MISMATCH(ES) between gopi and its peer !!!!!!!!\n", len(mism))
		for _, m := range mism {
			w("  %s\n", m)
		}
	}
	w("\n== targets ==\n")
	for _, t := range r.targets() {
		met := "met"
		if !t.met {
			met = "MISSED"
		}
		w("  [%s] %s: %s\n", met, t.name, t.detail)
	}
	return b.String()
}
