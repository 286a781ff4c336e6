package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/autoqa"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["grievances"] = command{"list or clean the tool issues models reported through auto-QA (omp's autoqa.db)", runGrievances}
	commandFlagSets["grievances"] = func() *pflag.FlagSet { return newGrievancesFlagSet(&grievancesCLI{}) }
}

// grievancesCLI holds the flags of `gopi grievances`.
type grievancesCLI struct {
	limit           int
	id              int
	tool            string
	json, all, help bool
}

// newGrievancesFlagSet declares gopi grievances's flags on c.
func newGrievancesFlagSet(c *grievancesCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("grievances", pflag.ContinueOnError)
	fs.SortFlags = false
	cliflags.NonNegIntVarP(fs, &c.limit, "limit", "n", 20, "list: show the `N` most recent (default 20)")
	fs.StringVarP(&c.tool, "tool", "t", "", "only those of the tool `NAME` (list, clean)")
	fs.BoolVarP(&c.json, "json", "j", false, "print JSON")
	cliflags.NonNegIntVarP(fs, &c.id, "id", "", 0, "clean: delete the grievance `ID`")
	fs.BoolVar(&c.all, "all", false, "clean: delete every grievance")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const grievancesHelp = `Usage: gopi grievances [list | clean] [flags]

The tool issues models reported through auto-QA (omp's report_tool_issue
tool, with PI_AUTO_QA=1 or the dev.autoqa setting), kept in autoqa.db in
the agent directory: gopi's when there is one, else omp's
(~/.omp/agent/autoqa.db). gopi has no report_tool_issue tool, so it reads
and cleans what omp recorded.

  list    the most recent grievances, newest first (the default)
  clean   delete grievances: exactly one of --id, --tool or --all

Flags:
`

// runGrievances implements `gopi grievances`.
func runGrievances(ctx context.Context, env *cliEnv, args []string) int {
	var c grievancesCLI
	fs := newGrievancesFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "grievances", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, grievancesHelp+cliflags.Help(fs))
		return exitMatch
	}
	action, rest := subAction(fs.Args(), "list")
	if len(rest) > 0 || (action != "list" && action != "clean") {
		return fail(env, "grievances", cliflags.Usagef("unknown grievances action %q; use list or clean", fs.Arg(fs.NArg()-1)))
	}
	path := filepath.Join(env.cfg.AgentDir, autoqa.FileName)
	if _, err := os.Stat(path); err != nil && env.cfg.OMPAgentDir != "" {
		path = filepath.Join(env.cfg.OMPAgentDir, autoqa.FileName)
	}
	db, err := autoqa.Open(path, action == "list")
	if errors.Is(err, autoqa.ErrNoDatabase) {
		switch {
		case c.json && action == "list":
			fmt.Fprintln(env.stdout, "[]")
		case c.json:
			fmt.Fprintln(env.stdout, `{"deleted":0}`)
		default:
			fmt.Fprintln(env.stdout, "No grievances database found. omp records them with PI_AUTO_QA=1 or the dev.autoqa setting; gopi has no report_tool_issue tool.")
		}
		return exitMatch
	}
	if err != nil {
		return fail(env, "grievances", err)
	}
	defer db.Close()
	if action == "clean" {
		n, err := db.Delete(ctx, autoqa.Selector{ID: int64(c.id), Tool: c.tool, All: c.all})
		if err != nil {
			return fail(env, "grievances", err)
		}
		if c.json {
			fmt.Fprintf(env.stdout, "{\"deleted\":%d}\n", n)
		} else {
			fmt.Fprintf(env.stdout, "Deleted %d grievance(s) from %s\n", n, path)
		}
		return exitMatch
	}
	rows, err := db.List(ctx, c.limit, c.tool)
	if err != nil {
		return fail(env, "grievances", err)
	}
	if c.json {
		if err := writeJSON(env.stdout, rows); err != nil {
			return fail(env, "grievances", err)
		}
		return exitMatch
	}
	if len(rows) == 0 {
		fmt.Fprintln(env.stdout, "No grievances recorded yet.")
		return exitMatch
	}
	for _, g := range rows {
		fmt.Fprintf(env.stdout, "#%d %s (%s v%s)\n  %s\n\n", g.ID, g.Tool, g.Model, g.Version, g.Report)
	}
	suffix := ""
	if c.tool != "" {
		suffix = " for " + c.tool
	}
	fmt.Fprintf(env.stdout, "Showing %d most recent%s\n", len(rows), suffix)
	return exitMatch
}
