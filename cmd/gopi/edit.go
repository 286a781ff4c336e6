package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// editCLI holds the typed flags of `gopi edit`.
type editCLI struct {
	mode, input string
	json, help  bool
}

// newEditFlagSet declares gopi edit's flags on c. It is also what
// completion scripts and the man page are generated from.
func newEditFlagSet(c *editCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("edit", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVarP(&c.mode, "mode", "m", "", "hashline, replace, patch, apply_patch or vim (default: PI_EDIT_VARIANT, else hashline)")
	cliflags.ValueName(fs, "mode", "MODE")
	fs.StringVarP(&c.input, "input", "i", "", "read the edit input from `FILE` instead of standard input")
	fs.BoolVar(&c.json, "json", false, "print the whole tool result (content, details with the unified diff, isError) as JSON")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const editUsage = `Usage: gopi edit [--mode MODE] [--input FILE] [--json]

Apply an edit, exactly as the agent's edit tool would, and print the tool's
result. The input is read from standard input unless --input is given:

  hashline     "@@ PATH" sections of anchored operations (+ A, < A, - A..B,
               = A..B, payload lines "~TEXT"); anchors come from 'gopi read'
  replace      a JSON object {"path", "edits": [{"old_text", "new_text", "all"}, ...]}
  patch        a JSON object {"path", "edits": [{"op", "rename", "diff"}]}
               with diff hunks (update) or the content (create)
  apply_patch  a "*** Begin Patch" ... "*** End Patch" patch
  vim          a JSON object {"file", "steps": [{"kbd", "insert"}], "pause"};
               the buffer lives for this one call

A Jupyter notebook (.ipynb) is edited in every mode as the cell text
'gopi read' shows ("# %% [code] cell:N" lines, each followed by the cell's
source); only the cells the edit changes are rewritten, outputs kept.

Relative paths start at the current directory. Nothing is written when a
hashline edit fails; replace, patch and apply_patch apply each entry (each
replacement, each operation, each file section of an apply_patch patch) in
order and on its own: one that fails changes nothing and is reported, the
others still run.

Exit status: 0 when the edit was applied, 2 when it failed, or when one of
the files of an apply_patch patch failed (the tool's error text goes to
standard error; for a partly applied apply_patch patch the result, naming
the failures, goes to standard output).

Flags:
`

func runEdit(ctx context.Context, env *cliEnv, args []string) int {
	var c editCLI
	fs := newEditFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "edit", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, editUsage+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 0 {
		return fail(env, "edit", cliflags.Usagef("unexpected argument %q; the edit input comes from standard input or --input", fs.Arg(0)))
	}
	tenv := tool.NewEnvFrom(env.cfg)
	tenv.ReadCache = nil // one call per process: nothing would ever read it back
	mode := tenv.Settings.EditMode
	if c.mode != "" {
		parsed, ok := tool.ParseEditMode(c.mode)
		if !ok || parsed == tool.EditAtom {
			return fail(env, "edit", cliflags.Usagef("--mode must be hashline, replace, patch, apply_patch or vim, got %q", c.mode))
		}
		mode = parsed
	}
	var input []byte
	var err error
	if c.input != "" {
		input, err = os.ReadFile(c.input)
	} else {
		input, err = io.ReadAll(env.stdin)
	}
	if err != nil {
		return fail(env, "edit", fmt.Errorf("cannot read the edit input: %w", err))
	}
	t := edit.NewMode(tenv, mode)
	var raw json.RawMessage
	if t.Mode() == tool.EditReplace || t.Mode() == tool.EditPatch || t.Mode() == tool.EditVim {
		raw = input
	} else {
		raw, _ = json.Marshal(map[string]string{"input": string(input)})
	}
	res, err := tool.Run(ctx, t, raw, nil)
	if err != nil && res == nil {
		return fail(env, "edit", err)
	}
	if c.json {
		out, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintf(env.stdout, "%s\n", out)
	} else if res.IsError {
		fmt.Fprintln(env.stderr, strings.TrimRight(res.FirstText(), "\n"))
	} else {
		fmt.Fprintln(env.stdout, strings.TrimRight(res.FirstText(), "\n"))
	}
	if res.IsError || partlyFailed(res) {
		return exitError
	}
	return exitMatch
}

// partlyFailed reports whether an edit result that is not an error lists
// a file whose operation failed (an apply_patch patch where the other
// files were applied).
func partlyFailed(res *tool.Result) bool {
	d, ok := res.Details.(*edit.Details)
	if !ok {
		return false
	}
	for _, f := range d.PerFileResults {
		if f.IsError {
			return true
		}
	}
	return false
}
