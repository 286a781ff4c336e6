package main

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/grep/job"
	"github.com/gopi-agent/gopi/search/grep/printer"
)

// grepCLI holds the typed values of `gopi grep`'s flags: those that say
// one thing of a run straight in its options, the others (resolved by
// grepOptions) beside them.
type grepCLI struct {
	o                                    job.Options
	maxColumnsSet                        bool // --max-columns was given
	ignoreCase, smartCase, caseSensitive bool
	regexps                              []string
	after, before, context               int
	typeList                             bool
	noIgnore                             bool
	unrestricted                         int
	lineNumber, noLineNumber             bool
	maxFilesize                          string
	color                                string
	index, noIndex                       bool
	help                                 bool
}

// globFlag is the pflag.Value of -g (fold false) or --iglob (fold true):
// both add to one list in the order given, as ripgrep lets the last
// matching glob decide, whichever flag it came from.
type globFlag struct {
	o    *job.Options
	fold bool
}

func (g globFlag) String() string { return "" }
func (g globFlag) Type() string   { return "stringArray" }
func (g globFlag) Set(v string) error {
	g.o.Globs = append(g.o.Globs, v)
	g.o.GlobFold = append(g.o.GlobFold, g.fold)
	return nil
}

// newGrepFlagSet declares gopi grep's flags on c. It is also what
// completion scripts and the man page are generated from.
func newGrepFlagSet(c *grepCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("grep", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVarP(&c.ignoreCase, "ignore-case", "i", false, "match case-insensitively")
	fs.BoolVarP(&c.smartCase, "smart-case", "S", false, "match case-insensitively unless the pattern has an upper-case letter")
	fs.BoolVarP(&c.caseSensitive, "case-sensitive", "s", false, "match case-sensitively (overrides -i and -S)")
	fs.StringArrayVarP(&c.regexps, "regexp", "e", nil, "search for `PATTERN` (repeatable; a line matching any of them matches); the first positional argument is then a path")
	fs.BoolVarP(&c.o.Fixed, "fixed-strings", "F", false, "treat the patterns as literal text, not regexes")
	// -w and -x override each other: the last one given wins (ripgrep).
	fs.VarPF(&boundaryFlag{set: &c.o.Word, other: &c.o.Line}, "word-regexp", "w", "only match at word boundaries").NoOptDefVal = "true"
	fs.VarPF(&boundaryFlag{set: &c.o.Line, other: &c.o.Word}, "line-regexp", "x", "only match whole lines (overrides -w, as -w overrides it)").NoOptDefVal = "true"
	fs.BoolVarP(&c.o.Invert, "invert-match", "v", false, "print the lines that do not match")
	fs.BoolVarP(&c.o.OnlyMatching, "only-matching", "o", false, "print only the matched parts, each on its own line")
	cliflags.NonNegIntVarP(fs, &c.after, "after-context", "A", -1, "show `N` lines after each match")
	cliflags.NonNegIntVarP(fs, &c.before, "before-context", "B", -1, "show `N` lines before each match")
	cliflags.NonNegIntVarP(fs, &c.context, "context", "C", 0, "show `N` lines before and after each match")
	cliflags.NonNegIntVarP(fs, &c.o.MaxCount, "max-count", "m", 0, "print at most `N` matching lines per file (0: no limit)")
	fs.VarP(globFlag{&c.o, false}, "glob", "g", "search only paths matching `GLOB`; !GLOB excludes; the last matching glob wins; a glob with '/' is anchored at the working directory (repeatable)")
	fs.Var(globFlag{&c.o, true}, "iglob", "like --glob, ignoring case (`GLOB`)")
	fs.StringArrayVarP(&c.o.Types, "type", "t", nil, "search only files of type `TYPE` (repeatable; see --type-list)")
	fs.StringArrayVarP(&c.o.TypesNot, "type-not", "T", nil, "do not search files of type `TYPE` (repeatable)")
	fs.BoolVar(&c.typeList, "type-list", false, "print the file types and their globs, then exit")
	fs.BoolVar(&c.o.Hidden, "hidden", false, "search hidden files and directories")
	fs.BoolVar(&c.noIgnore, "no-ignore", false, "do not honour .gitignore, .ignore or git's exclude files")
	fs.VarPF(&unrestrictedFlag{n: &c.unrestricted, binary: &c.o.Binary}, "unrestricted", "u", "-u: --no-ignore; -uu: also --hidden; -uuu: also --binary").NoOptDefVal = "+1"
	fs.VarPF(&binaryFlag{mode: &c.o.Binary, on: job.BinaryText}, "text", "a", "search binary files as if they were text, printing their lines (the last of -a, --binary and --no-binary wins)").NoOptDefVal = "true"
	fs.VarPF(&binaryFlag{mode: &c.o.Binary, on: job.BinarySearch}, "binary", "", `search binary files found in directories too, reporting each as "binary file matches", as a named one is`).NoOptDefVal = "true"
	fs.VarPF(&binaryFlag{mode: &c.o.Binary, on: job.BinarySkip}, "no-binary", "", "skip binary files found in directories (the default; undoes --binary, -a and -uuu)").NoOptDefVal = "true"
	fs.BoolVarP(&c.o.Follow, "follow", "L", false, "follow symbolic links while walking directories (a link loop is not entered twice)")
	cliflags.NonNegIntVarP(fs, &c.o.MaxDepth, "max-depth", "", 0, "descend at most `N` directory levels below each path (0: no limit)")
	fs.BoolVarP(&c.o.Count, "count", "c", false, "print the number of matching lines per file (of matches when a match can span lines)")
	fs.BoolVar(&c.o.CountMatches, "count-matches", false, "print the number of matches per file (every match of a line counts)")
	fs.BoolVarP(&c.o.FilesWithMatches, "files-with-matches", "l", false, "print only the paths of files with a match")
	fs.BoolVar(&c.o.ListFiles, "files", false, "print the files that would be searched, without searching (no PATTERN)")
	fs.BoolVarP(&c.o.Multiline, "multiline", "U", false, "let matches span lines (implied by a pattern holding \\n)")
	fs.BoolVarP(&c.lineNumber, "line-number", "n", false, "print line numbers (the default)")
	fs.BoolVarP(&c.noLineNumber, "no-line-number", "N", false, "do not print line numbers")
	fs.BoolVarP(&c.o.WithFilename, "with-filename", "H", false, "print the path with every line, even for one file")
	fs.BoolVarP(&c.o.NoFilename, "no-filename", "I", false, "never print paths with matching lines")
	fs.BoolVar(&c.o.Column, "column", false, "print the column (1-based byte offset) of the first match after the line number")
	fs.BoolVarP(&c.o.ByteOffset, "byte-offset", "b", false, "print the 0-based byte offset of each line (of each match with -o or --vimgrep) before its text")
	fs.BoolVar(&c.o.Vimgrep, "vimgrep", false, "print every match as PATH:LINE:COLUMN:TEXT, a line repeated for each of its matches")
	fs.BoolVarP(&c.o.Null, "null", "0", false, "follow every printed path with a NUL byte instead of ':' or a newline")
	fs.BoolVarP(&c.o.Quiet, "quiet", "q", false, "print nothing; exit 0 at the first match")
	fs.StringVar(&c.maxFilesize, "max-filesize", "", "skip files larger than `SIZE` (bytes, or with a K, M or G suffix), naming them on stderr")
	cliflags.NonNegIntVarP(fs, &c.o.MaxColumns, "max-columns", "", grep.DefaultMaxColumns, "cut lines longer than `N` characters, marking them with … (0: never)")
	fs.Var(sortFlag{&c.o.Sort, false}, "sort", "order results by `KEY`: path (the default), modified, accessed, created or none; any key but path lists every file before the search starts")
	fs.Var(sortFlag{&c.o.Sort, true}, "sortr", "like --sort, in descending order (`KEY`)")
	fs.BoolVar(&c.o.JSON, "json", false, "print one JSON object per match (per file with -c or -l)")
	fs.StringVar(&c.color, "color", "auto", "`WHEN` to color: auto (only on a terminal), always or never")
	fs.DurationVar(&c.o.Timeout, "timeout", 0, "give up after `DURATION` (e.g. 5s; 0: never)")
	fs.BoolVar(&c.index, "index", false, "refresh first the search index covering each directory PATH (its own or the nearest indexed directory above it; one is built for PATH when there is none; see gopi index) and read only the files it says can match")
	fs.BoolVar(&c.noIndex, "no-index", false, "walk every directory, even one with a search index")
	fs.BoolVar(&c.o.Stats, "stats", false, "print totals (files searched, skipped, matches) to stderr")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	cliflags.Bound(fs, "timeout", 0, "--timeout needs a duration such as 5s (0: none), got %q")
	return fs
}

const grepUsage = `Usage: gopi grep [FLAGS] PATTERN [PATH...]
       gopi grep [FLAGS] -e PATTERN... [PATH...]
       gopi grep --files [PATH...]

Search files for lines matching the regex PATTERN (Rust regex syntax), in
every file under each PATH (default: the current directory, or standard
input when it is a pipe or a file; "-" names standard input). Hidden files
and paths ignored by .gitignore/.ignore are skipped unless asked for;
node_modules is an ordinary directory that only ignore files leave out.
Binary files (holding a NUL byte) found in directories are skipped; one
named on the command line is searched and reported as "binary file
matches", and so are those found in directories with --binary (or -uuu);
-a prints their lines as text. UTF-16 files with a byte-order mark are
searched as text. A pattern matches within one line unless it holds \n or
a newline. Braces that cannot be repetitions are literal: '${name}' finds
the text ${name}.

Output is in path order, then line order, and printed as the search goes;
--sort/--sortr by time (or --sortr path) first list every file with its
time, then search them in that order. Exit status: 0 when a line
matched, 1 when none did, 2 on an error (also when some path or file could
not be read, as with ripgrep; -q with a match exits 0).

Flags:
`

func runGrep(ctx context.Context, env *cliEnv, args []string) int {
	var c grepCLI
	fs := newGrepFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "grep", err)
	}
	c.maxColumnsSet = fs.Changed("max-columns")
	if c.help {
		fmt.Fprint(env.stdout, grepUsage+cliflags.Help(fs))
		return exitMatch
	}
	if c.typeList {
		for _, n := range grep.TypeNames() {
			fmt.Fprintf(env.stdout, "%s: %s\n", n, strings.Join(grep.TypeGlobs[n], ", "))
		}
		return exitMatch
	}
	o, err := grepOptions(&c, fs.Args(), env)
	if err != nil {
		return fail(env, "grep", err)
	}
	code, err := job.Run(ctx, o, job.Streams{Stdout: env.stdout, Stderr: env.stderr, Stdin: env.stdin, StdinReadable: env.stdinReadable})
	if err != nil {
		return fail(env, "grep", err)
	}
	return code
}

