package usagestats

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// summaryRows is how many models, folders and tools the summary lists.
const summaryRows = 10

// WriteSummary prints the report as `gopi stats --summary` does: the
// overall numbers, then the ten busiest models, folders and tools, with
// numbers, rates, durations and costs written as omp's summary writes
// them (1.2K, 12.5%, 1.5s, $0.042).
func (r *Report) WriteSummary(w io.Writer) {
	o := &r.Overall
	fmt.Fprintf(w, "\n=== AI Usage Statistics ===\n\n")
	fmt.Fprintf(w, "Overall:\n")
	fmt.Fprintf(w, "  Sessions: %s\n", FormatNumber(float64(r.Sessions)))
	fmt.Fprintf(w, "  Requests: %s (%s errors)\n", FormatNumber(float64(o.Requests)), FormatNumber(float64(o.Failed)))
	fmt.Fprintf(w, "  Error Rate: %s\n", FormatPercent(o.ErrorRate()))
	fmt.Fprintf(w, "  Total Tokens: %s\n", FormatNumber(float64(o.Input+o.Output)))
	fmt.Fprintf(w, "  Input Tokens: %s\n", FormatNumber(float64(o.Input)))
	fmt.Fprintf(w, "  Output Tokens: %s\n", FormatNumber(float64(o.Output)))
	fmt.Fprintf(w, "  Cache Rate: %s\n", FormatPercent(o.CacheRate()))
	fmt.Fprintf(w, "  Total Cost: %s\n", FormatCost(o.Cost))
	fmt.Fprintf(w, "  Avg Duration: %s\n", durationOrDash(o.AvgDuration()))
	fmt.Fprintf(w, "  Avg TTFT: %s\n", durationOrDash(o.AvgTTFT()))
	if tps, ok := o.AvgTokensPerSecond(); ok {
		fmt.Fprintf(w, "  Avg Tokens/s: %.1f\n", tps)
	}
	if rows := r.Models(); len(rows) > 0 {
		fmt.Fprintf(w, "\nBy Model:\n")
		for _, m := range rows[:min(len(rows), summaryRows)] {
			fmt.Fprintf(w, "  %s: %s reqs, %s, %s cache\n", m.Model, FormatNumber(float64(m.Requests)), FormatCost(m.Cost), FormatPercent(m.CacheRate()))
		}
	}
	if rows := r.Folders(); len(rows) > 0 {
		fmt.Fprintf(w, "\nBy Folder:\n")
		for _, f := range rows[:min(len(rows), summaryRows)] {
			fmt.Fprintf(w, "  %s: %s reqs, %s\n", f.Folder, FormatNumber(float64(f.Requests)), FormatCost(f.Cost))
		}
	}
	if rows := r.ToolCalls(); len(rows) > 0 {
		fmt.Fprintf(w, "\nBy Tool:\n")
		for _, t := range rows[:min(len(rows), summaryRows)] {
			fmt.Fprintf(w, "  %s: %s calls\n", t.Tool, FormatNumber(float64(t.Calls)))
		}
	}
	fmt.Fprintln(w)
}

func durationOrDash(ms float64, ok bool) string {
	if !ok {
		return "-"
	}
	return FormatDuration(ms)
}

// FormatNumber writes a count compactly: 999, 1.2K, 35K, 1.5M, 2B.
func FormatNumber(n float64) string {
	switch {
	case n < 1e3:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case n < 1e4:
		return trim1(n/1e3) + "K"
	case n < 1e6:
		return strconv.FormatFloat(math.Round(n/1e3), 'f', 0, 64) + "K"
	case n < 1e7:
		return trim1(n/1e6) + "M"
	case n < 1e9:
		return strconv.FormatFloat(math.Round(n/1e6), 'f', 0, 64) + "M"
	case n < 1e10:
		return trim1(n/1e9) + "B"
	}
	return strconv.FormatFloat(math.Round(n/1e9), 'f', 0, 64) + "B"
}

// trim1 writes n with one decimal, without a trailing ".0".
func trim1(n float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(n, 'f', 1, 64), ".0")
}

// FormatPercent writes a ratio as a percentage with one decimal.
func FormatPercent(r float64) string { return strconv.FormatFloat(r*100, 'f', 1, 64) + "%" }

// FormatCost writes dollars: four decimals under a cent, three under a
// dollar, two above.
func FormatCost(c float64) string {
	switch {
	case c < 0.01:
		return "$" + strconv.FormatFloat(c, 'f', 4, 64)
	case c < 1:
		return "$" + strconv.FormatFloat(c, 'f', 3, 64)
	}
	return "$" + strconv.FormatFloat(c, 'f', 2, 64)
}

// FormatDuration writes milliseconds: 850ms, 1.5s, 2m5s, 1h30m, 2d3h.
func FormatDuration(ms float64) string {
	const sec, minute, hour, day = 1000, 60 * 1000, 3600 * 1000, 24 * 3600 * 1000
	switch {
	case ms < sec:
		return strconv.FormatFloat(math.Round(ms), 'f', 0, 64) + "ms"
	case ms < minute:
		return strconv.FormatFloat(ms/sec, 'f', 1, 64) + "s"
	case ms < hour:
		return pair(int64(ms)/minute, "m", int64(ms)%minute/sec, "s")
	case ms < day:
		return pair(int64(ms)/hour, "h", int64(ms)%hour/minute, "m")
	}
	return pair(int64(ms)/day, "d", int64(ms)%day/hour, "h")
}

func pair(a int64, ua string, b int64, ub string) string {
	if b == 0 {
		return strconv.FormatInt(a, 10) + ua
	}
	return strconv.FormatInt(a, 10) + ua + strconv.FormatInt(b, 10) + ub
}
