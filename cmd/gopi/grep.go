package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/internal/promptwriter"
	"github.com/gopi-agent/gopi/search/grep"
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
	binary                               binaryMode // -a, --binary, --no-binary and -uuu: the last one given wins
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
	fs.VarPF(&binaryFlag{mode: &c.binary, on: binaryText}, "text", "a", "search binary files as if they were text, printing their lines (the last of -a, --binary and --no-binary wins)").NoOptDefVal = "true"
	fs.VarPF(&binaryFlag{mode: &c.binary, on: binarySearch}, "binary", "", `search binary files found in directories too, reporting each as "binary file matches", as a named one is`).NoOptDefVal = "true"
	fs.VarPF(&binaryFlag{mode: &c.binary, on: binarySkip}, "no-binary", "", "skip binary files found in directories (the default; undoes --binary, -a and -uuu)").NoOptDefVal = "true"
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
	job, err := newGrepJob(&c, fs.Args(), env)
	if err != nil {
		return fail(env, "grep", err)
	}
	code, err := job.run(ctx, env)
	if err != nil {
		return fail(env, "grep", err)
	}
	return code
}

// streamStdin searches standard input, giving up after o.Timeout: a read
// of a terminal or a pipe cannot be interrupted, so the search goes on in
// a goroutine that is abandoned (and ends with the process) when the time
// is up; from then on its results are dropped.
func streamStdin(ctx context.Context, o grep.Options, r io.Reader, needs grep.Needs, onResult func(*grep.FileResult) error) (*grep.Summary, error) {
	if o.Timeout <= 0 {
		return grep.StreamReaderTo(ctx, o, "<stdin>", r, fileSink{needs, onResult})
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	var mu sync.Mutex
	abandoned := false
	type outcome struct {
		sum *grep.Summary
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		sum, err := grep.StreamReaderTo(ctx, o, "<stdin>", r, fileSink{needs, func(fr *grep.FileResult) error {
			mu.Lock()
			defer mu.Unlock()
			if abandoned {
				return context.DeadlineExceeded
			}
			return onResult(fr)
		}})
		done <- outcome{sum, err}
	}()
	select {
	case d := <-done:
		return d.sum, d.err
	case <-ctx.Done():
		mu.Lock()
		abandoned = true
		mu.Unlock()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("grep timed out after %s", o.Timeout)
		}
		return nil, ctx.Err()
	}
}

// fileSink is a grep.Sink: fn gets each file's results, which hold what
// needs asks for.
type fileSink struct {
	needs grep.Needs
	fn    func(*grep.FileResult) error
}

// Needs returns the needs the sink was made with.
func (s fileSink) Needs() grep.Needs { return s.needs }

// File hands fr to the function.
func (s fileSink) File(fr *grep.FileResult) error { return s.fn(fr) }

// stdinPath is the path argument that names standard input.
const stdinPath = "-"

// grepJob is one `gopi grep` invocation.
type grepJob struct {
	base      grep.Options
	needs     grep.Needs // what the printer needs of each file (more per path: see run)
	paths     []string   // as typed; "" for the implicit current directory, "-" for stdin
	stats     bool
	quiet     bool
	listFiles bool // --files
	order     printer.Order
	held      []heldResult         // results waiting for the end of the search when order needs them all
	times     map[string]time.Time // sort timestamps taken before the search (see takeTimes)
	argFiles  map[string]bool      // per path argument: names a file, not a directory (see argIsFile)
	out       *promptwriter.Writer
	errOut    io.Writer
	printer   *printer.Printer // lays the results out on out

	// filters are the filtering flags given (-g, --iglob, -t, -T,
	// --max-depth, --max-filesize), named when they leave nothing to search.
	filters []string
}

