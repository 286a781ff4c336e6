package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/tools/registry"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// newToolFlagSet declares gopi tool's flags on c.
func newToolFlagSet(c *toolCallCLI) *pflag.FlagSet {
	return newToolCallFlagSet("tool", "edit mode setting for the call (hashline, replace, patch, apply_patch, vim)", c)
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
	var c toolCallCLI
	fs := newToolFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "tool", err)
	}
	if c.help {
		fmt.Fprintf(env.stdout, toolUsage, strings.Join(registry.Names(), ", "))
		fmt.Fprint(env.stdout, cliflags.Help(fs))
		return exitMatch
	}
	rest := fs.Args()
	if len(rest) < 1 || len(rest) > 2 {
		return fail(env, "tool", cliflags.Usagef("expected NAME [ARGS_JSON]"))
	}
	var raw []byte
	if len(rest) == 2 && rest[1] != "-" {
		raw = []byte(rest[1])
	} else {
		var err error
		if raw, err = io.ReadAll(env.stdin); err != nil {
			return fail(env, "tool", fmt.Errorf("read arguments from stdin: %w", err))
		}
	}
	return callTool(ctx, env, rest[0], json.RawMessage(raw), c.editMode, c.json)
}
