package main

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/grep/job"
	"github.com/gopi-agent/gopi/search/grep/printer"
)

// grepCLI holds the typed values of `gopi grep`'s flags.
type grepCLI struct {
	maxColumnsSet                        bool // --max-columns was given
	ignoreCase, smartCase, caseSensitive bool
	word, fixed, invert, onlyMatching    bool
	line                                 bool // -x: the match must be the whole line
	countMatches                         bool // --count-matches
	regexps                              []string
	after, before, context               int
	globs                                globList
	types, typesNot                      []string
	typeList                             bool
	hidden, noIgnore, follow             bool
	binary                               job.BinaryMode // -a, --binary, --no-binary and -uuu: the last one given wins
	unrestricted                         int
	maxDepth, maxCount                   int
	count, filesWithMatches, files       bool
	multiline                            bool
	lineNumber, noLineNumber             bool
	withFilename, noFilename             bool
	column, vimgrep, null, quiet         bool
	byteOffset                           bool
	maxColumns                           int
	maxFilesize                          string
	json, stats                          bool
	color                                string
	sort                                 printer.Order
	timeout                              time.Duration
	help                                 bool
}

// globList collects -g and --iglob values in the order given: ripgrep
// lets the last matching glob decide, whichever flag it came from.
type globList struct {
	globs []string
	fold  []bool
}

// globFlag is the pflag.Value of -g (fold false) or --iglob (fold true).
type globFlag struct {
	list *globList
	fold bool
}

