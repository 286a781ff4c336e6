package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/ast/astcli"
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/native/astgrep"
)

const astUsage = `Usage: gopi ast run -p PATTERN [-r TEMPLATE [-U]] [-l LANG] [FLAGS] [PATH...]
       gopi ast scan (-r RULE.yml | --inline-rules YAML) [-U] [FLAGS] [PATH...]
       gopi ast grep -p PATTERN [-l LANG] [FLAGS] [PATH...]
       gopi ast edit -p PATTERN -r REWRITE [-l LANG] [--apply] [PATH...]

Structural search and rewrite with ast-grep patterns: $NAME captures one
node, $_ matches one node, $$$NAME captures zero or more nodes, $$$ matches
zero or more. Metavariable names are upper case. The language comes from
each file's extension; -l LANG keeps only files of LANG (a named file of
another language is skipped, as in ast-grep). PATHs are files, directories or
globs (default: the current directory); hidden files are searched, paths
ignored by .gitignore are not, node_modules only when a glob names it.

run and scan follow ast-grep's commands of the same names; grep and edit
are gopi's own forms (edit previews by default and applies with --apply,
checked against a preview id with --expect). Run 'gopi ast SUBCOMMAND
--help' for the flags.
`

// runAST dispatches `gopi ast grep|edit`.
func runAST(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" || args[0] == "help" {
		fmt.Fprint(env.stdout, astUsage)
		if len(args) == 0 {
			return exitError
		}
		return exitMatch
	}
	tightenGC()
	switch args[0] {
	case "grep":
		return runASTGrep(ctx, env, args[1:])
	case "edit":
		return runASTEdit(ctx, env, args[1:])
	case "run":
		return runASTRun(ctx, env, args[1:])
	case "scan":
		return runASTScan(ctx, env, args[1:])
	}
	return fail(env, "ast", cliflags.Usagef("unknown subcommand %q: use run, scan, grep or edit", args[0]))
}

// tightenGC halves the Go heap's growth target for a structural search
// unless GOGC set another than the default 100 (GOGC=100 itself cannot be
// told from no setting, so it gets 50 too): the search holds little (a file's results until they
// are printed) and throws away as much as it prints (the text of every
// match, decoded from the native engine), so the default target kept
// about 3 MB of garbage resident for nothing. Over the Python standard
// library (`def $F($$$P): $$$B`, 36 MB of JSON) peak RSS 51 -> 48 MB with
// the same CPU time.
func tightenGC() {
	if prev := debug.SetGCPercent(50); prev != 100 {
		debug.SetGCPercent(prev)
	}
}

// astCLI holds the typed flags of `gopi ast grep` and `gopi ast edit`.
type astCLI struct {
	pattern, lang, strictness string
	noHidden                  bool
	noIgnore                  astNoIgnore
	index                     astIndexFlags
	timeout                   time.Duration
	help                      bool
	// ast grep
	json, noPrefilter, stats bool
	context, offset, limit   int
	// ast edit
	rewrite, expect string
	apply           bool
	maxFiles        int
}