// grepOptions resolves the flags of c and the arguments after them into
// a run's options, refusing what the flags cannot mean together.
func grepOptions(c *grepCLI, rest []string, env *cliEnv) (job.Options, error) {
	o := c.o
	o.Patterns = c.regexps
	if len(o.Patterns) == 0 && !o.ListFiles {
		if len(rest) == 0 {
			return o, cliflags.Usagef("missing PATTERN")
		}
		o.Patterns, rest = rest[:1], rest[1:]
	}
	o.Paths = rest
	if o.Follow && runtime.GOOS == "windows" {
		return o, cliflags.Usagef("-L/--follow is not supported on Windows: symbolic links are never followed; name the link targets as paths instead")
	}
	switch {
	case c.caseSensitive:
	case c.ignoreCase:
		o.Case = job.CaseIgnore
	case c.smartCase:
		o.Case = job.CaseSmart
	}
	o.Hidden = o.Hidden || c.unrestricted >= 2
	o.Gitignore = !c.noIgnore && c.unrestricted < 1
	o.ScanCache = env.scanner()
	if c.index && c.noIndex {
		return o, cliflags.Usagef("--index and --no-index exclude each other")
	}
	if !c.noIndex {
		o.Index = indexFinder(env, c.index)
	}
	o.LineNumbers = !c.noLineNumber
	o.ContextBefore, o.ContextAfter = c.context, c.context
	if c.before >= 0 {
		o.ContextBefore = c.before
	}
	if c.after >= 0 {
		o.ContextAfter = c.after
	}
	if c.maxFilesize != "" {
		n, err := job.ParseByteSize(c.maxFilesize)
		if err != nil {
			return o, cliflags.Usagef("%v", err)
		}
		o.MaxFileSize = n
	}
	if !c.maxColumnsSet && (o.OnlyMatching || o.Vimgrep || o.JSON) {
		// These print every match on its own: cutting the line would
		// drop the matches past the cut.
		o.MaxColumns = 0
	}
	if (o.Count || o.CountMatches) && o.FilesWithMatches {
		return o, cliflags.Usagef("-c and -l cannot be combined")
	}
	var err error
	o.Colors, err = colorPalette(c.color, env.isTerminal, env.cfg.Env.Get)
	return o, err
}

