package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/perf"
)

func init() {
	commands["bench"] = command{"time shell commands in alternated runs: medians, 95 % intervals, faster/slower/within noise, JSON lines", runBench}
	commandFlagSets["bench"] = func() *pflag.FlagSet { return newBenchFlagSet(&benchCLI{}) }
	noConfig["bench"] = true
}

// benchCLI holds the flags of `gopi bench`.
type benchCLI struct {
	runs, warmup        int
	names               []string
	jsonOut, area, cas  string
	timeout             time.Duration
	minEffect           float64
	ignoreFailure, help bool
	failSlower          bool
}

// newBenchFlagSet declares gopi bench's flags on c.
func newBenchFlagSet(c *benchCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	fs.SortFlags = false
	cliflags.NonNegIntVarP(fs, &c.runs, "runs", "r", 10, "measure each command `N` times (default 10; at least 2 for an interval)")
	cliflags.NonNegIntVarP(fs, &c.warmup, "warmup", "w", 1, "run each command `N` times first without measuring (default 1)")
	fs.StringArrayVarP(&c.names, "name", "n", nil, "call the next command `NAME` (once per command, in order; default: its text)")
	fs.StringVar(&c.jsonOut, "json", "", "append the samples as JSON lines to `FILE` ('-': print them instead of the table)")
	fs.StringVar(&c.area, "area", "user", "put `NAME` in the records' area field (default user)")
	fs.StringVar(&c.cas, "case", "", "put `NAME` in the records' case field (default: the first command's name)")
	fs.DurationVar(&c.timeout, "timeout", 0, "stop with an error when one run takes longer than `DURATION` (e.g. 30s; default none)")
	fs.Float64Var(&c.minEffect, "min-effect", 0, "call a change faster or slower only beyond `FRACTION` (e.g. 0.05; default 0)")
	fs.BoolVar(&c.failSlower, "fail-slower", false, "exit 1 when the first command is slower than another beyond the noise")
	fs.BoolVarP(&c.ignoreFailure, "ignore-failure", "i", false, "time commands that exit non-zero instead of stopping")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const benchUsage = `Usage: gopi bench [FLAGS] COMMAND [COMMAND...]

Time each COMMAND (a shell command line, run with sh -c in the current
directory) as gopi's own benchmarks do. After the warm-up runs, the commands
run in alternated rounds, forwards then backwards (A B, B A, A B, ...), so a
busy spell of the machine slows all of them alike. Output goes to a pipe that
is read and thrown away.

For each command it prints the median wall time with a 95 % bootstrap
interval of that median, the number of runs and the median CPU time (user +
system of the command and the children it waited for). With two or more
commands, the first is compared with each other one run by run: the median of
the per-round ratios with its 95 % interval, then "faster" or "slower" when
the whole interval lies beyond 1 (and beyond --min-effect), "within noise"
otherwise. The load average before and after is printed: on a busy machine,
expect wider intervals and give more runs.

--json writes one JSON line per command and metric (area, case, tool, metric,
samples, unit, machine, load, commit, date), the format of gopi's
bench/results/*.jsonl.

Exit status: 0 when every run finished; 1 with --fail-slower when the first
command was slower than another beyond the noise; 2 on bad usage, a command
that failed (without --ignore-failure), a timeout or an interrupt.

Example:
  gopi bench -r 20 -n new -n old './new-build input' './old-build input'

Flags:
`

func runBench(ctx context.Context, env *cliEnv, args []string) int {
	var c benchCLI
	fs := newBenchFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "bench", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, benchUsage+cliflags.Help(fs))
		return exitMatch
	}
	code, err := benchMain(ctx, env, &c, fs.Args())
	if err != nil {
		return fail(env, "bench", err)
	}
	return code
}

