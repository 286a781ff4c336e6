package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/internal/atomicfile"
	"github.com/gopi-agent/gopi/perf"
)

// stamp is what every record of one run shares.
type stamp struct {
	machine, commit, date string
	load                  float64
}

// newStamp describes this machine, its load now, the commit of the
// working tree (with "+dirty" when it has changes) and the time.
func newStamp() stamp {
	return stamp{machine: perf.Machine(), load: perf.Load(), commit: gitCommit("."), date: time.Now().UTC().Format(time.RFC3339)}
}

// gitCommit returns the short commit of the tree at dir, "+dirty" when
// tracked files differ from it, or "" outside git.
func gitCommit(dir string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	// The results a run writes do not make the measured tree dirty.
	st, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no", "--",
		".", ":!bench/results", ":!bench/RESULTS.md", ":!bench/history").Output()
	if err == nil && len(bytes.TrimSpace(st)) > 0 {
		c += "+dirty"
	}
	return c
}

// rec builds a record with the stamp's fields.
func (s stamp) rec(area, cas, tool, metric, unit, source string, samples []float64) perf.Record {
	return perf.Record{Area: area, Case: cas, Tool: tool, Metric: metric, Unit: unit, Samples: samples,
		Lower: !strings.Contains(unit, "/s"), Source: source, Machine: s.machine, Load: s.load, Commit: s.commit, Date: s.date}
}

// writeRecordsFile replaces path with recs (an area's records of one run),
// through a temporary file and a rename.
func writeRecordsFile(path string, recs []perf.Record) error {
	var buf bytes.Buffer
	if err := perf.WriteRecords(&buf, recs); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

// appendRecordsFile adds recs to the end of path (created when missing).
func appendRecordsFile(path string, recs []perf.Record) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var buf bytes.Buffer
	buf.Write(old)
	if err := perf.WriteRecords(&buf, recs); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

// writeFileAtomic replaces path through gopi's one atomic write path.
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// records converts the search area's measurements: every hyperfine run
// of gopi, rg, fd and find, the in-process Go benchmarks, and pi-natives'
// warm grep (its median only).
func (r *report) records(st stamp) []perf.Record {
	var out []perf.Record
	hf := func(cas string, t timing) {
		for i, name := range t.names {
			if i >= len(t.times) || len(t.times[i]) == 0 {
				continue
			}
			ms := make([]float64, len(t.times[i]))
			for j, s := range t.times[i] {
				ms[j] = s * 1000
			}
			out = append(out, st.rec("search", cas, toolName(name), "wall", "ms", "hyperfine", ms))
		}
	}
	for _, g := range r.greps {
		hf(fmt.Sprintf("grep -c %s/%s", g.corpus, g.name), g.count)
		hf(fmt.Sprintf("grep %s/%s", g.corpus, g.name), g.content)
	}
	for _, f := range r.finds {
		hf(fmt.Sprintf("find %s/%s", f.corpus, f.name), f.time)
	}
	out = append(out, goBenchRecords(st, "search", r.benchRuns)...)
	for name, n := range r.natives {
		out = append(out, st.rec("search", "in-process grep goroot/"+name, "pi-natives", "wall", "ms", "median only", []float64{n.median}))
	}
	return out
}

// toolName reduces a hyperfine command name to the tool: its first word
// without a directory ("bin/gopi grep …" → "gopi").
func toolName(cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return cmd
	}
	return filepath.Base(f[0])
}

// goBenchRecords turns go test -bench lines into records, a sample per
// line (run with -count N for N samples): ns/op as "time/op" in ms, and
// every other metric the benchmark reports (MB/s, B/op, allocs/op, its own
// b.ReportMetric units) under its unit's name.
func goBenchRecords(st stamp, area string, lines []goBench) []perf.Record {
	type series struct{ name, metric string }
	var order []series
	samples := map[series][]float64{}
	add := func(k series, v float64) {
		if _, ok := samples[k]; !ok {
			order = append(order, k)
		}
		samples[k] = append(samples[k], v)
	}
	for _, b := range lines {
		add(series{b.name, "time/op"}, b.nsPerOp/1e6)
		units := make([]string, 0, len(b.metrics))
		for u := range b.metrics {
			units = append(units, u)
		}
		sort.Strings(units)
		for _, u := range units {
			add(series{b.name, u}, b.metrics[u])
		}
	}
	var out []perf.Record
	for _, k := range order {
		unit := k.metric
		if k.metric == "time/op" {
			unit = "ms"
		}
		out = append(out, st.rec(area, strings.TrimPrefix(k.name, "Benchmark"), "gopi", k.metric, unit, "gobench", samples[k]))
	}
	return out
}