func (g globFlag) String() string { return "" }
func (g globFlag) Type() string   { return "stringArray" }
func (g globFlag) Set(v string) error {
	g.list.globs = append(g.list.globs, v)
	g.list.fold = append(g.list.fold, g.fold)
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
	fs.BoolVarP(&c.fixed, "fixed-strings", "F", false, "treat the patterns as literal text, not regexes")
	// -w and -x override each other: the last one given wins (ripgrep).
	fs.VarPF(&boundaryFlag{set: &c.word, other: &c.line}, "word-regexp", "w", "only match at word boundaries").NoOptDefVal = "true"
	fs.VarPF(&boundaryFlag{set: &c.line, other: &c.word}, "line-regexp", "x", "only match whole lines (overrides -w, as -w overrides it)").NoOptDefVal = "true"
	fs.BoolVarP(&c.invert, "invert-match", "v", false, "print the lines that do not match")
	fs.BoolVarP(&c.onlyMatching, "only-matching", "o", false, "print only the matched parts, each on its own line")
	nonNegIntVarP(fs, &c.after, "after-context", "A", -1, "show `N` lines after each match")
	nonNegIntVarP(fs, &c.before, "before-context", "B", -1, "show `N` lines before each match")
	nonNegIntVarP(fs, &c.context, "context", "C", 0, "show `N` lines before and after each match")
	nonNegIntVarP(fs, &c.maxCount, "max-count", "m", 0, "print at most `N` matching lines per file (0: no limit)")
	fs.VarP(globFlag{&c.globs, false}, "glob", "g", "search only paths matching `GLOB`; !GLOB excludes; the last matching glob wins; a glob with '/' is anchored at the working directory (repeatable)")
	fs.Var(globFlag{&c.globs, true}, "iglob", "like --glob, ignoring case (`GLOB`)")
	fs.StringArrayVarP(&c.types, "type", "t", nil, "search only files of type `TYPE` (repeatable; see --type-list)")
	fs.StringArrayVarP(&c.typesNot, "type-not", "T", nil, "do not search files of type `TYPE` (repeatable)")
	fs.BoolVar(&c.typeList, "type-list", false, "print the file types and their globs, then exit")
	fs.BoolVar(&c.hidden, "hidden", false, "search hidden files and directories")
	fs.BoolVar(&c.noIgnore, "no-ignore", false, "do not honour .gitignore, .ignore or git's exclude files")
	fs.VarPF(&unrestrictedFlag{n: &c.unrestricted, binary: &c.binary}, "unrestricted", "u", "-u: --no-ignore; -uu: also --hidden; -uuu: also --binary").NoOptDefVal = "+1"
	fs.VarPF(&binaryFlag{mode: &c.binary, on: job.BinaryText}, "text", "a", "search binary files as if they were text, printing their lines (the last of -a, --binary and --no-binary wins)").NoOptDefVal = "true"
	fs.VarPF(&binaryFlag{mode: &c.binary, on: job.BinarySearch}, "binary", "", `search binary files found in directories too, reporting each as "binary file matches", as a named one is`).NoOptDefVal = "true"
	fs.VarPF(&binaryFlag{mode: &c.binary, on: job.BinarySkip}, "no-binary", "", "skip binary files found in directories (the default; undoes --binary, -a and -uuu)").NoOptDefVal = "true"
	fs.BoolVarP(&c.follow, "follow", "L", false, "follow symbolic links while walking directories (a link loop is not entered twice)")
	nonNegIntVarP(fs, &c.maxDepth, "max-depth", "", 0, "descend at most `N` directory levels below each path (0: no limit)")
	fs.BoolVarP(&c.count, "count", "c", false, "print the number of matching lines per file (of matches when a match can span lines)")
	fs.BoolVar(&c.countMatches, "count-matches", false, "print the number of matches per file (every match of a line counts)")
	fs.BoolVarP(&c.filesWithMatches, "files-with-matches", "l", false, "print only the paths of files with a match")
	fs.BoolVar(&c.files, "files", false, "print the files that would be searched, without searching (no PATTERN)")
	fs.BoolVarP(&c.multiline, "multiline", "U", false, "let matches span lines (implied by a pattern holding \\n)")
	fs.BoolVarP(&c.lineNumber, "line-number", "n", false, "print line numbers (the default)")
	fs.BoolVarP(&c.noLineNumber, "no-line-number", "N", false, "do not print line numbers")
	fs.BoolVarP(&c.withFilename, "with-filename", "H", false, "print the path with every line, even for one file")
	fs.BoolVarP(&c.noFilename, "no-filename", "I", false, "never print paths with matching lines")
	fs.BoolVar(&c.column, "column", false, "print the column (1-based byte offset) of the first match after the line number")
	fs.BoolVarP(&c.byteOffset, "byte-offset", "b", false, "print the 0-based byte offset of each line (of each match with -o or --vimgrep) before its text")
	fs.BoolVar(&c.vimgrep, "vimgrep", false, "print every match as PATH:LINE:COLUMN:TEXT, a line repeated for each of its matches")
	fs.BoolVarP(&c.null, "null", "0", false, "follow every printed path with a NUL byte instead of ':' or a newline")
	fs.BoolVarP(&c.quiet, "quiet", "q", false, "print nothing; exit 0 at the first match")
	fs.StringVar(&c.maxFilesize, "max-filesize", "", "skip files larger than `SIZE` (bytes, or with a K, M or G suffix), naming them on stderr")
	nonNegIntVarP(fs, &c.maxColumns, "max-columns", "", grep.DefaultMaxColumns, "cut lines longer than `N` characters, marking them with … (0: never)")
	fs.Var(sortFlag{&c.sort, false}, "sort", "order results by `KEY`: path (the default), modified, accessed, created or none; any key but path lists every file before the search starts")
	fs.Var(sortFlag{&c.sort, true}, "sortr", "like --sort, in descending order (`KEY`)")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per match (per file with -c or -l)")
	fs.StringVar(&c.color, "color", "auto", "`WHEN` to color: auto (only on a terminal), always or never")
	fs.DurationVar(&c.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5s; 0: never)")
	fs.BoolVar(&c.stats, "stats", false, "print totals (files searched, skipped, matches) to stderr")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	boundFlag(fs, "timeout", 0, "--timeout needs a duration such as 5s (0: none), got %q")
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
	if err := parseFlags(fs, args); err != nil {
		return fail(env, "grep", err)
	}
	c.maxColumnsSet = fs.Changed("max-columns")
	if c.help {
		fmt.Fprint(env.stdout, grepUsage+pflagHelp(fs))
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
	patterns := c.regexps
	if len(patterns) == 0 && !c.files {
		if len(rest) == 0 {
			return job.Options{}, usagef("missing PATTERN")
		}
		patterns, rest = rest[:1], rest[1:]
	}
	if c.follow && runtime.GOOS == "windows" {
		return job.Options{}, usagef("-L/--follow is not supported on Windows: symbolic links are never followed; name the link targets as paths instead")
	}
	o := job.Options{
		Patterns: patterns, Fixed: c.fixed, Word: c.word, Line: c.line, Multiline: c.multiline, Invert: c.invert,
		Paths: rest, Globs: c.globs.globs, GlobFold: c.globs.fold, Types: c.types, TypesNot: c.typesNot,
		Hidden: c.hidden || c.unrestricted >= 2, Gitignore: !c.noIgnore && c.unrestricted < 1, Follow: c.follow,
		Binary: c.binary, MaxDepth: c.maxDepth, ScanCache: env.scanner(),
		MaxCount: c.maxCount, ContextBefore: c.context, ContextAfter: c.context, MaxColumns: c.maxColumns,
		Count: c.count, CountMatches: c.countMatches, FilesWithMatches: c.filesWithMatches, ListFiles: c.files,
		OnlyMatching: c.onlyMatching, Quiet: c.quiet, Stats: c.stats,
		LineNumbers: !c.noLineNumber, WithFilename: c.withFilename, NoFilename: c.noFilename,
		Column: c.column, ByteOffset: c.byteOffset, Vimgrep: c.vimgrep, Null: c.null, JSON: c.json,
		Sort: c.sort, Timeout: c.timeout,
	}
	switch {
	case c.caseSensitive:
	case c.ignoreCase:
		o.Case = job.CaseIgnore
	case c.smartCase:
		o.Case = job.CaseSmart
	}
	if c.before >= 0 {
		o.ContextBefore = c.before
	}
	if c.after >= 0 {
		o.ContextAfter = c.after
	}
	if c.maxFilesize != "" {
		n, err := parseByteSize(c.maxFilesize)
		if err != nil {
			return job.Options{}, err
		}
		o.MaxFileSize = n
	}
	if !c.maxColumnsSet && (c.onlyMatching || c.vimgrep || c.json) {
		// These print every match on its own: cutting the line would
		// drop the matches past the cut.
		o.MaxColumns = 0
	}
	if (c.count || c.countMatches) && c.filesWithMatches {
		return job.Options{}, usagef("-c and -l cannot be combined")
	}
	var err error
	if o.Colors, err = colorPalette(c.color, env.isTerminal, env.cfg.Env.Get); err != nil {
		return job.Options{}, err
	}
	return o, nil
}

// parseByteSize reads ripgrep's --max-filesize syntax: a number with an
// optional K, M or G suffix (powers of 1024).
func parseByteSize(s string) (int64, error) {
	mult := int64(1)
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	num := s
	if mult > 1 {
		num = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, usagef("--max-filesize %q: give a size in bytes, optionally with a K, M or G suffix (e.g. 10M)", s)
	}
	return n * mult, nil
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
