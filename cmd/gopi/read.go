package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/registry"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// toolCallCLI holds the typed flags of the commands that run one tool
// call, `gopi read` and `gopi tool`.
type toolCallCLI struct {
	json, help bool
	editMode   string
}

// newToolCallFlagSet declares the flags of the tool-call command name on c;
// editModeHelp says what --edit-mode does for it. It is also what
// completion scripts and the man page are generated from.
func newToolCallFlagSet(name, editModeHelp string, c *toolCallCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVar(&c.json, "json", false, "print the whole tool result (content, details, isError) as JSON")
	fs.StringVar(&c.editMode, "edit-mode", "", editModeHelp)
	cliflags.ValueName(fs, "edit-mode", "MODE")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

// newReadFlagSet declares gopi read's flags on c.
func newReadFlagSet(c *toolCallCLI) *pflag.FlagSet {
	return newToolCallFlagSet("read", "edit mode deciding the line prefixes: hashline (anchors, default) or replace, patch, apply_patch, vim (line numbers); PI_EDIT_VARIANT sets the default", c)
}

const readUsage = `Usage: gopi read [FLAGS] PATH[:SELECTOR]

Run the agent's read tool and print exactly what it returns to the model.
PATH is a file, a directory (a tree two levels deep), artifact://ID or an
http(s) URL (a web page as markdown, an image, a document). Images print
their description (the image itself goes to the model); PDF, docx, xlsx,
pptx, epub and rtf files print their text.
SELECTOR is N (from line N), A-B (lines A to B), A+C (C lines from A) and/or
raw (no line prefixes), e.g. main.go:10-20, main.go:raw, main.go:5+3:raw.
Lines are prefixed with their hashline anchor (LINE + 2 letters + '|').

Also: archives (a.zip, a.tar, a.tgz: members listed; a.zip:dir/f.go:10-20
reads one), SQLite databases (app.db: tables; app.db:TABLE: schema and first
rows; app.db:TABLE:KEY: a row; app.db:TABLE?where=…&order=COL:desc&limit=N
&offset=N: a page; 'app.db?q=SELECT …': a read-only query) and Jupyter
notebooks (nb.ipynb as "# %% [code] cell:N" text; nb.ipynb:raw for the JSON).
A long Go, Python, JavaScript/TypeScript or Rust file given without a
selector prints as a structural summary (function bodies as "..."); add :raw
or a line range for the verbatim text.

Exit status: 0 on success, 2 when the tool reports an error (printed on
stderr exactly as the model would see it).

Flags:
`

func runRead(ctx context.Context, env *cliEnv, args []string) int {
	var c toolCallCLI
	fs := newReadFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "read", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, readUsage+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() != 1 {
		return fail(env, "read", cliflags.Usagef("expected one PATH[:SELECTOR], got %d arguments", fs.NArg()))
	}
	raw, _ := json.Marshal(map[string]string{"path": fs.Arg(0)})
	return callTool(ctx, env, "read", raw, c.editMode, c.json)
}

// callTool runs a built-in tool once in the current directory and prints its
// result: the text on stdout (on stderr for an error result), or the whole
// result as JSON. editMode, when set, overrides the edit mode setting.
func callTool(ctx context.Context, env *cliEnv, name string, args json.RawMessage, editMode string, asJSON bool) int {
	tenv := tool.NewEnvFrom(env.cfg)
	// One call: the command's own scan cache (read's path suggestions
	// honour the global excludes file through its policy), no other cache.
	tenv.Caches = &tool.Caches{Scan: env.scan}
	// The tool's session ends with the call: its shell and whatever the
	// command left running (background processes, jobs) are ended.
	svc := registry.NewServices(tenv)
	defer svc.Close()
	if editMode != "" {
		m, ok := tool.ParseEditMode(editMode)
		if !ok {
			return fail(env, name, cliflags.Usagef("unknown edit mode %q; use hashline, replace, patch or apply_patch", editMode))
		}
		tenv.Settings.EditMode = m
	}
	t, err := registry.New(name, tenv, svc)
	if err != nil {
		return fail(env, "tool", cliflags.Usagef("unknown tool %q", name))
	}
	res, err := tool.Run(ctx, t, args, nil)
	if err != nil {
		return fail(env, name, err)
	}
	if asJSON {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return fail(env, name, err)
		}
		fmt.Fprintln(env.stdout, string(b))
	} else if res.IsError {
		fmt.Fprintln(env.stderr, res.FirstText())
	} else {
		fmt.Fprintln(env.stdout, res.FirstText())
	}
	if res.IsError {
		return exitError
	}
	return exitMatch
}
