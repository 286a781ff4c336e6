package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/usagestats"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["stats"] = command{"sessions, requests, tokens, cost and tool calls over every session in the agent directory", runStats}
	commandFlagSets["stats"] = func() *pflag.FlagSet { return newStatsFlagSet(&statsCLI{}) }
}

// statsCLI holds the flags of `gopi stats`.
type statsCLI struct {
	port                int
	json, summary, help bool
}

// newStatsFlagSet declares gopi stats's flags on c.
func newStatsFlagSet(c *statsCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("stats", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVarP(&c.json, "json", "j", false, "print the statistics as JSON")
	fs.BoolVarP(&c.summary, "summary", "s", false, "print the summary (what gopi stats prints anyway)")
	cliflags.NonNegIntVarP(fs, &c.port, "port", "p", 3847, "accepted for omp's dashboard port; gopi has no web dashboard")
	cliflags.ValueName(fs, "port", "PORT")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const statsHelp = `Usage: gopi stats [--json | --summary]

Add up every session in the agent directory (sessions/ below it, with
the subagents' sessions): sessions, requests and errors, input, output
and cached tokens, cost, average duration, time to first token and output
rate, then the same by model and by project folder, and the tool calls by
tool. Each run reads the session files afresh (no database to sync); omp's
web dashboard has no counterpart, so the summary is printed either way.

Flags:
`

// runStats implements `gopi stats`.
func runStats(ctx context.Context, env *cliEnv, args []string) int {
	var c statsCLI
	fs := newStatsFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "stats", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, statsHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 0 {
		return fail(env, "stats", cliflags.Usagef("gopi stats takes no arguments, got %q", fs.Arg(0)))
	}
	r, err := usagestats.Scan(ctx, usagestats.Options{Dirs: []string{env.cfg.SessionsDir()}})
	if err != nil {
		return fail(env, "stats", err)
	}
	if c.json {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return fail(env, "stats", err)
		}
		fmt.Fprintf(env.stdout, "%s\n", b)
		return exitMatch
	}
	fmt.Fprintf(env.stdout, "Read %d session files (%d requests)\n", r.Files, r.Overall.Requests)
	if r.Unreadable > 0 {
		fmt.Fprintf(env.stderr, "gopi stats: %d session files could not be read (check their permissions)\n", r.Unreadable)
	}
	r.WriteSummary(env.stdout)
	return exitMatch
}
