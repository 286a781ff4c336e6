package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gopi-agent/gopi/core/tools/registry"
)

var toolFlags = []flagSpec{
	{long: "json", help: "print the whole tool result (content, details, isError) as JSON"},
	{long: "edit-mode", value: "MODE", help: "edit mode setting for the call (hashline, replace, patch, apply_patch)"},
	{short: 'h', long: "help", help: "show this help"},
}

const toolUsage = `Usage: gopi tool [FLAGS] NAME [ARGS_JSON]

Call one of the agent's built-in tools with JSON arguments (from ARGS_JSON,
or from stdin when it is absent or "-") in the current directory, and print
what it returns to the model: the text on stdout, or on stderr with exit
status 2 when the tool reports an error. Arguments are validated against the
tool's schema first, as for the model.

Examples:
  gopi tool search '{"pattern": "func main", "paths": ["."]}'
  gopi tool find '{"paths": ["**/*.go"], "limit": 20}'
  echo '{"path": "notes.txt", "content": "hi\n"}' | gopi tool write

Tools: %s

Flags:
`

func runToolCmd(ctx context.Context, env *cliEnv, args []string) int {
	p, err := parseArgs(toolFlags, args)
	if err != nil {
		return fail(env, "tool", err)
	}
	if p.flag("help") {
		fmt.Fprintf(env.stdout, toolUsage, strings.Join(registry.Names(), ", "))
		fmt.Fprint(env.stdout, helpText(toolFlags))
		return exitMatch
	}
	if len(p.rest) < 1 || len(p.rest) > 2 {
		return fail(env, "tool", usagef("expected NAME [ARGS_JSON]"))
	}
	var raw []byte
	if len(p.rest) == 2 && p.rest[1] != "-" {
		raw = []byte(p.rest[1])
	} else if raw, err = io.ReadAll(env.stdin); err != nil {
		return fail(env, "tool", fmt.Errorf("read arguments from stdin: %w", err))
	}
	return callTool(ctx, env, p.rest[0], json.RawMessage(raw), p.str("edit-mode", ""), p.flag("json"))
}
