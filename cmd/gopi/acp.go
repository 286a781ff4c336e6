package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/modes/acp"
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/internal/signals"
)

// acpCLI holds the typed flags of `gopi acp`.
type acpCLI struct {
	model, thinking, sessionDir string
	noTitle, help, trustProject bool
}

// newACPFlagSet declares gopi acp's flags on c. It is also what
// completion scripts and the man page are generated from.
func newACPFlagSet(c *acpCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("acp", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVar(&c.model, "model", "", "model new sessions start with (id, provider/id or a fuzzy name; MODEL:LEVEL sets thinking)")
	cliflags.ValueName(fs, "model", "MODEL")
	fs.StringVar(&c.thinking, "thinking", "", "thinking level new sessions start with: off, minimal, low, medium, high, xhigh")
	cliflags.ValueName(fs, "thinking", "LEVEL")
	fs.StringVar(&c.sessionDir, "session-dir", "", "directory for session storage and lookup")
	cliflags.ValueName(fs, "session-dir", "DIR")
	fs.BoolVar(&c.noTitle, "no-title", false, "do not generate session titles")
	fs.BoolVar(&c.trustProject, "trust-project", false, "trust the projects sessions open in: their MCP servers, settings and .env take effect (also PI_TRUST_PROJECT=1)")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const acpHelp = `Usage: gopi acp [FLAGS]

Run gopi as an Agent Client Protocol agent: JSON-RPC 2.0 on standard input
and output, for editors such as Zed (https://agentclientprotocol.com). The
editor starts this command; diagnostics go to standard error.

Sessions are gopi's own (saved under ~/.gopi/agent/sessions/, resumable with
gopi -r and loadable from the editor). A project's own MCP servers,
settings that weaken protections and risky .env variables take effect only
once the project is trusted (--trust-project, PI_TRUST_PROJECT=1, the
trustedProjects setting, or a yes given in gopi's interactive mode there);
otherwise they are left out and the log says so. Every call that may change
files or run programs, a subagent's included, waits for the editor's
permission; the acp.requirePermission setting (default ["*"]; e.g. [write,
edit, ast_edit], or [] for none) says which. When the editor offers it,
files are read from and written to its buffers.

Zed (settings.json):
  "agent_servers": {
    "gopi": { "type": "custom", "command": "gopi", "args": ["acp"] }
  }

Flags:
`

// runACP implements gopi acp.
func runACP(ctx context.Context, env *cliEnv, args []string) int {
	var c acpCLI
	fs := newACPFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "acp", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, acpHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 0 {
		return fail(env, "acp", cliflags.Usagef("unexpected argument %q: the editor sends the prompts over the protocol", fs.Arg(0)))
	}
	opts := acp.Options{
		Environ:      env.environ,
		Version:      version,
		Log:          env.stderr,
		HTTPClient:   env.httpClient,
		Logins:       env.signIns(),
		SessionDir:   c.sessionDir,
		Model:        c.model,
		NoTitle:      c.noTitle,
		TrustProject: c.trustProject,
	}
	if c.thinking != "" {
		l, ok := ai.ParseThinkingLevel(c.thinking)
		if !ok {
			return fail(env, "acp", cliflags.Usagef("unknown --thinking level %q: use off, minimal, low, medium, high or xhigh", c.thinking))
		}
		opts.Thinking = l
	}
	// A closed pipe makes writes fail instead of killing the process.
	signals.CatchBrokenPipe()
	// An editor stops its agent with SIGTERM (or the terminal goes with
	// SIGHUP): the sessions close as when the input ends, so what a run
	// has recorded stays in its file.
	ctx, _, stopTrap := signals.TrapTerm(ctx)
	defer stopTrap()
	if err := acp.Serve(ctx, env.stdin, env.stdout, opts); err != nil && !errors.Is(err, context.Canceled) {
		return fail(env, "acp", err)
	}
	return exitMatch
}