func newGrepJob(c *grepCLI, rest []string, env *cliEnv) (*grepJob, error) {
	patterns := c.regexps
	if len(patterns) == 0 && !c.files {
		if len(rest) == 0 {
			return nil, usagef("missing PATTERN")
		}
		patterns, rest = rest[:1], rest[1:]
	}
	if len(patterns) == 0 { // --files: no pattern, nothing is matched
		patterns = []string{""}
	}
	if c.follow && runtime.GOOS == "windows" {
		return nil, usagef("-L/--follow is not supported on Windows: symbolic links are never followed; name the link targets as paths instead")
	}
	pattern := combinePatterns(patterns, c.fixed, c.word)
	if c.line {
		pattern = `^(?:` + pattern + `)$`
	}
	o := grep.DefaultOptions(pattern, "")
	var needs grep.Needs
	o.ScanCache = env.scanner()
	switch {
	case c.caseSensitive:
	case c.ignoreCase:
		o.IgnoreCase = true
	case c.smartCase:
		o.IgnoreCase = !hasUpperLiteral(patterns, c.fixed)
	}
	o.Multiline = c.multiline
	o.Follow = c.follow
	o.Hidden = c.hidden || c.unrestricted >= 2
	o.Gitignore = !c.noIgnore && c.unrestricted < 1
	o.Text = c.binary == binaryText
	o.Binary = c.binary == binarySearch
	o.Invert = c.invert
	// Like ripgrep, the CLI has no rule of its own for node_modules: only
	// ignore files keep it out. (The agent's search tool prunes it.)
	o.NodeModules = true
	o.ContextBefore, o.ContextAfter = c.context, c.context
	if c.before >= 0 {
		o.ContextBefore = c.before
	}
	if c.after >= 0 {
		o.ContextAfter = c.after
	}
	o.MaxCount = c.maxCount
	if c.maxFilesize != "" {
		n, err := parseByteSize(c.maxFilesize)
		if err != nil {
			return nil, err
		}
		o.MaxFileSize = n
	}
	o.MaxDepth = c.maxDepth
	o.MaxColumns = c.maxColumns
	if !c.maxColumnsSet && (c.onlyMatching || c.vimgrep || c.json) {
		// These print every match on its own: cutting the line would
		// drop the matches past the cut.
		o.MaxColumns = 0
	}
	o.Types, o.TypesNot = c.types, c.typesNot
	switch {
	case (c.count || c.countMatches) && c.filesWithMatches:
		return nil, usagef("-c and -l cannot be combined")
	case c.count || c.countMatches:
		o.Mode = grep.ModeCount
	case c.filesWithMatches:
		o.Mode = grep.ModeFilesWithMatches
		// A path is printed at its file's first match, as ripgrep does;
		// --stats wants the whole count of matching lines.
		needs.FirstMatchEnough = !c.stats
	}
	o.Timeout = c.timeout
	o.Overrides, o.OverrideFold = c.globs.globs, c.globs.fold
	colors, err := colorPalette(c.color, env.isTerminal, env.cfg.Env.Get)
	if err != nil {
		return nil, err
	}
	j := &grepJob{
		base: o, needs: needs, paths: rest, stats: c.stats, quiet: c.quiet, listFiles: c.files, order: c.sort,
		out: promptwriter.New(env.stdout, 64<<10), errOut: env.stderr,
	}
	layout := printer.Config{
		Colors: colors, Mode: o.Mode, JSON: c.json, Context: o.ContextBefore > 0 || o.ContextAfter > 0,
		LineNumbers: !c.noLineNumber || c.column || c.vimgrep, ByteOffset: c.byteOffset, Null: c.null,
		// Lines that do not match have no match to show alone or
		// to point at: -v prints them whole, without a column (as
		// ripgrep does with -o, --column and --vimgrep).
		Column: (c.column || c.vimgrep) && !c.invert, OnlyMatching: c.onlyMatching && !c.invert, Vimgrep: c.vimgrep && !c.invert,
	}
	j.filters = givenFilters(c)
	if len(j.paths) == 0 {
		j.paths = []string{""}
		if env.stdinReadable && !c.files {
			j.paths = []string{stdinPath}
		}
	}
	if o.Mode == grep.ModeContent && (c.column || c.vimgrep) && !c.invert {
		// Only columns and --vimgrep lay out lines differently when
		// matches can span lines.
		if layout.Crosses, err = grep.CrossesLines(o); err != nil {
			return nil, err
		}
	}
	if o.Mode == grep.ModeCount && !c.invert {
		// -c prints the number of matches rather than of matching
		// lines, as ripgrep does when a match can span lines.
		if layout.CountMatches, err = grep.CrossesLines(o); err != nil {
			return nil, err
		}
		// -o -c counts the parts -o would print, as ripgrep does.
		layout.CountMatches = layout.CountMatches || c.countMatches || c.onlyMatching
		// -c prints line counts; --json also prints the match count.
		j.needs.CountLinesOnly = !layout.CountMatches && !c.json
	}
	switch {
	case c.noFilename:
		layout.WithPath = false
	case c.withFilename || c.vimgrep:
		layout.WithPath = true
	default:
		layout.WithPath = len(j.paths) > 1 || (j.paths[0] != stdinPath && !isRegularFile(j.paths[0]))
	}
	j.printer = printer.New(j.out, layout)
	return j, nil
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

// binaryMode is what a search does with binary files found in
// directories (ripgrep's binary modes).
type binaryMode uint8

const (
	binarySkip   binaryMode = iota // skipped (the default)
	binarySearch                   // searched and reported as "binary file matches" (--binary, -uuu)
	binaryText                     // searched as text, their lines printed (-a)
)

// binaryFlag is -a (on binaryText), --binary (binarySearch) or
// --no-binary (binarySkip): each sets the one mode they share, so the
// last one given wins, as in ripgrep 14. Turning -a or --binary off
// (--binary=false) goes back to skipping if that flag had set the mode.
type binaryFlag struct {
	mode *binaryMode
	on   binaryMode
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
		*f.mode = binarySkip
	}
	return nil
}

