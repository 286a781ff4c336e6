package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/ast/astcli"
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// astRunCLI holds the typed flags of `gopi ast run` and `gopi ast scan`.
type astRunCLI struct {
	pattern, rewrite, lang, strictness string
	hasRewrite                         bool     // run: -r was given (an empty one deletes)
	rules                              []string // scan: rule files
	inlineRules                        string
	updateAll                          bool
	json                               string
	after, before, context             int
	globs                              []string
	noHidden                           bool
	noIgnore                           astNoIgnore
	index                              astIndexFlags
	maxFiles                           int
	timeout                            time.Duration
	help                               bool
}

// newASTRunFlagSet declares the flags of `gopi ast run` (scan false) or
// `gopi ast scan` (scan true). It is also what completion scripts and the
// man page are generated from.
func newASTRunFlagSet(c *astRunCLI, scan bool) *pflag.FlagSet {
	name := "ast run"
	if scan {
		name = "ast scan"
	}
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	if scan {
		fs.StringArrayVarP(&c.rules, "rule", "r", nil, "read rules from the YAML `FILE` (repeatable; several documents separated by ---)")
		fs.StringVar(&c.inlineRules, "inline-rules", "", "rules given as YAML `TEXT`")
	} else {
		fs.StringVarP(&c.pattern, "pattern", "p", "", "the AST `PATTERN` (required)")
		fs.StringVarP(&c.rewrite, "rewrite", "r", "", "replace matches with `TEMPLATE` (captures substituted; empty deletes); shows the changes unless -U")
		fs.StringVarP(&c.lang, "lang", "l", "", "search only files of `LANG` (default: every file, language from its extension)")
		fs.StringVar(&c.strictness, "strictness", "smart", "pattern matching `LEVEL`: cst, smart, ast, relaxed, signature or template")
	}
	fs.BoolVarP(&c.updateAll, "update-all", "U", false, "apply every rewrite without asking")
	fs.StringVar(&c.json, "json", "", "print JSON: `STYLE` pretty (the default for a bare --json; an array), compact (an array on one line) or stream (one object per line)")
	fs.Lookup("json").NoOptDefVal = "pretty"
	fs.IntVarP(&c.after, "after", "A", 0, "show `N` lines after each match")
	fs.IntVarP(&c.before, "before", "B", 0, "show `N` lines before each match")
	fs.IntVarP(&c.context, "context", "C", 0, "show `N` lines around each match")
	fs.StringArrayVar(&c.globs, "globs", nil, "search only files matching `GLOB` below the given directories; !GLOB excludes; the last match wins; one naming node_modules searches it (repeatable)")
	fs.BoolVar(&c.noHidden, "no-hidden", false, "skip hidden files and directories")
	addASTNoIgnoreFlag(fs, &c.noIgnore)
	c.index.add(fs)
	fs.IntVar(&c.maxFiles, "max-files", 0, "with a rewrite: change at most `N` files (default: PI_MAX_AST_FILES or 1000)")
	fs.DurationVar(&c.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5s; 0: never)")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const astRunUsage = `Usage: gopi ast run -p PATTERN [-r TEMPLATE [-U]] [-l LANG] [FLAGS] [PATH...]

ast-grep's run: print every node matching PATTERN (as PATH:LINE:TEXT, or
JSON), or with -r show the rewrite of each match as -old/+new lines and with
-U apply them. A file whose rewrite would add a syntax error is left as it
is and named on stderr. Exit status: 0 when something matched, 1 when
nothing did, 2 on an error (a rewrite refused for a syntax error too).

Flags:
`

const astScanUsage = `Usage: gopi ast scan (-r RULE.yml | --inline-rules YAML) [-U] [FLAGS] [PATH...]

