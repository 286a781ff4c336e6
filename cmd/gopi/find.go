package main

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/search/find"
)

// findCLI holds the typed values of `gopi find`'s flags: those that say
// one thing of a run straight in its options, the others beside them.
type findCLI struct {
	o                  find.Options
	noIgnore, globMode bool
	index, noIndex     bool
	color              string
	help               bool
}

// newFindFlagSet declares gopi find's flags on c. It is also what
// completion scripts and the man page are generated from. -x/-X are taken
// out of the arguments before parsing (they consume a whole command line;
// see splitExec) and are declared here for help and completion only.
func newFindFlagSet(c *findCLI, execDummy *[]string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("find", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVarP(&c.o.Hidden, "hidden", "H", false, "include hidden files and directories")
	fs.BoolVarP(&c.noIgnore, "no-ignore", "I", false, "do not honour .gitignore, .ignore or git's exclude files")
	fs.BoolVarP(&c.o.IgnoreCase, "ignore-case", "i", false, "match the pattern case-insensitively")
	fs.BoolVarP(&c.o.CaseSensitive, "case-sensitive", "s", false, "match the pattern case-sensitively")
	fs.BoolVarP(&c.globMode, "glob", "g", false, "the pattern is a glob (the default; accepted for fd's habit)")
	fs.BoolVar(&c.o.Regex, "regex", false, "the pattern is a regex searched for in each name (in the whole path with -p), as fd does by default")
	fs.BoolVarP(&c.o.FullPath, "full-path", "p", false, "match the pattern against the whole path relative to PATH, not just the name")
	fs.StringVarP(&c.o.Type, "type", "t", "", "only entries of `TYPE`: f (file), d (directory), l (symlink), x (executable file), e (empty file or directory)")
	fs.StringArrayVarP(&c.o.Extensions, "extension", "e", nil, "only files with extension `EXT` (repeatable; case-insensitive)")
	fs.StringArrayVarP(&c.o.Excludes, "exclude", "E", nil, "leave out paths matching `GLOB` and everything below them (repeatable)")
	fs.IntVarP(&c.o.MaxDepth, "max-depth", "d", 0, "descend at most `N` levels below each PATH (0: no limit)")
	fs.StringArrayVarP(&c.o.Sizes, "size", "S", nil, "only files of `SIZE`: +N at least, -N at most, N exactly; units b, k, m, g, t (powers of 1000) and ki, mi, gi, ti (of 1024) (repeatable)")
	fs.StringVar(&c.o.ChangedWithin, "changed-within", "", "only entries modified within `DURATION` (e.g. 2h, 3d, 1w) or since a date (2024-01-31 or 2024-01-31 10:00:00)")
	fs.StringArrayVarP(execDummy, "exec", "x", nil, "run `CMD` for each path: the arguments up to ';' ({} path, {/} base name, {//} parent, {.} path and {/.} base name without extension; the path is appended when none is given)")
	fs.StringArrayVarP(execDummy, "exec-batch", "X", nil, "run `CMD` once with every path (arguments up to ';', {} placeholders as -x)")
	fs.BoolVarP(&c.o.Print0, "print0", "0", false, "end every path with a NUL byte instead of a newline")
	fs.BoolVarP(&c.o.Absolute, "absolute-path", "a", false, "print absolute paths")
	fs.BoolVarP(&c.o.Follow, "follow", "L", false, "follow symbolic links: a link is listed as what it points at and a linked directory is walked (a link loop is not entered twice)")
	fs.IntVar(&c.o.Limit, "limit", 0, "print at most `N` paths (0: no limit)")
	fs.BoolVar(&c.o.Newest, "newest", false, "sort by modification time, newest first")
	fs.StringVar(&c.o.Query, "fuzzy", "", "rank paths by fuzzy match against `QUERY` instead of a pattern")
	fs.BoolVar(&c.o.JSON, "json", false, "print one JSON object per path")
	fs.StringVar(&c.color, "color", "auto", "`WHEN` to color: auto (only on a terminal), always or never")
	fs.DurationVar(&c.o.Timeout, "timeout", 0, "give up after `DURATION` (e.g. 5s; 0: never)")
	fs.BoolVar(&c.index, "index", false, "refresh first the search index covering each PATH (its own or the nearest indexed directory above it; one is built for PATH when there is none; see gopi index) and list files (-t f, -t x) from it")
	fs.BoolVar(&c.noIndex, "no-index", false, "walk every directory, even one with a search index")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const findUsage = `Usage: gopi find [FLAGS] [PATTERN] [PATH...]
       gopi find --fuzzy QUERY [PATH...]

List the paths under each PATH (default: the current directory) that match
PATTERN, a glob by default (--regex makes it a regex, as fd has it). A GLOB
without '/' matches names at any depth ('*.go'); with '/' it is matched
against the whole path relative to PATH ('cmd/**/*.go'). Syntax: *, **, ?,
[a-z], [!a-z], {a,b}. Case is smart, as in fd: a pattern without upper-case
letters ignores case, one with any is case-sensitive (-i and -s force
either). Hidden paths and ignored paths are skipped unless asked for
(node_modules is an ordinary directory, except that --fuzzy never walks it);
.git is never listed; symlinks are listed, not followed. Paths come in
sorted order (or newest first with --newest). When nothing is found and the
pattern looks like a regex, a bare word or a directory, a hint on stderr
says how to ask for what was probably meant.

Exit status: 0 when something was found, 1 when nothing was, 2 on an error
(with -x/-X: 1 when a command failed).

Flags:
`

// splitExec takes -x/--exec and -X/--exec-batch with their command lines
// (up to a ';' argument or the end) out of args.
func splitExec(args []string) ([]string, *find.Exec, error) {
	var rest []string
	var spec *find.Exec
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		batch := a == "-X" || a == "--exec-batch"
		if !batch && a != "-x" && a != "--exec" {
			rest = append(rest, a)
			continue
		}
		if spec != nil {
			return nil, nil, cliflags.Usagef("give only one -x/--exec or -X/--exec-batch")
		}
		spec = &find.Exec{Batch: batch}
		for i++; i < len(args) && args[i] != ";"; i++ {
			spec.Argv = append(spec.Argv, args[i])
		}
		if len(spec.Argv) == 0 {
			return nil, nil, cliflags.Usagef("%s needs a command", a)
		}
	}
	return rest, spec, nil
}

func runFind(ctx context.Context, env *cliEnv, args []string) int {
	args, ex, err := splitExec(args)
	if err != nil {
		return fail(env, "find", err)
	}
	var c findCLI
	var execDummy []string
	fs := newFindFlagSet(&c, &execDummy)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return fail(env, "find", cliflags.Usagef("%v", err))
	}
	if c.help {
		fmt.Fprint(env.stdout, findUsage+cliflags.Help(fs))
		return exitMatch
	}
	f, err := newFinder(env, &c, fs, fs.Args(), ex)
	if err != nil {
		return fail(env, "find", err)
	}
	s := find.Streams{Stdout: env.stdout, Stderr: env.stderr, ExecStdout: env.stdout}
	if q, ok := env.stdout.(quietPipe); ok {
		s.ExecStdout = q.w // the file itself, so the programs write to it directly
	}
	code, err := f.Run(ctx, s)
	if err != nil {
		return fail(env, "find", err)
	}
	return code
}