// unrestrictedFlag is -u, counted as pflag counts: the third one also
// sets the binary mode to binarySearch, at its place among -a, --binary
// and --no-binary.
type unrestrictedFlag struct {
	n      *int
	binary *binaryMode
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
		*f.binary = binarySearch
	}
	return nil
}

// combinePatterns joins the -e patterns into one regex: each quoted when
// fixed (-F), alternatives grouped, and the whole wrapped in word
// boundaries for -w.
func combinePatterns(patterns []string, fixed, word bool) string {
	parts := make([]string, len(patterns))
	for i, p := range patterns {
		if fixed {
			p = quoteRegex(p)
		}
		parts[i] = p
	}
	pattern := parts[0]
	if len(parts) > 1 {
		pattern = "(?:" + strings.Join(parts, ")|(?:") + ")"
	}
	if word {
		pattern = `\b(?:` + pattern + `)\b`
	}
	return pattern
}

// quoteRegex escapes every character that has a meaning in Rust regex
// syntax, so the result matches s literally.
func quoteRegex(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$#&-~`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hasUpperLiteral reports whether a pattern has an upper-case letter that
// is text to match (ripgrep's smart case): letters of escapes such as \W
// or \p{Lu} do not count.
func hasUpperLiteral(patterns []string, fixed bool) bool {
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			if !fixed && p[i] == '\\' {
				i++ // the escaped character
				if i < len(p) && (p[i] == 'p' || p[i] == 'P') && i+1 < len(p) && p[i+1] == '{' {
					if end := strings.IndexByte(p[i:], '}'); end >= 0 {
						i += end
					}
				}
				continue
			}
			if r := rune(p[i]); r < utf8RuneSelf && unicode.IsUpper(r) {
				return true
			}
		}
		if strings.IndexFunc(p, func(r rune) bool { return r >= utf8RuneSelf && unicode.IsUpper(r) }) >= 0 {
			return true
		}
	}
	return false
}

// utf8RuneSelf: runes below it are single bytes.
const utf8RuneSelf = 0x80

// overrideBase is the search root as ripgrep prints it, which its -g globs
// are matched against (joined with each path below it): arg cleaned and
// slash-separated; "" for the implicit current directory.
func overrideBase(arg string) string {
	if arg == "" {
		return ""
	}
	if p := filepath.ToSlash(filepath.Clean(arg)); p != "." {
		return p
	}
	return ""
}

// pathOptions are the search options for the path argument path ("" for
// the current directory): the job's, with the path and what -g globs are
// matched against.
func (j *grepJob) pathOptions(path string) grep.Options {
	o := j.base
	o.Path = path
	if path == "" {
		o.Path = "."
	}
	o.OverrideBase = overrideBase(path)
	if wd, err := os.Getwd(); err == nil {
		o.OverrideCwd = filepath.ToSlash(wd)
	}
	return o
}

