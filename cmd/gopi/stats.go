package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/usagestats"
	"github.com/gopi-agent/gopi/core/usagestats/dashboard"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["stats"] = command{"sessions, requests, tokens, cost and tool calls over every session in the agent directory", runStats}
	commandFlagSets["stats"] = func() *pflag.FlagSet { return newStatsFlagSet(&statsCLI{}) }
}

// statsCacheFile keeps each session file's sums between runs, in the
// agent directory.
const statsCacheFile = "stats-cache.gob"

// statsCLI holds the flags of `gopi stats`.
type statsCLI struct {
	port                        int
	json, summary, rescan, help bool
}

// newStatsFlagSet declares gopi stats's flags on c.
func newStatsFlagSet(c *statsCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("stats", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVarP(&c.json, "json", "j", false, "print the statistics as JSON")
	fs.BoolVarP(&c.summary, "summary", "s", false, "print the summary (what gopi stats prints anyway)")
	fs.BoolVar(&c.rescan, "rescan", false, "read every session file again instead of taking unchanged ones from the cache")
	cliflags.NonNegIntVarP(fs, &c.port, "port", "p", dashboard.DefaultPort, "serve the dashboard on this port of 127.0.0.1 (0: a free one) until Ctrl+C")
	cliflags.ValueName(fs, "port", "PORT")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const statsHelp = `Usage: gopi stats [--json | --summary | --port PORT]

Add up every session in the agent directory (sessions/ below it, with
the subagents' sessions): sessions, requests and errors, input, output
and cached tokens, cost, average duration, time to first token and output
rate, then the same by model and by project folder, and the tool calls by
tool. The sums of each file are kept in stats-cache.gob in the agent
directory, so a later run reads only new and changed files (--rescan reads
them all).

With --port, gopi stats serves omp's dashboard instead of printing the
summary: a page at http://localhost:PORT/ drawing the same numbers, and
their JSON at /api/stats (what --json prints; /api/stats/overall, /models,
/folders and /tools give its parts; /api/sync reads the sessions again),
until Ctrl+C. It listens on 127.0.0.1 only and opens no browser. Without
--port the summary is printed (omp serves the dashboard by default).

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
	cache := filepath.Join(env.cfg.AgentDir, statsCacheFile)
	if c.rescan {
		if err := os.Remove(cache); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fail(env, "stats", err)
		}
	}
	r, err := usagestats.Scan(ctx, usagestats.Options{Dirs: []string{env.cfg.SessionsDir()}, Cache: cache})
	if r == nil {
		return fail(env, "stats", err)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi stats: warning: the cache was not saved (%v); the next run reads every file again\n", err)
	}
	if c.json {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return fail(env, "stats", err)
		}
		fmt.Fprintf(env.stdout, "%s\n", b)
		return exitMatch
	}
	fmt.Fprintf(env.stdout, "Read %d session files, %d of them unchanged since the last run (%d requests)\n", r.Files, r.Cached, r.Overall.Requests)
	if r.Unreadable > 0 {
		fmt.Fprintf(env.stderr, "gopi stats: %s\n", unreadableText(r))
	}
	if fs.Changed("port") && !c.summary {
		return serveStats(ctx, env, c.port, dashboard.New(r, func(ctx context.Context) (*usagestats.Report, error) {
			return usagestats.Scan(ctx, usagestats.Options{Dirs: []string{env.cfg.SessionsDir()}, Cache: cache})
		}))
	}
	r.WriteSummary(env.stdout)
	return exitMatch
}

// serveStats serves the dashboard on 127.0.0.1:port until ctx ends
// (Ctrl+C).
func serveStats(ctx context.Context, env *cliEnv, port int, srv *dashboard.Server) int {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fail(env, "stats", fmt.Errorf("cannot listen on port %d (%w); choose another with --port, or 0 for a free one", port, err))
	}
	fmt.Fprintf(env.stdout, "Dashboard available at: http://localhost:%d\nPress Ctrl+C to stop\n", ln.Addr().(*net.TCPAddr).Port)
	if err := dashboard.Serve(ctx, ln, srv); err != nil {
		return fail(env, "stats", err)
	}
	fmt.Fprintln(env.stdout, "\nShutting down...")
	return exitMatch
}

// unreadableText says how many session files could not be read, naming
// the first few with the reason, e.g. "1 session file could not be read
// and was skipped: /s/a.jsonl (a symbolic link to a missing file)".
func unreadableText(r *usagestats.Report) string {
	noun, verb := "session files", "were"
	if r.Unreadable == 1 {
		noun, verb = "session file", "was"
	}
	named := make([]string, 0, len(r.UnreadableFiles))
	for _, f := range r.UnreadableFiles {
		named = append(named, fmt.Sprintf("%s (%s)", f.Path, f.Reason))
	}
	text := fmt.Sprintf("%d %s could not be read and %s skipped: %s", r.Unreadable, noun, verb, strings.Join(named, ", "))
	if more := r.Unreadable - len(named); more > 0 {
		text += fmt.Sprintf(" and %d more", more)
	}
	return text
}
