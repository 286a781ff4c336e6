// Package bench holds gopi's benchmarks: in-process Go benchmarks of the
// search engines with a warm scan cache (engines_test.go), and the data and
// helpers behind `make bench`, which compares each engine with its best peer
// (ripgrep, fd and GNU find for search; other areas have their own scripts).
//
// Layout:
//
//	run.sh            the `make bench` driver: runs each area script, then
//	                  assembles RESULTS.md from results/*.md
//	<area>.sh         one area's benchmark (search.sh, …); installs its peers,
//	                  runs both sides in one run, writes results/<area>.md
//	patterns.tsv      the grep patterns, shared by search.sh and the Go benchmarks
//	cmd/gentree       writes the deterministic generated corpus
//	cmd/gensession    writes the 50 MB, 40,000-entry session session.sh resumes
//	cmd/firstbyte     times a command from exec to its first model request
//	                  (and its CPU time and peak RSS) against the mock LLM
//	cmd/benchreport   turns search.sh's raw measurements into results/search.md;
//	                  its subcommands write every area's JSON lines, assemble
//	                  RESULTS.md, the SVG charts and history/, and compare two
//	                  builds (make bench-compare; see README.md)
//	lib/record.sh     the area scripts' one way to write JSON-lines records
//	compare.sh        make bench-compare: builds REV and the tree, times the
//	                  cases of compare.tsv of the areas areas.tsv maps the
//	                  changed paths to, exits 1 on a regression
//	results/          the latest result of every area: <area>.md (command,
//	                  date, machine, notes), <area>.jsonl (samples), <area>.svg
//	history/          per-commit medians and headline figures (small JSON)
//	RESULTS.md        all areas in one file (assembled, never edited by hand)
//	_work/            scratch space (generated corpus, raw outputs); not in git
//
// The package itself has no non-test code beyond this file and the pattern
// loader shared with the benchmarks.
package bench

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Pattern is one line of patterns.tsv.
type Pattern struct {
	Name       string // short name, used in benchmark and file names
	IgnoreCase bool   // the flags column holds -i
	Regex      string // the pattern as given to gopi grep and rg
}

// LoadPatterns reads a patterns file: one pattern per line as three
// tab-separated fields (name, flags or "-", regex); blank lines and lines
// starting with '#' are skipped. The only flag understood is -i.
func LoadPatterns(path string) ([]Pattern, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Pattern
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) != 3 || fields[0] == "" || fields[2] == "" {
			return nil, fmt.Errorf("%s:%d: want name<TAB>flags<TAB>pattern", path, n)
		}
		p := Pattern{Name: fields[0], Regex: fields[2]}
		switch fields[1] {
		case "-":
		case "-i":
			p.IgnoreCase = true
		default:
			return nil, fmt.Errorf("%s:%d: unsupported flags %q (only -i or -)", path, n, fields[1])
		}
		out = append(out, p)
	}
	return out, sc.Err()
}
