package main

import (
	"context"
	"errors"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/modes/acp"
)

var acpFlags = []flagSpec{
	{long: "model", value: "MODEL", help: "model new sessions start with (id, provider/id or a fuzzy name; MODEL:LEVEL sets thinking)"},
	{long: "thinking", value: "LEVEL", help: "thinking level new sessions start with: off, minimal, low, medium, high, xhigh"},
	{long: "session-dir", value: "DIR", help: "directory for session storage and lookup"},
	{long: "no-title", help: "do not generate session titles"},
	{short: 'h', long: "help", help: "show this help"},
}

const acpHelp = `Usage: gopi acp [FLAGS]

Run gopi as an Agent Client Protocol agent: JSON-RPC 2.0 on standard input
and output, for editors such as Zed (https://agentclientprotocol.com). The
editor starts this command; diagnostics go to standard error.

Sessions are gopi's own (saved under ~/.gopi/agent/sessions/, resumable with
gopi -r and loadable from the editor). The tools named in the
acp.requirePermission setting (e.g. [write, edit, ast_edit]) ask the editor
for permission before they run. When the editor offers it, files are read
from and written to its buffers.

Zed (settings.json):
  "agent_servers": {
    "gopi": { "type": "custom", "command": "gopi", "args": ["acp"] }
  }

Flags:
`

// runACP implements gopi acp.
func runACP(ctx context.Context, env *cliEnv, args []string) int {
	p, err := parseArgs(acpFlags, args)
	if err != nil {
		return fail(env, "acp", err)
	}
	if p.flag("help") {
		fmt.Fprint(env.stdout, acpHelp+helpText(acpFlags))
		return exitMatch
	}
	if len(p.rest) > 0 {
		return fail(env, "acp", usagef("unexpected argument %q: the editor sends the prompts over the protocol", p.rest[0]))
	}
	opts := acp.Options{
		Environ:    env.environ,
		Version:    version,
		Log:        env.stderr,
		HTTPClient: env.httpClient,
		SessionDir: p.str("session-dir", ""),
		Model:      p.str("model", ""),
		NoTitle:    p.flag("no-title"),
	}
	if t := p.str("thinking", ""); t != "" {
		l, ok := ai.ParseThinkingLevel(t)
		if !ok {
			return fail(env, "acp", usagef("unknown --thinking level %q: use off, minimal, low, medium, high or xhigh", t))
		}
		opts.Thinking = l
	}
	// A closed pipe makes writes fail instead of killing the process.
	signal.Ignore(syscall.SIGPIPE)
	if err := acp.Serve(ctx, env.stdin, env.stdout, opts); err != nil && !errors.Is(err, context.Canceled) {
		return fail(env, "acp", err)
	}
	return exitMatch
}