// benchMain times the commands and reports them.
func benchMain(ctx context.Context, env *cliEnv, c *benchCLI, lines []string) (int, error) {
	if len(lines) == 0 {
		return exitError, cliflags.Usagef("give at least one command to time")
	}
	if c.runs < 1 {
		return exitError, cliflags.Usagef("--runs must be at least 1")
	}
	if len(c.names) > len(lines) {
		return exitError, cliflags.Usagef("%d --name labels for %d commands", len(c.names), len(lines))
	}
	cmds := make([]perf.Command, len(lines))
	for i, line := range lines {
		name := line
		if i < len(c.names) {
			name = c.names[i]
		}
		cmds[i] = perf.Command{Name: name, Argv: []string{"sh", "-c", line}}
	}
	loadBefore := perf.Load()
	progress := func(done, total int) {}
	if env.isTerminal && c.jsonOut != "-" {
		progress = func(done, total int) { fmt.Fprintf(env.stderr, "\rround %d/%d", done, total) }
	}
	res, err := perf.Run(ctx, cmds, perf.Options{Runs: c.runs, Warmup: c.warmup, Timeout: c.timeout, IgnoreFailure: c.ignoreFailure, Progress: progress})
	if env.isTerminal && c.jsonOut != "-" {
		fmt.Fprint(env.stderr, "\r\033[K")
	}
	if err != nil {
		return exitError, err
	}
	loadAfter := perf.Load()
	if c.jsonOut != "" {
		if err := writeBenchJSON(env, c, res, loadBefore); err != nil {
			return exitError, err
		}
		if c.jsonOut == "-" {
			return benchExit(c, res), nil
		}
	}
	printBenchTable(env.stdout, res, c.minEffect)
	fmt.Fprintf(env.stdout, "\n%d runs each after %d warm-up, alternated; load %.2f before, %.2f after; %s\n", c.runs, c.warmup, loadBefore, loadAfter, perf.Machine())
	return benchExit(c, res), nil
}

// benchExit is 1 when --fail-slower is given and the first command lost.
func benchExit(c *benchCLI, res []perf.Result) int {
	if !c.failSlower {
		return exitMatch
	}
	for _, other := range res[1:] {
		if perf.ComparePaired(res[0].Wall, other.Wall).Verdict(c.minEffect) == perf.Slower {
			return exitNoMatch
		}
	}
	return exitMatch
}

// printBenchTable prints each command's summary, then the comparisons.
func printBenchTable(w io.Writer, res []perf.Result, minEffect float64) {
	for i, r := range res {
		wall, cpu := perf.Summarize(r.Wall), perf.Summarize(r.CPU)
		fmt.Fprintf(w, "#%d %s\n", i+1, r.Command.Name)
		if wall.N < 2 {
			fmt.Fprintf(w, "   wall %s ms (one run: no interval)   cpu %s ms\n", perf.FormatValue(wall.Median), perf.FormatValue(cpu.Median))
			continue
		}
		fmt.Fprintf(w, "   wall %s ms median, 95%% CI %s–%s ms, n=%d, range %s–%s   cpu %s ms\n",
			perf.FormatValue(wall.Median), perf.FormatValue(wall.Lo), perf.FormatValue(wall.Hi), wall.N, perf.FormatValue(wall.Min), perf.FormatValue(wall.Max), perf.FormatValue(cpu.Median))
	}
	if len(res) < 2 {
		return
	}
	fmt.Fprintln(w)
	for _, other := range res[1:] {
		cmp := perf.ComparePaired(res[0].Wall, other.Wall)
		if cmp.N < 2 {
			fmt.Fprintf(w, "%s vs %s: %.2f× from one run: no verdict (give --runs 2 or more)\n", res[0].Command.Name, other.Command.Name, cmp.Ratio)
			continue
		}
		fmt.Fprintf(w, "%s vs %s: %.2f× wall (95%% CI %.2f–%.2f, %d paired runs): %s\n",
			res[0].Command.Name, other.Command.Name, cmp.Ratio, cmp.Lo, cmp.Hi, cmp.N, cmp.Verdict(minEffect))
	}
}

// writeBenchJSON writes the wall and CPU samples of every command.
func writeBenchJSON(env *cliEnv, c *benchCLI, res []perf.Result, load float64) error {
	cas := c.cas
	if cas == "" {
		cas = res[0].Command.Name
	}
	machine, date := perf.Machine(), time.Now().UTC().Format(time.RFC3339)
	var recs []perf.Record
	for i, r := range res {
		pair := ""
		if len(res) == 2 {
			pair = res[1-i].Command.Name
		}
		for _, m := range []struct {
			metric  string
			samples []float64
		}{{"wall", r.Wall}, {"cpu", r.CPU}} {
			recs = append(recs, perf.Record{Area: c.area, Case: cas, Tool: r.Command.Name, Metric: m.metric, Unit: "ms",
				Samples: m.samples, Pair: pair, Lower: true, Source: "alternated", Machine: machine, Load: load, Date: date})
		}
	}
	if c.jsonOut == "-" {
		return perf.WriteRecords(env.stdout, recs)
	}
	f, err := os.OpenFile(c.jsonOut, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	if err := perf.WriteRecords(f, recs); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--json: %w", err)
	}
	return nil
}