// newFinder checks the flags of c and the arguments after them and
// compiles them into a run.
func newFinder(env *cliEnv, c *findCLI, fs *pflag.FlagSet, rest []string, ex *find.Exec) (*find.Finder, error) {
	o := c.o
	if o.Limit < 0 || o.MaxDepth < 0 {
		return nil, cliflags.Usagef("--limit and --max-depth need a whole number ≥ 0")
	}
	if o.Follow && runtime.GOOS == "windows" {
		return nil, cliflags.Usagef("-L/--follow is not supported on Windows: symbolic links are listed, never followed")
	}
	if c.globMode && o.Regex {
		return nil, cliflags.Usagef("-g/--glob and --regex cannot be combined")
	}
	colors, err := colorPalette(c.color, env.isTerminal, env.cfg.Env.Get)
	if err != nil {
		return nil, err
	}
	if o.Timeout < 0 {
		return nil, cliflags.Usagef("--timeout needs a positive duration such as 5s")
	}
	o.Fuzzy = fs.Changed("fuzzy")
	if !o.Fuzzy && len(rest) > 0 {
		o.Pattern, rest = rest[0], rest[1:]
	}
	o.Paths, o.Gitignore, o.ScanCache, o.Exec = rest, !c.noIgnore, env.scanner(), ex
	o.PathColor, o.ColorReset = colors.Path, colors.Reset
	if c.index && c.noIndex {
		return nil, cliflags.Usagef("--index and --no-index exclude each other")
	}
	if !c.noIndex {
		o.Index = indexFinder(env, c.index)
	}
	f, err := find.New(o)
	if err != nil {
		return nil, cliflags.Usagef("%v", err)
	}
	return f, nil
}
