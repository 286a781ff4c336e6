package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/promptwriter"
	"github.com/gopi-agent/gopi/search/fuzzy"
	"github.com/gopi-agent/gopi/search/glob"
)

// findCLI holds the typed values of `gopi find`'s flags.
type findCLI struct {
	hidden, noIgnore, ignoreCase, caseSensitive bool
	typ                                         string
	limit                                       int
	newest                                      bool
	fuzzy                                       string
	json                                        bool
	color                                       string
	timeout                                     time.Duration
	globMode, regexMode, fullPath               bool
	extensions, excludes                        []string
	maxDepth                                    int
	print0, absolute, follow                    bool
	size                                        []string
	changedWithin                               string
	help                                        bool
}

// newFindFlagSet declares gopi find's flags on c. It is also what
// completion scripts and the man page are generated from. -x/-X are taken
// out of the arguments before parsing (they consume a whole command line;
// see splitExec) and are declared here for help and completion only.
func newFindFlagSet(c *findCLI, execDummy *[]string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("find", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVarP(&c.hidden, "hidden", "H", false, "include hidden files and directories")
	fs.BoolVarP(&c.noIgnore, "no-ignore", "I", false, "do not honour .gitignore, .ignore or git's exclude files")
	fs.BoolVarP(&c.ignoreCase, "ignore-case", "i", false, "match the pattern case-insensitively")
	fs.BoolVarP(&c.caseSensitive, "case-sensitive", "s", false, "match the pattern case-sensitively")
	fs.BoolVarP(&c.globMode, "glob", "g", false, "the pattern is a glob (the default; accepted for fd's habit)")
	fs.BoolVar(&c.regexMode, "regex", false, "the pattern is a regex searched for in each name (in the whole path with -p), as fd does by default")
	fs.BoolVarP(&c.fullPath, "full-path", "p", false, "match the pattern against the whole path relative to PATH, not just the name")
	fs.StringVarP(&c.typ, "type", "t", "", "only entries of `TYPE`: f (file), d (directory), l (symlink), x (executable file), e (empty file or directory)")
	fs.StringArrayVarP(&c.extensions, "extension", "e", nil, "only files with extension `EXT` (repeatable; case-insensitive)")
	fs.StringArrayVarP(&c.excludes, "exclude", "E", nil, "leave out paths matching `GLOB` and everything below them (repeatable)")
	fs.IntVarP(&c.maxDepth, "max-depth", "d", 0, "descend at most `N` levels below each PATH (0: no limit)")
	fs.StringArrayVarP(&c.size, "size", "S", nil, "only files of `SIZE`: +N at least, -N at most, N exactly; units b, k, m, g, t (powers of 1000) and ki, mi, gi, ti (of 1024) (repeatable)")
	fs.StringVar(&c.changedWithin, "changed-within", "", "only entries modified within `DURATION` (e.g. 2h, 3d, 1w) or since a date (2024-01-31 or 2024-01-31 10:00:00)")
	fs.StringArrayVarP(execDummy, "exec", "x", nil, "run `CMD` for each path: the arguments up to ';' ({} path, {/} base name, {//} parent, {.} path and {/.} base name without extension; the path is appended when none is given)")
	fs.StringArrayVarP(execDummy, "exec-batch", "X", nil, "run `CMD` once with every path (arguments up to ';', {} placeholders as -x)")
	fs.BoolVarP(&c.print0, "print0", "0", false, "end every path with a NUL byte instead of a newline")
	fs.BoolVarP(&c.absolute, "absolute-path", "a", false, "print absolute paths")
	fs.BoolVarP(&c.follow, "follow", "L", false, "follow symbolic links: a link is listed as what it points at and a linked directory is walked (a link loop is not entered twice)")
	fs.IntVar(&c.limit, "limit", 0, "print at most `N` paths (0: no limit)")
	fs.BoolVar(&c.newest, "newest", false, "sort by modification time, newest first")
	fs.StringVar(&c.fuzzy, "fuzzy", "", "rank paths by fuzzy match against `QUERY` instead of a pattern")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per path")
	fs.StringVar(&c.color, "color", "auto", "`WHEN` to color: auto (only on a terminal), always or never")
	fs.DurationVar(&c.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5s; 0: never)")
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

// execSpec is a -x or -X command line.
type execSpec struct {
	argv  []string
	batch bool
}

// splitExec takes -x/--exec and -X/--exec-batch with their command lines
// (up to a ';' argument or the end) out of args.
func splitExec(args []string) ([]string, *execSpec, error) {
	var rest []string
	var spec *execSpec
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
			return nil, nil, usagef("give only one -x/--exec or -X/--exec-batch")
		}
		spec = &execSpec{batch: batch}
		for i++; i < len(args) && args[i] != ";"; i++ {
			spec.argv = append(spec.argv, args[i])
		}
		if len(spec.argv) == 0 {
			return nil, nil, usagef("%s needs a command", a)
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
		return fail(env, "find", usagef("%v", err))
	}
	if c.help {
		fmt.Fprint(env.stdout, findUsage+pflagHelp(fs))
		return exitMatch
	}
	code, err := findMain(ctx, env, &c, fs, fs.Args(), ex)
	if err != nil {
		return fail(env, "find", err)
	}
	return code
}

// findFilter is the per-entry filters fd has and glob.Find does not.
type findFilter struct {
	re         *regexp.Regexp // --regex
	fullPath   bool
	exts       []string // lower-case, without the dot
	excludes   []*glob.Pattern
	maxDepth   int
	sizes      []sizeBound
	since      time.Time // zero: no --changed-within
	executable bool      // -t x
	empty      bool      // -t e
}

// sizeBound is one --size condition on a file's byte size.
type sizeBound struct {
	op    byte // '+', '-' or '='
	bytes int64
}

var sizeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([+-]?)(\d+)([a-zA-Z]*)$`) })

// parseSize reads fd's --size syntax.
func parseSize(s string) (sizeBound, error) {
	m := sizeRE().FindStringSubmatch(s)
	if m == nil {
		return sizeBound{}, usagef("--size %q: use [+-]N[unit], e.g. +10k, -1mi, 500b", s)
	}
	n, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return sizeBound{}, usagef("--size %q: %v", s, err)
	}
	units := map[string]int64{"": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
		"ki": 1 << 10, "kib": 1 << 10, "mi": 1 << 20, "mib": 1 << 20, "gi": 1 << 30, "gib": 1 << 30, "ti": 1 << 40, "tib": 1 << 40}
	u, ok := units[strings.ToLower(m[3])]
	if !ok {
		return sizeBound{}, usagef("--size %q: unknown unit %q; use b, k, m, g, t, ki, mi, gi or ti", s, m[3])
	}
	op := byte('=')
	if m[1] != "" {
		op = m[1][0]
	}
	return sizeBound{op: op, bytes: n * u}, nil
}

func (b sizeBound) ok(size int64) bool {
	switch b.op {
	case '+':
		return size >= b.bytes
	case '-':
		return size <= b.bytes
	}
	return size == b.bytes
}

// parseChangedWithin reads a duration (Go syntax plus d and w) or a date
// and returns the oldest modification time accepted.
func parseChangedWithin(s string, now time.Time) (time.Time, error) {
	if n, unit := strings.TrimRight(s, "dw"), strings.TrimLeft(s, "0123456789"); unit == "d" || unit == "w" {
		if v, err := strconv.Atoi(n); err == nil {
			days := v
			if unit == "w" {
				days *= 7
			}
			return now.Add(-time.Duration(days) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		return now.Add(-d), nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usagef("--changed-within %q: use a duration (90m, 2h, 3d, 1w) or a date (2024-01-31 or 2024-01-31 10:00:00)", s)
}

// needsStat reports whether the filter needs each entry's lstat.
func (f *findFilter) needsStat() bool {
	return len(f.sizes) > 0 || !f.since.IsZero() || f.executable || f.empty
}

// keep applies the filters to one match under root.
func (f *findFilter) keep(root string, m glob.Match) bool {
	if f.maxDepth > 0 && strings.Count(m.Path, "/")+1 > f.maxDepth {
		return false
	}
	for _, ex := range f.excludes {
		for p := m.Path; p != "." && p != "/" && p != ""; p = path.Dir(p) {
			if ex.Match(p) {
				return false
			}
		}
	}
	name := path.Base(m.Path)
	if len(f.exts) > 0 {
		if m.Type != fscache.TypeFile {
			return false
		}
		lower := strings.ToLower(name)
		found := false
		for _, e := range f.exts {
			if strings.HasSuffix(lower, "."+e) && len(lower) > len(e)+1 {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if f.re != nil {
		subject := name
		if f.fullPath {
			subject = m.Path
		}
		if !f.re.MatchString(subject) {
			return false
		}
	}
	if !f.needsStat() {
		return true
	}
	info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(m.Path)))
	if err != nil {
		return false
	}
	if f.executable && (!info.Mode().IsRegular() || info.Mode()&0o111 == 0) {
		return false
	}
	if f.empty {
		switch {
		case info.Mode().IsRegular():
			if info.Size() != 0 {
				return false
			}
		case info.IsDir():
			ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(m.Path)))
			if err != nil || len(ents) > 0 {
				return false
			}
		default:
			return false
		}
	}
	for _, b := range f.sizes {
		if !info.Mode().IsRegular() || !b.ok(info.Size()) {
			return false
		}
	}
	if !f.since.IsZero() && info.ModTime().Before(f.since) {
		return false
	}
	return true
}

func findMain(ctx context.Context, env *cliEnv, c *findCLI, fs *pflag.FlagSet, rest []string, ex *execSpec) (int, error) {
	if c.limit < 0 || c.maxDepth < 0 {
		return exitError, usagef("--limit and --max-depth need a whole number ≥ 0")
	}
	if c.follow && runtime.GOOS == "windows" {
		return exitError, usagef("-L/--follow is not supported on Windows: symbolic links are listed, never followed")
	}
	if c.globMode && c.regexMode {
		return exitError, usagef("-g/--glob and --regex cannot be combined")
	}
	colors, err := colorPalette(c.color, env.isTerminal, env.cfg.Env.Get)
	if err != nil {
		return exitError, err
	}
	if c.timeout < 0 {
		return exitError, usagef("--timeout needs a positive duration such as 5s")
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	filter := &findFilter{fullPath: c.fullPath, maxDepth: c.maxDepth}
	fileType := glob.Any
	switch c.typ {
	case "":
	case "f", "file":
		fileType = glob.File
	case "d", "dir", "directory":
		fileType = glob.Dir
	case "l", "symlink":
		fileType = glob.Symlink
	case "x", "executable":
		fileType, filter.executable = glob.File, true
	case "e", "empty":
		filter.empty = true
	default:
		return exitError, usagef("--type must be f, d, l, x or e, got %q", c.typ)
	}
	for _, e := range c.extensions {
		filter.exts = append(filter.exts, strings.ToLower(strings.TrimPrefix(e, ".")))
	}
	for _, g := range c.excludes {
		p, err := glob.Compile(cliFindGlob(strings.TrimSuffix(g, "/")))
		if err != nil {
			return exitError, usagef("--exclude %q: %v", g, err)
		}
		filter.excludes = append(filter.excludes, p)
	}
	for _, s := range c.size {
		b, err := parseSize(s)
		if err != nil {
			return exitError, err
		}
		filter.sizes = append(filter.sizes, b)
	}
	if c.changedWithin != "" {
		if filter.since, err = parseChangedWithin(c.changedWithin, time.Now()); err != nil {
			return exitError, err
		}
	}

	out := promptwriter.New(env.stdout, 64<<10)
	defer out.Stop()
	var collected []string // paths for -X
	execFailed := false
	end := byte('\n')
	if c.print0 {
		end = 0
	}
	lastArg, lastBase := "", ""
	emit := func(arg, rel string, typ fscache.EntryType, mtime int64) error {
		if arg != lastArg || lastBase == "" {
			lastArg, lastBase = arg, fdBase(arg)
		}
		p := joinClean(lastBase, rel)
		if arg == "" && (c.print0 || ex != nil) {
			// As fd: paths handed to programs start with "./", so a
			// name beginning with '-' is never read as an option.
			p = "./" + p
		}
		if c.absolute {
			if abs, err := filepath.Abs(filepath.FromSlash(p)); err == nil {
				p = filepath.ToSlash(abs)
			}
		}
		switch {
		case ex != nil && ex.batch:
			collected = append(collected, p)
			return nil
		case ex != nil:
			out.Flush()
			if err := runFindExec(ctx, env, ex.argv, []string{p}); err != nil {
				if ctx.Err() != nil {
					return err
				}
				execFailed = true
			}
			return nil
		case c.json:
			b, err := json.Marshal(map[string]any{"path": p, "type": typeName(typ), "mtime": mtime})
			if err != nil {
				return err
			}
			out.Write(b)
			err = out.WriteByte('\n')
			out.EndRecord()
			return err
		}
		if colors.Path != "" {
			out.WriteString(colors.Path)
		}
		out.WriteString(p)
		if colors.Reset != "" {
			out.WriteString(colors.Reset)
		}
		err := out.WriteByte(end)
		out.EndRecord()
		return err
	}

	fuzzyMode := fs.Changed("fuzzy")
	pattern := ""
	if !fuzzyMode && len(rest) > 0 {
		pattern, rest = rest[0], rest[1:]
	}
	if c.ignoreCase && c.caseSensitive {
		return exitError, usagef("-i and -s cannot be combined")
	}
	ignoreCase := findIgnoresCase(pattern, c.ignoreCase, c.caseSensitive)
	globPattern := cliFindGlob(pattern)
	if c.regexMode {
		expr := pattern
		if ignoreCase {
			expr = "(?i)" + expr
		}
		if filter.re, err = regexp.Compile(expr); err != nil {
			return exitError, usagef("invalid regex %q: %v", pattern, err)
		}
		globPattern = "**"
	} else if c.fullPath && pattern != "" && !strings.Contains(pattern, "/") {
		globPattern = pattern // matched against the whole relative path
	}
	if len(rest) == 0 {
		rest = []string{""}
	}
	// The limit applies after the extra filters, so Find is unlimited
	// when there are any.
	extra := filter.re != nil || len(filter.exts) > 0 || len(filter.excludes) > 0 || filter.maxDepth > 0 || filter.needsStat()
	found := 0
	for _, arg := range rest {
		root := arg
		if root == "" {
			root = "."
		}
		if info, err := os.Stat(root); err == nil && !info.IsDir() {
			return exitError, fmt.Errorf("%s is not a directory: give directories to search as PATH", root)
		}
		if fuzzyMode {
			res, err := fuzzy.Find(ctx, root, fuzzy.Options{
				Query: c.fuzzy, Hidden: c.hidden, Gitignore: !c.noIgnore, MaxResults: c.limit, Scanner: env.scanner(),
			})
			if err != nil {
				return exitError, err
			}
			for _, m := range res.Matches {
				typ := fscache.TypeFile
				if m.IsDir {
					typ = fscache.TypeDir
				}
				if err := emit(arg, m.Path, typ, 0); err != nil {
					return exitError, err
				}
				found++
			}
			continue
		}
		maxResults := c.limit
		if extra {
			maxResults = 0
		}
		gopts := glob.Options{
			Pattern: globPattern, IgnoreCase: ignoreCase, FileType: fileType, Hidden: c.hidden, Gitignore: !c.noIgnore,
			NodeModules: true, // as in fd: only ignore files leave node_modules out
			MaxResults:  maxResults, SortByMtime: c.newest, NoMTime: !c.json, Follow: c.follow,
			MaxDepth: c.maxDepth, Scanner: env.scanner(),
		}
		take := func(m glob.Match) (bool, error) {
			if c.limit > 0 && found >= c.limit {
				return false, nil
			}
			if extra && !filter.keep(root, m) {
				return true, nil
			}
			if err := emit(arg, m.Path, m.Type, m.MTime); err != nil {
				return false, err
			}
			found++
			return c.limit == 0 || found < c.limit, nil
		}
		if !c.newest {
			// Printed as the walk finds them.
			if err := glob.Each(ctx, root, gopts, take); err != nil {
				return exitError, err
			}
			continue
		}
		res, err := glob.Find(ctx, root, gopts)
		if err != nil {
			return exitError, err
		}
		for _, m := range res.Matches {
			if more, err := take(m); err != nil {
				return exitError, err
			} else if !more {
				break
			}
		}
	}
	if err := out.Flush(); err != nil {
		return exitError, fmt.Errorf("write output: %w", err)
	}
	if ex != nil && ex.batch && len(collected) > 0 {
		if err := runFindExec(ctx, env, ex.argv, collected); err != nil {
			if ctx.Err() != nil {
				return exitError, err
			}
			execFailed = true
		}
	}
	if found == 0 {
		if hint := findHint(pattern, c.regexMode, fuzzyMode); hint != "" {
			fmt.Fprintf(env.stderr, "gopi find: nothing found; %s\n", hint)
		}
		return exitNoMatch, nil
	}
	if execFailed {
		return exitNoMatch, nil
	}
	return exitMatch, nil
}

// fdBase is the search directory arg as fd prints it before each result
// (joinClean(fdBase(arg), rel) is the path printed: as typed but cleaned,
// "./" kept for "."), worked out once per search directory rather than once
// per path printed (cleaning every joined path was 5 % of listing 200,000
// files): "" for no directory, "." for the current one, else arg cleaned
// and slash-separated.
func fdBase(arg string) string {
	if arg == "" {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(arg))
}

// joinClean joins a base from fdBase and a clean relative path from the
// walk, which gives a clean path without cleaning it again.
func joinClean(base, rel string) string {
	switch base {
	case "":
		return rel
	case ".":
		return "./" + rel
	case "/":
		return "/" + rel
	}
	if rel == "" {
		return base
	}
	return base + "/" + rel
}

// findHint explains an empty result whose pattern was probably meant
// another way: a directory name, a regex, or a bare word that fd would
// find inside names.
func findHint(pattern string, regexMode, fuzzyMode bool) string {
	if pattern == "" || regexMode || fuzzyMode {
		return ""
	}
	if info, err := os.Stat(pattern); err == nil && info.IsDir() {
		return fmt.Sprintf("%q is a directory, but the first argument is the pattern: to list what is in it, run gopi find '' %s", pattern, pattern)
	}
	if strings.ContainsAny(pattern, "^$+()|\\") || strings.Contains(pattern, ".*") {
		return fmt.Sprintf("the pattern is a glob, and %q looks like a regex: pass --regex to use it as one", pattern)
	}
	if !strings.ContainsAny(pattern, "*?[{/") {
		return fmt.Sprintf("the pattern is a glob that must match a whole name: to find names containing %q, use '*%s*' (or --regex %s)", pattern, pattern, pattern)
	}
	return ""
}

// runFindExec runs argv for paths: with placeholders once per path (-x
// passes one path), else with the paths appended.
func runFindExec(ctx context.Context, env *cliEnv, argv, paths []string) error {
	var args []string
	placeholder := false
	for _, a := range argv[1:] {
		if !strings.Contains(a, "{") {
			args = append(args, a)
			continue
		}
		placeholder = true
		for _, p := range paths {
			args = append(args, expandPlaceholders(a, p))
		}
	}
	if !placeholder {
		args = append(args, paths...)
	}
	cmd := exec.CommandContext(ctx, argv[0], args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, env.stdout, env.stderr
	if q, ok := env.stdout.(quietPipe); ok {
		cmd.Stdout = q.w // the file itself, so the program writes to it directly
	}
	// It stays in gopi's process group: Ctrl-C reaches it as it reaches gopi.
	childproc.PrepareForeground(cmd)
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintf(env.stderr, "gopi find: run %s: %v\n", argv[0], err)
	}
	return err
}

// expandPlaceholders replaces fd's placeholders in a with parts of p.
func expandPlaceholders(a, p string) string {
	base := path.Base(p)
	noExt := func(s string) string { return strings.TrimSuffix(s, path.Ext(s)) }
	return strings.NewReplacer("{//}", path.Dir(p), "{/.}", noExt(base), "{/}", base, "{.}", noExt(p), "{}", p).Replace(a)
}

// findIgnoresCase applies fd's smart case: a pattern without upper-case
// letters matches case-insensitively, one with any matches case-sensitively,
// unless -i (ignoreCase) or -s (caseSensitive) forces the choice.
func findIgnoresCase(pattern string, ignoreCase, caseSensitive bool) bool {
	switch {
	case ignoreCase:
		return true
	case caseSensitive:
		return false
	}
	return !strings.ContainsFunc(pattern, unicode.IsUpper)
}

// cliFindGlob applies fd's convention: a glob without '/' matches names at
// any depth. An empty glob lists everything.
func cliFindGlob(g string) string {
	switch {
	case g == "":
		return "**"
	case strings.HasPrefix(g, "/"):
		return strings.TrimPrefix(g, "/")
	case !strings.Contains(g, "/"):
		return "**/" + g
	}
	return g
}

func typeName(t fscache.EntryType) string {
	switch t {
	case fscache.TypeFile:
		return "file"
	case fscache.TypeDir:
		return "directory"
	case fscache.TypeSymlink:
		return "symlink"
	}
	return "other"
}