// boundaryFlag is -w or -x: setting one clears the other, so the last one
// given wins.
type boundaryFlag struct{ set, other *bool }

func (f *boundaryFlag) String() string { return strconv.FormatBool(*f.set) }
func (f *boundaryFlag) Type() string   { return "bool" }
func (f *boundaryFlag) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return err
	}
	*f.set = b
	if b {
		*f.other = false
	}
	return nil
}

// binaryFlag is -a (on job.BinaryText), --binary (job.BinarySearch) or
// --no-binary (job.BinarySkip): each sets the one mode they share, so the
// last one given wins, as in ripgrep 14. Turning -a or --binary off
// (--binary=false) goes back to skipping if that flag had set the mode.
type binaryFlag struct {
	mode *job.BinaryMode
	on   job.BinaryMode
	set  bool // this flag was the last to set the mode
}

func (f *binaryFlag) String() string { return strconv.FormatBool(f.set && *f.mode == f.on) }
func (f *binaryFlag) Type() string   { return "bool" }
func (f *binaryFlag) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return err
	}
	switch {
	case b:
		*f.mode, f.set = f.on, true
	case *f.mode == f.on:
		*f.mode = job.BinarySkip
	}
	return nil
}

// unrestrictedFlag is -u, counted as pflag counts: the third one also
// sets the binary mode to job.BinarySearch, at its place among -a, --binary
// and --no-binary.
type unrestrictedFlag struct {
	n      *int
	binary *job.BinaryMode
}

func (f *unrestrictedFlag) String() string { return strconv.Itoa(*f.n) }
func (f *unrestrictedFlag) Type() string   { return "count" }
func (f *unrestrictedFlag) Set(v string) error {
	if v == "+1" {
		*f.n++
	} else {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("give -u up to three times, or a count such as --unrestricted=2")
		}
		*f.n = n
	}
	if *f.n >= 3 {
		*f.binary = job.BinarySearch
	}
	return nil
}

// sortFlag is the pflag.Value of --sort (reverse false) and --sortr
// (reverse true): both set one choice, so the last one given wins.
type sortFlag struct {
	choice  *printer.Order
	reverse bool
}

func (f sortFlag) String() string { return "" }
func (f sortFlag) Type() string   { return "string" }
func (f sortFlag) Set(v string) error {
	switch v {
	case "path", "modified", "accessed", "created", "none":
	default:
		return fmt.Errorf("unknown sort key %q: use path, modified, accessed, created or none", v)
	}
	*f.choice = printer.Order{Key: v, Reverse: f.reverse}
	return nil
}
