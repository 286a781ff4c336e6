package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/plugins"
	"github.com/gopi-agent/gopi/core/tools/task"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["agents"] = command{"list and show the task tool's agent definitions; unpack the bundled ones to edit them", runAgents}
	commandFlagSets["agents"] = func() *pflag.FlagSet { return newAgentsFlagSet(&agentsCLI{}) }
}

// agentsCLI holds the flags of `gopi agents`.
type agentsCLI struct {
	force, json, user, project, help bool
	dir                              string
}

// newAgentsFlagSet declares gopi agents's flags on c.
func newAgentsFlagSet(c *agentsCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("agents", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVar(&c.json, "json", false, "print JSON")
	fs.BoolVarP(&c.force, "force", "f", false, "unpack: overwrite existing agent files")
	fs.StringVar(&c.dir, "dir", "", "unpack: write into `DIR` (instead of --user or --project)")
	fs.BoolVar(&c.user, "user", false, "unpack: write to <agent dir>/agents (the default)")
	fs.BoolVar(&c.project, "project", false, "unpack: write to ./.gopi/agents")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const agentsHelp = `Usage: gopi agents [list | show NAME | unpack [--user | --project | --dir DIR] [--force]] [--json]

The agent definitions the task tool starts subagents from: the project's
(.gopi/agents, then omp's .omp/agents), the user's (<agent dir>/agents,
then ~/.omp/agent/agents) and the bundled ones; the first definition of a
name wins.

  list           every definition in force: name, where it comes from,
                 its description (the default)
  show NAME      one definition: its file, tools, spawns, models, thinking
                 level and prompt
  unpack         write the bundled definitions as NAME.md files to edit
                 (existing files are kept unless --force)

Flags:
`

// runAgents implements `gopi agents`.
func runAgents(_ context.Context, env *cliEnv, args []string) int {
	var c agentsCLI
	fs := newAgentsFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "agents", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, agentsHelp+cliflags.Help(fs))
		return exitMatch
	}
	action, words := subAction(fs.Args(), "list")
	var err error
	switch action {
	case "list":
		err = agentsList(env, c.json)
	case "show":
		if len(words) != 1 {
			return fail(env, "agents", cliflags.Usagef("usage: gopi agents show NAME ('gopi agents' lists the names)"))
		}
		err = agentsShow(env, words[0], c.json)
	case "unpack":
		err = agentsUnpack(env, c)
	default:
		err = cliflags.Usagef("unknown agents action %q; use list, show or unpack", action)
	}
	if err != nil {
		return fail(env, "agents", err)
	}
	return exitMatch
}

// agentsList prints the definitions in force.
func agentsList(env *cliEnv, asJSON bool) error {
	agents, problems := task.Discover(env.cfg.Dirs, plugins.InstalledAgentDirs(env.cfg)...)
	for _, p := range problems {
		fmt.Fprintf(env.stderr, "gopi agents: warning: %v\n", p)
	}
	if asJSON {
		out := make([]map[string]any, 0, len(agents))
		for _, a := range agents {
			out = append(out, agentJSON(a))
		}
		return writeJSON(env.stdout, out)
	}
	tw := tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tDESCRIPTION")
	for _, a := range agents {
		desc, _, _ := strings.Cut(a.Description, "\n")
		fmt.Fprintf(tw, "%s\t%s\t%s\n", a.Name, a.Source, desc)
	}
	return tw.Flush()
}

// agentsShow prints one definition.
func agentsShow(env *cliEnv, name string, asJSON bool) error {
	agents, _ := task.Discover(env.cfg.Dirs, plugins.InstalledAgentDirs(env.cfg)...)
	var names []string
	for _, a := range agents {
		if a.Name != name {
			names = append(names, a.Name)
			continue
		}
		if asJSON {
			return writeJSON(env.stdout, agentJSON(a))
		}
		fmt.Fprintf(env.stdout, "Name: %s\nSource: %s\nFile: %s\nDescription: %s\n", a.Name, a.Source, a.Path, a.Description)
		list := func(label string, v []string, none string) {
			if len(v) == 0 {
				fmt.Fprintf(env.stdout, "%s: %s\n", label, none)
			} else {
				fmt.Fprintf(env.stdout, "%s: %s\n", label, strings.Join(v, ", "))
			}
		}
		list("Tools", a.Tools, "all")
		list("Spawns", a.Spawns, "none")
		list("Models", a.Models, "the parent's")
		thinking := string(a.Thinking)
		if thinking == "" {
			thinking = "the parent's"
		}
		fmt.Fprintf(env.stdout, "Thinking: %s\nBlocking: %v\n\n%s\n", thinking, a.Blocking, a.Prompt)
		return nil
	}
	return fmt.Errorf("no agent named %q; the agents are: %s", name, strings.Join(names, ", "))
}

// agentJSON is a definition as --json prints it.
func agentJSON(a *task.Agent) map[string]any {
	return map[string]any{"name": a.Name, "description": a.Description, "source": a.Source, "path": a.Path,
		"tools": a.Tools, "spawns": a.Spawns, "models": a.Models, "thinkingLevel": a.Thinking, "blocking": a.Blocking, "prompt": a.Prompt}
}

// agentsUnpack writes the bundled definitions out.
func agentsUnpack(env *cliEnv, c agentsCLI) error {
	var dir string
	switch {
	case strings.TrimSpace(c.dir) != "":
		dir = c.dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(env.cfg.Cwd, dir)
		}
	case c.user && c.project:
		return cliflags.Usagef("choose --user or --project, not both")
	case c.project:
		dir = filepath.Join(env.cfg.ProjectDir, "agents")
	default:
		dir = filepath.Join(env.cfg.AgentDir, "agents")
	}
	res, err := task.Unpack(dir, c.force)
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(env.stdout, res)
	}
	fmt.Fprintf(env.stdout, "Bundled agents: %d\nTarget directory: %s\nWritten: %d\n", res.Total, res.TargetDir, len(res.Written))
	if len(res.Skipped) > 0 {
		fmt.Fprintf(env.stdout, "Skipped existing: %d (use --force to overwrite)\n", len(res.Skipped))
	}
	for _, p := range res.Written {
		fmt.Fprintf(env.stdout, "  + %s\n", p)
	}
	for _, p := range res.Skipped {
		fmt.Fprintf(env.stdout, "  = %s\n", p)
	}
	return nil
}
