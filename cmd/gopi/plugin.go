package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/plugins"
)

func init() {
	commands["plugin"] = command{"manage marketplaces and plugins (marketplace add, discover, install, uninstall, list, …)", runPlugin}
	commands["plugins"] = command{"the same as plugin", runPlugin}
}

// pluginHelp is `gopi plugin --help`.
const pluginHelp = `Usage: gopi plugin <subcommand> [--scope user|project] [--force] [--json]

Plugins in Claude Code's marketplace format: a marketplace is a Git
repository or a directory with .claude-plugin/marketplace.json; its
plugins contribute skills, /commands, hooks, MCP servers and language
servers to new sessions. User-scope installs are recorded in the agent
directory (plugins/installed_plugins.json), project-scope ones in
.gopi/plugins/ and win over the user's; omp's installed plugins are read
after gopi's. --plugin-dir DIR on the agent loads a plugin for one run.

`

// runPlugin implements `gopi plugin`.
func runPlugin(ctx context.Context, env *cliEnv, args []string) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprint(env.stdout, pluginHelp+plugins.CommandUsage+"\n")
			return exitMatch
		}
	}
	inv, err := plugins.ParseInvocation(args)
	if err != nil {
		return fail(env, "plugin", fmt.Errorf("%v (see 'gopi plugin --help')", err))
	}
	err = plugins.Run(ctx, plugins.ManagerFor(env.cfg), plugins.SourcesFor(env.cfg), inv, env.stdout)
	if errors.Is(err, plugins.ErrUsage) {
		msg := strings.TrimPrefix(err.Error(), plugins.ErrUsage.Error()+": ")
		return fail(env, "plugin", fmt.Errorf("%s (see 'gopi plugin --help')", msg))
	}
	if err != nil {
		return fail(env, "plugin", err)
	}
	return exitMatch
}