// newASTFlagSet declares the flags of `gopi ast grep` (edit false) or
// `gopi ast edit` (edit true). It is also what completion scripts and the
// man page are generated from.
func newASTFlagSet(c *astCLI, edit bool) *pflag.FlagSet {
	name := "ast grep"
	if edit {
		name = "ast edit"
	}
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	if edit {
		fs.StringVarP(&c.rewrite, "rewrite", "r", "", "the replacement; captures are substituted; empty deletes (required)")
		cliflags.ValueName(fs, "rewrite", "REWRITE")
		fs.BoolVar(&c.apply, "apply", false, "write the changes (default: only preview them)")
		fs.StringVar(&c.expect, "expect", "", "with --apply: write only if the changes and files are exactly those of the preview that printed `ID`")
		cliflags.NonNegIntVarP(fs, &c.maxFiles, "max-files", "", 0, "change at most `N` files (default: PI_MAX_AST_FILES or 1000)")
	} else {
		fs.BoolVar(&c.json, "json", false, "print one JSON object per match")
		cliflags.NonNegIntVarP(fs, &c.context, "context", "C", 0, "show `N` lines before and after each match")
		cliflags.NonNegIntVarP(fs, &c.offset, "offset", "", 0, "skip the first `N` matches (after sorting by path and position)")
		cliflags.NonNegIntVarP(fs, &c.limit, "limit", "", 0, "print at most `N` matches (default: all)")
		fs.BoolVar(&c.noPrefilter, "no-prefilter", false, "parse every file, even those that cannot contain the pattern's tokens")
		fs.BoolVar(&c.stats, "stats", false, "print totals (files searched, matches) to stderr")
	}
	fs.StringVarP(&c.pattern, "pattern", "p", "", "the AST pattern (required)")
	cliflags.ValueName(fs, "pattern", "PATTERN")
	fs.StringVarP(&c.lang, "lang", "l", "", "search only files of `LANG`, named ones too (default: every file, language from its extension)")
	fs.StringVar(&c.strictness, "strictness", "smart", "cst, smart (default), ast, relaxed, signature or template")
	cliflags.ValueName(fs, "strictness", "LEVEL")
	fs.BoolVar(&c.noHidden, "no-hidden", false, "skip hidden files and directories")
	addASTNoIgnoreFlag(fs, &c.noIgnore)
	c.index.add(fs)
	fs.DurationVar(&c.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5s)")
	cliflags.Bound(fs, "timeout", 1, "--timeout needs a positive duration like 5s, got %q")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

// parseAST parses the arguments of `gopi ast grep` or `gopi ast edit`; ok
// false means the command is over, with exit status code (after --help or
// a usage error).
func parseAST(env *cliEnv, args []string, edit bool) (c *astCLI, fs *pflag.FlagSet, code int, ok bool) {
	cmd, usage := "ast grep", astGrepUsage
	if edit {
		cmd, usage = "ast edit", astEditUsage
	}
	c = &astCLI{}
	fs = newASTFlagSet(c, edit)
	if err := cliflags.Parse(fs, astNoIgnoreArgs(args)); err != nil {
		return nil, nil, fail(env, cmd, err), false
	}
	if c.help {
		fmt.Fprint(env.stdout, usage+cliflags.Help(fs))
		return nil, nil, exitMatch, false
	}
	if strings.TrimSpace(c.pattern) == "" {
		return nil, nil, fail(env, cmd, cliflags.Usagef("missing -p PATTERN")), false
	}
	return c, fs, 0, true
}

const astGrepUsage = `Usage: gopi ast grep -p PATTERN [-l LANG] [FLAGS] [PATH...]

Print every node matching PATTERN, sorted by path then position, as
PATH:LINE:TEXT for each line of the match (context lines use '-'). Files
with syntax errors are still searched and reported on stderr. Exit status:
0 when something matched, 1 when nothing did, 2 on an error.

Flags:
`

const astEditUsage = `Usage: gopi ast edit -p PATTERN -r REWRITE [-l LANG] [--apply] [PATH...]

Replace every node matching PATTERN with REWRITE. Without --apply the
changes are only shown (as -old/+new lines); with --apply files are written
atomically, only when they change. All files must be of one language;
overlapping matches are an error and write nothing. A file whose rewrite
would add a syntax error is left as it is and named on stderr (a file that
already has syntax errors is rewritten when the rewrite adds none). Exit
status: 0 when something was (or would be) replaced, 1 when nothing was, 2
on an error, including a rewrite refused for a syntax error.

Flags:
`

// astScope builds the engine scope and strictness from flags.
func astScope(env *cliEnv, c *astCLI, paths []string) (ast.Scope, astgrep.Strictness, error) {
	sc := c.noIgnore.scope(paths, c.noHidden)
	if len(sc.Paths) == 0 {
		sc.Paths = []string{"."}
	}
	strict, err := astgrep.ParseStrictness(c.strictness)
	if err != nil {
		return sc, 0, cliflags.Usagef("%v", err)
	}
	return sc, strict, c.index.apply(env, &sc)
}

func runASTGrep(ctx context.Context, env *cliEnv, args []string) int {
	c, fs, code, ok := parseAST(env, args, false)
	if !ok {
		return code
	}
	sc, strict, err := astScope(env, c, fs.Args())
	sc.ScanCache = env.scan
	if err != nil {
		return fail(env, "ast grep", err)
	}
	code, err = astcli.Grep(ctx, astcli.GrepOptions{
		Scope: sc, Pattern: c.pattern, Lang: c.lang, Strictness: strict, JSON: c.json,
		Context: c.context, Offset: c.offset, Limit: c.limit, NoPrefilter: c.noPrefilter, Stats: c.stats, Timeout: c.timeout,
	}, astOut(env))
	return astDone(env, "ast grep", code, err)
}

func runASTEdit(ctx context.Context, env *cliEnv, args []string) int {
	c, fs, code, ok := parseAST(env, args, true)
	if !ok {
		return code
	}
	if !fs.Changed("rewrite") {
		return fail(env, "ast edit", cliflags.Usagef("missing -r REWRITE (use -r '' to delete matches)"))
	}
	sc, strict, err := astScope(env, c, fs.Args())
	sc.ScanCache = env.scan
	if err != nil {
		return fail(env, "ast edit", err)
	}
	maxFiles := c.maxFiles
	if !fs.Changed("max-files") {
		maxFiles = astMaxFiles(env)
	}
	if c.expect != "" && !c.apply {
		return fail(env, "ast edit", cliflags.Usagef("--expect only makes sense with --apply"))
	}
	code, err = astcli.Edit(ctx, astcli.EditOptions{
		Scope: sc, Pattern: c.pattern, Rewrite: c.rewrite, Lang: c.lang, Strictness: strict,
		Apply: c.apply, Expect: c.expect, MaxFiles: maxFiles, Timeout: c.timeout,
	}, astOut(env))
	return astDone(env, "ast edit", code, err)
}

// astMaxFiles is the cap on the files a rewrite changes when no
// --max-files says otherwise: PI_MAX_AST_FILES, else the engine's default.
func astMaxFiles(env *cliEnv) int {
	if n := env.cfg.ASTMaxFiles(); n != 0 {
		return n
	}
	return ast.DefaultMaxFiles
}

// astOut is where an ast command prints.
func astOut(env *cliEnv) astcli.Output {
	return astcli.Output{Stdout: env.stdout, Stderr: env.stderr, Terminal: env.isTerminal}
}

// astDone ends an ast command: an error is printed (a usage mistake the
// engine found with a pointer to --help, as a flag mistake), else code is
// the exit status.
func astDone(env *cliEnv, cmd string, code int, err error) int {
	if err == nil {
		return code
	}
	var ue *astcli.UsageError
	if errors.As(err, &ue) {
		err = cliflags.Usagef("%v", ue.Err)
	}
	return fail(env, cmd, err)
}