ast-grep's scan: run the rules of YAML rule files with ast-grep's own rule
engine. Keys: id, language, message, severity (hint, info, warning, error,
off), note, url, labels, metadata, rule (pattern, kind, regex, inside, has,
precedes, follows, not, all, any, matches, nthChild, range), constraints,
utils, transform, rewriters and fix (applied with -U). files and ignores
are refused (choose files with PATH and --globs). A file that lacks the
literal tokens of the pattern every match must match is not parsed.
Each finding is printed as PATH:LINE:COLUMN: SEVERITY[ID]: MESSAGE followed
by its lines. Exit status: 1 when a rule of severity error matched, else 0;
2 on an error.

Flags:
`

func parseASTRun(env *cliEnv, cmd string, args []string, scan bool, usage string) (*astRunCLI, []string, int, bool) {
	var c astRunCLI
	fs := newASTRunFlagSet(&c, scan)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(astNoIgnoreArgs(args)); err != nil {
		return nil, nil, fail(env, cmd, cliflags.Usagef("%v", err)), false
	}
	if c.help {
		fmt.Fprint(env.stdout, usage+cliflags.Help(fs))
		return nil, nil, exitMatch, false
	}
	switch c.json {
	case "", astcli.JSONPretty, astcli.JSONCompact, astcli.JSONStream:
	default:
		return nil, nil, fail(env, cmd, cliflags.Usagef("--json=%s: use pretty, compact or stream", c.json)), false
	}
	if c.context < 0 || c.after < 0 || c.before < 0 || c.maxFiles < 0 {
		return nil, nil, fail(env, cmd, cliflags.Usagef("-A, -B, -C and --max-files need a whole number ≥ 0")), false
	}
	if c.context > 0 {
		c.after, c.before = max(c.after, c.context), max(c.before, c.context)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	c.hasRewrite = !scan && fs.Changed("rewrite")
	return &c, paths, 0, true
}

// runASTRun implements `gopi ast run`.
func runASTRun(ctx context.Context, env *cliEnv, args []string) int {
	const cmd = "ast run"
	c, paths, code, ok := parseASTRun(env, cmd, args, false, astRunUsage)
	if !ok {
		return code
	}
	if strings.TrimSpace(c.pattern) == "" {
		return fail(env, cmd, cliflags.Usagef("missing -p PATTERN"))
	}
	strict, err := astgrep.ParseStrictness(c.strictness)
	if err != nil {
		return fail(env, cmd, cliflags.Usagef("%v", err))
	}
	o := astcli.RunOptions{Pattern: c.pattern, Lang: c.lang, Strictness: strict, UpdateAll: c.updateAll, JSON: c.json,
		Before: c.before, After: c.after, MaxFiles: c.maxFiles, Timeout: c.timeout}
	o.Scope = c.noIgnore.scope(paths, c.noHidden)
	o.Scope.Globs, o.Scope.ScanCache = c.globs, env.scan
	if err := c.index.apply(env, &o.Scope); err != nil {
		return fail(env, cmd, err)
	}
	if c.hasRewrite {
		o.Rewrite = &c.rewrite
		if o.MaxFiles == 0 {
			o.MaxFiles = astMaxFiles(env)
		}
	}
	code, err = astcli.Run(ctx, o, astOut(env))
	return astDone(env, cmd, code, err)
}

// runASTScan implements `gopi ast scan`.
func runASTScan(ctx context.Context, env *cliEnv, args []string) int {
	const cmd = "ast scan"
	c, paths, code, ok := parseASTRun(env, cmd, args, true, astScanUsage)
	if !ok {
		return code
	}
	o := astcli.ScanOptions{RuleFiles: c.rules, InlineRules: c.inlineRules, UpdateAll: c.updateAll, JSON: c.json, Before: c.before, After: c.after,
		MaxFiles: c.maxFiles, Timeout: c.timeout}
	o.Scope = c.noIgnore.scope(paths, c.noHidden)
	o.Scope.Globs, o.Scope.ScanCache = c.globs, env.scan
	if err := c.index.apply(env, &o.Scope); err != nil {
		return fail(env, cmd, err)
	}
	if o.UpdateAll && o.MaxFiles == 0 {
		o.MaxFiles = astMaxFiles(env)
	}
	code, err := astcli.Scan(ctx, o, astOut(env))
	return astDone(env, cmd, code, err)
}