// shownPath returns, for a search of the path argument arg, the path a
// result path is printed by; safe for the search workers to call.
func (j *grepJob) shownPath(arg string) func(path string) string {
	if arg == stdinPath {
		return func(path string) string { return path }
	}
	isFile := arg != "" && j.argIsFile(arg)
	return func(path string) string { return printer.DisplayPath(arg, path, isFile) }
}

// shown is the path a result path rel of a search of the path argument
// arg is printed by (shownPath's, for the printing goroutine).
func (j *grepJob) shown(arg, rel string) string {
	if arg == stdinPath {
		return rel
	}
	return printer.DisplayPath(arg, rel, arg != "" && j.argIsFile(arg))
}

// argIsFile is isRegularFile for a path argument, asked once per argument:
// every printed result needs it, and a stat per result cost 6 % of a search
// printing 240,000 lines. Only the printing goroutine calls it.
func (j *grepJob) argIsFile(arg string) bool {
	v, ok := j.argFiles[arg]
	if !ok {
		if j.argFiles == nil {
			j.argFiles = map[string]bool{}
		}
		v = isRegularFile(arg)
		j.argFiles[arg] = v
	}
	return v
}

func isRegularFile(path string) bool {
	if path == "" {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// run searches every path in order and prints as results arrive. Like
// ripgrep, a path that cannot be searched or a file that cannot be read is
// named on stderr and the search goes on; the exit status is then 2.
func (j *grepJob) run(ctx context.Context, env *cliEnv) (int, error) {
	defer j.out.Stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	matched, hadError := false, false
	var total grep.Summary
	stopped := errors.New("quiet: first match found")
	searches := make([]grepSearch, len(j.paths))
	for i, p := range j.paths {
		searches[i] = grepSearch{arg: p}
	}
	if j.order.Holds() && !j.listFiles && !slices.Contains(j.paths, stdinPath) {
		// Sorted: list every file and its timestamp first, then search
		// them in order as one list, printing as the results come.
		files, missing, err := j.plan(ctx)
		if err != nil {
			j.out.Flush()
			return exitError, err
		}
		hadError = missing
		searches = []grepSearch{{planned: true, files: files}}
	}
	for _, s := range searches {
		path := s.arg
		o := j.pathOptions(path)
		if s.planned {
			o.Files = s.files
		}
		needs := j.needs
		if o.Mode == grep.ModeContent && !j.quiet {
			// The workers format the lines or JSON objects (ignored
			// with context lines), and need no more of a line than the
			// printer shows.
			content := j.printer.ContentNeeds(j.shownPath(path))
			needs.Render, needs.FirstMatchOnly = content.Render, content.FirstMatchOnly
			// print writes the bytes out at once unless results are held
			// for sorting.
			needs.ReuseRendered = !(j.order.Holds() && !s.planned)
		}
		onResult := func(fr *grep.FileResult) error {
			matched = true
			switch {
			case j.quiet:
				return stopped
			case j.order.Holds() && !s.planned:
				j.held = append(j.held, heldResult{arg: path, result: fr})
				return nil
			}
			j.out.Begin()
			err := j.printer.File(j.shown(path, fr.Path), fr)
			j.out.EndRecord()
			return err
		}
		var sum *grep.Summary
		var err error
		switch {
		case path == stdinPath && j.listFiles:
			// As ripgrep: standard input is one of the "files" searched.
			j.out.WriteString("<stdin>")
			j.out.WriteByte(j.printer.PathEnd())
			matched = true
			sum = &grep.Summary{}
		case path == stdinPath:
			sum, err = streamStdin(ctx, o, env.stdin, needs, onResult)
		case s.planned:
			sum, err = grep.StreamTo(ctx, o, fileSink{needs, onResult})
		case j.listFiles:
			var n int
			n, err = j.printFiles(ctx, path, o)
			matched = matched || n > 0
			sum = &grep.Summary{}
		default:
			if _, serr := os.Stat(o.Path); serr != nil {
				j.out.Flush()
				fmt.Fprintf(j.errOut, "gopi grep: %s: %s\n", o.Path, errnoText(serr))
				hadError = true
				continue
			}
			if err := j.takeTimes(ctx, path, o); err != nil {
				return exitError, err
			}
			sum, err = grep.StreamTo(ctx, o, fileSink{needs, onResult})
		}
		if errors.Is(err, stopped) {
			return exitMatch, nil
		}
		if err != nil {
			j.out.Flush()
			return exitError, err
		}
		if len(sum.Skipped) > 0 {
			j.out.Flush()
			for _, s := range sum.Skipped {
				shown := s.Path // "<stdin>"
				if path != stdinPath {
					shown = printer.DisplayPath(path, s.Path, path == o.Path && j.argIsFile(path))
				}
				fmt.Fprintf(j.errOut, "gopi grep: %s: %s\n", shown, errnoText(s.Err))
				// A file over --max-filesize is skipped as asked: named,
				// but not an error (ripgrep skips such files silently).
				hadError = hadError || !errors.Is(s.Err, grep.ErrTooLarge)
			}
		}
		total.TotalMatches += sum.TotalMatches
		total.FilesSearched += sum.FilesSearched
		total.FilesWithMatches += sum.FilesWithMatches
		total.FilesSkipped += sum.FilesSkipped
		total.BinarySkipped += sum.BinarySkipped
	}
	if err := j.printHeld(); err != nil {
		return exitError, err
	}
	if err := j.out.Flush(); err != nil {
		return exitError, fmt.Errorf("write output: %w", err)
	}
	if j.stats {
		fmt.Fprintf(j.errOut, "%d matching lines in %d files; %d files searched, %d binary skipped, %d unreadable\n",
			total.TotalMatches, total.FilesWithMatches, total.FilesSearched, total.BinarySkipped, total.FilesSkipped)
	}
	switch {
	case hadError:
		return exitError, nil
	case matched:
		return exitMatch, nil
	}
	if total.FilesSearched == 0 && total.BinarySkipped == 0 && len(j.filters) > 0 && !j.listFiles && slices.Equal(j.paths, []string{""}) && holdsAFile(".") {
		// As ripgrep does when a search of the current directory reads
		// nothing: the filters are the likely reason. Not an error.
		fmt.Fprintf(j.errOut, "gopi grep: no file was searched: %s left out every file here; check them (--files lists what a search would read)\n", strings.Join(j.filters, ", "))
	}
	return exitNoMatch, nil
}

// holdsAFile reports whether a regular file lies somewhere below dir,
// looking at no more than a few thousand entries: the hint that filters
// left every file out would mislead in an empty tree.
func holdsAFile(dir string) bool {
	queue, seen := []string{dir}, 0
	for len(queue) > 0 && seen < 4096 {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			seen++
			switch {
			case e.Type().IsRegular():
				return true
			case e.IsDir() && e.Name() != ".git":
				queue = append(queue, filepath.Join(d, e.Name()))
			}
		}
	}
	return seen >= 4096 // too many to look through: assume there are files
}

// givenFilters names the flags of c that leave files out of a directory
// search, in a fixed order.
func givenFilters(c *grepCLI) []string {
	var out []string
	add := func(given bool, name string) {
		if given {
			out = append(out, name)
		}
	}
	add(slices.Contains(c.globs.fold, false), "-g")
	add(slices.Contains(c.globs.fold, true), "--iglob")
	add(len(c.types) > 0, "-t")
	add(len(c.typesNot) > 0, "-T")
	add(c.maxDepth > 0, "--max-depth")
	add(c.maxFilesize != "", "--max-filesize")
	return out
}

// printFiles prints the files a search of path would read (--files) and
// returns how many there were.
func (j *grepJob) printFiles(ctx context.Context, path string, o grep.Options) (int, error) {
	n := 0
	isFile := isRegularFile(path)
	err := grep.EachFile(ctx, o, func(f string) error {
		n++
		if j.order.Holds() {
			j.held = append(j.held, heldResult{arg: path, file: f})
			return nil
		}
		j.out.WriteString(printer.DisplayPath(path, f, isFile))
		err := j.out.WriteByte(j.printer.PathEnd()) // a failed write (the reader has gone) stops the walk
		j.out.EndRecord()
		return err
	})
	return n, err
}

// errnoText is the reason of a file error without the path the error
// repeats: "No such file or directory", "Permission denied".
func errnoText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		var errno syscall.Errno
		if errors.As(pe.Err, &errno) {
			msg := errno.Error()
			return strings.ToUpper(msg[:1]) + msg[1:]
		}
		return pe.Err.Error()
	}
	return err.Error()
}
