package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/search/grep"
)

var grepFlags = []flagSpec{
	{short: 'i', long: "ignore-case", help: "match case-insensitively"},
	{short: 'A', long: "after-context", value: "N", help: "show N lines after each match"},
	{short: 'B', long: "before-context", value: "N", help: "show N lines before each match"},
	{short: 'C', long: "context", value: "N", help: "show N lines before and after each match"},
	{short: 'g', long: "glob", value: "GLOB", repeats: true, help: "search only paths matching GLOB; !GLOB excludes; the last matching glob wins; a glob with '/' is anchored at the working directory (repeatable)"},
	{long: "hidden", help: "search hidden files and directories"},
	{long: "no-ignore", help: "do not honour .gitignore, .ignore or git's exclude files"},
	{short: 'c', long: "count", help: "print the number of matching lines per file (of matches when a match can span lines)"},
	{short: 'l', long: "files-with-matches", help: "print only the paths of files with a match"},
	{short: 'U', long: "multiline", help: "let matches span lines (implied by a pattern holding \\n)"},
	{short: 'n', long: "line-number", help: "print line numbers (the default)"},
	{short: 'N', long: "no-line-number", help: "do not print line numbers"},
	{long: "max-columns", value: "N", help: "cut lines longer than N characters, marking them with … (default 1024; 0 = never)"},
	{long: "json", help: "print one JSON object per match (per file with -c or -l)"},
	{long: "color", value: "WHEN", help: "auto (default: only on a terminal), always or never"},
	{long: "timeout", value: "DURATION", help: "give up after DURATION (e.g. 5s)"},
	{long: "stats", help: "print totals (files searched, skipped, matches) to stderr"},
	{short: 'h', long: "help", help: "show this help"},
}

const grepUsage = `Usage: gopi grep [FLAGS] PATTERN [PATH...]

Search files for lines matching the regex PATTERN (Rust regex syntax), in
every file under each PATH (default: the current directory). Hidden files and
paths ignored by .gitignore/.ignore are skipped unless asked for;
node_modules is an ordinary directory that only ignore files leave out.
Binary files (holding a NUL byte) are skipped. A pattern matches within one
line unless it holds \n or a newline. Braces that cannot be repetitions are
literal: '${name}' finds the text ${name}.

Output is in path order, then line order. Exit status: 0 when a line
matched, 1 when none did, 2 on an error.

Flags:
`

func runGrep(ctx context.Context, env *cliEnv, args []string) int {
	p, err := parseArgs(grepFlags, args)
	if err != nil {
		return fail(env, "grep", err)
	}
	if p.flag("help") {
		fmt.Fprint(env.stdout, grepUsage+helpText(grepFlags))
		return exitMatch
	}
	if len(p.rest) == 0 {
		return fail(env, "grep", usagef("missing PATTERN"))
	}
	job, err := newGrepJob(p, env)
	if err != nil {
		return fail(env, "grep", err)
	}
	code, err := job.run(ctx)
	if err != nil {
		return fail(env, "grep", err)
	}
	return code
}

// grepJob is one `gopi grep` invocation.
type grepJob struct {
	base     grep.Options
	paths    []string // as typed; "" for the implicit current directory
	withPath bool     // print file names
	lineNums bool
	// countMatches: -c prints the number of matches rather than of
	// matching lines, as ripgrep does when a match can span lines.
	countMatches bool
	json         bool
	stats        bool
	colors       palette
	out          *bufio.Writer
	errOut       io.Writer
	lastFile     string // file of the last printed line, for context separators
	lastLine     int
}

func newGrepJob(p *parsedArgs, env *cliEnv) (*grepJob, error) {
	o := grep.DefaultOptions(p.rest[0], "")
	o.IgnoreCase = p.flag("ignore-case")
	o.Multiline = p.flag("multiline")
	o.Hidden = p.flag("hidden")
	o.Gitignore = !p.flag("no-ignore")
	// Like ripgrep, the CLI has no rule of its own for node_modules: only
	// ignore files keep it out. (The agent's search tool prunes it.)
	o.NodeModules = true
	ctxN, err := p.nonNegInt("context", 0)
	if err != nil {
		return nil, err
	}
	if o.ContextBefore, err = p.nonNegInt("before-context", ctxN); err != nil {
		return nil, err
	}
	if o.ContextAfter, err = p.nonNegInt("after-context", ctxN); err != nil {
		return nil, err
	}
	if o.MaxColumns, err = p.nonNegInt("max-columns", grep.DefaultMaxColumns); err != nil {
		return nil, err
	}
	switch {
	case p.flag("count") && p.flag("files-with-matches"):
		return nil, usagef("-c and -l cannot be combined")
	case p.flag("count"):
		o.Mode = grep.ModeCount
	case p.flag("files-with-matches"):
		o.Mode = grep.ModeFilesWithMatches
	}
	if t := p.str("timeout", ""); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return nil, usagef("--timeout needs a positive duration such as 5s, got %q", t)
		}
		o.Timeout = d
	}
	o.Overrides = p.all("glob")
	colors, err := colorPalette(p.str("color", "auto"), env.isTerminal, env.cfg.Env.Get)
	if err != nil {
		return nil, err
	}
	j := &grepJob{
		base: o, paths: p.rest[1:], lineNums: !p.flag("no-line-number"), json: p.flag("json"),
		stats: p.flag("stats"), colors: colors, out: bufio.NewWriterSize(env.stdout, 64<<10), errOut: env.stderr,
	}
	if len(j.paths) == 0 {
		j.paths = []string{""}
	}
	if o.Mode == grep.ModeCount {
		if j.countMatches, err = grep.CrossesLines(o); err != nil {
			return nil, err
		}
	}
	j.withPath = len(j.paths) > 1 || !isRegularFile(j.paths[0])
	return j, nil
}

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

func isRegularFile(path string) bool {
	if path == "" {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// run searches every path in order and prints as results arrive.
func (j *grepJob) run(ctx context.Context) (int, error) {
	defer j.out.Flush()
	matched := false
	var total grep.Summary
	for _, path := range j.paths {
		o := j.base
		o.Path = path
		if path == "" {
			o.Path = "."
		}
		o.OverrideBase = overrideBase(path)
		if wd, err := os.Getwd(); err == nil {
			o.OverrideCwd = filepath.ToSlash(wd)
		}
		sum, err := grep.Stream(ctx, o, func(fr *grep.FileResult) error {
			matched = true
			return j.print(path, fr)
		})
		if err != nil {
			j.out.Flush()
			return exitError, err
		}
		total.TotalMatches += sum.TotalMatches
		total.FilesSearched += sum.FilesSearched
		total.FilesWithMatches += sum.FilesWithMatches
		total.FilesSkipped += sum.FilesSkipped
		total.BinarySkipped += sum.BinarySkipped
	}
	if err := j.out.Flush(); err != nil {
		return exitError, fmt.Errorf("write output: %w", err)
	}
	if total.FilesSkipped > 0 {
		fmt.Fprintf(j.errOut, "gopi grep: %d file(s) could not be read and were skipped\n", total.FilesSkipped)
	}
	if j.stats {
		fmt.Fprintf(j.errOut, "%d matching lines in %d files; %d files searched, %d binary skipped, %d unreadable\n",
			total.TotalMatches, total.FilesWithMatches, total.FilesSearched, total.BinarySkipped, total.FilesSkipped)
	}
	if !matched {
		return exitNoMatch, nil
	}
	return exitMatch, nil
}

// displayPath is what the user sees for a result path.
func displayPath(arg, rel string, isFile bool) string {
	switch {
	case isFile:
		return arg
	case arg == "":
		return rel
	}
	return filepath.ToSlash(filepath.Join(arg, rel))
}

// jsonMatch is the --json shape of one match.
type jsonMatch struct {
	Path       string        `json:"path"`
	Line       int           `json:"line"`
	Text       string        `json:"text"`
	Truncated  bool          `json:"truncated,omitempty"`
	Submatches []jsonSpan    `json:"submatches"`
	Before     []jsonCtxLine `json:"before,omitempty"`
	After      []jsonCtxLine `json:"after,omitempty"`
}

type jsonSpan struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

type jsonCtxLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

func (j *grepJob) print(arg string, fr *grep.FileResult) error {
	isFile := !j.withPath
	path := displayPath(arg, fr.Path, isFile && len(j.paths) == 1)
	switch j.base.Mode {
	case grep.ModeCount:
		count := fr.Lines
		if j.countMatches {
			count = fr.Count
		}
		if j.json {
			return j.writeJSON(map[string]any{"path": path, "count": count, "matches": fr.Count})
		}
		if j.withPath {
			fmt.Fprintf(j.out, "%s%s%s:%d\n", j.colors.path, path, j.colors.reset, count)
		} else {
			fmt.Fprintf(j.out, "%d\n", count)
		}
		return nil
	case grep.ModeFilesWithMatches:
		if j.json {
			return j.writeJSON(map[string]any{"path": path})
		}
		fmt.Fprintf(j.out, "%s%s%s\n", j.colors.path, path, j.colors.reset)
		return nil
	}
	for i := range fr.Matches {
		m := &fr.Matches[i]
		if j.json {
			if err := j.writeJSON(toJSONMatch(path, m)); err != nil {
				return err
			}
			continue
		}
		j.printMatch(path, m)
	}
	return nil
}

func toJSONMatch(path string, m *grep.Match) jsonMatch {
	jm := jsonMatch{Path: path, Line: m.Line, Text: m.Text, Truncated: m.Truncated, Submatches: []jsonSpan{}}
	for _, s := range m.Spans {
		jm.Submatches = append(jm.Submatches, jsonSpan{Start: s.Start, End: s.End, Text: m.Text[s.Start:s.End]})
	}
	for _, c := range m.Before {
		jm.Before = append(jm.Before, jsonCtxLine{c.Line, c.Text})
	}
	for _, c := range m.After {
		jm.After = append(jm.After, jsonCtxLine{c.Line, c.Text})
	}
	return jm
}

func (j *grepJob) writeJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	j.out.Write(b)
	return j.out.WriteByte('\n')
}

// printMatch prints a match with its context in ripgrep's layout:
// `path:line:text` for matched lines, `path-line-text` for context, and `--`
// between groups that are not adjacent.
func (j *grepJob) printMatch(path string, m *grep.Match) {
	first := m.Line
	if len(m.Before) > 0 {
		first = m.Before[0].Line
	}
	hasContext := j.base.ContextBefore > 0 || j.base.ContextAfter > 0
	if hasContext && j.lastFile != "" && (j.lastFile != path || first > j.lastLine+1) {
		fmt.Fprintf(j.out, "%s--%s\n", j.colors.sep, j.colors.reset)
	}
	for _, c := range m.Before {
		j.printLine(path, c.Line, '-', c.Text, nil)
	}
	lines := strings.Split(m.Text, "\n")
	offset := 0
	for k, text := range lines {
		var spans []grep.Span
		for _, s := range m.Spans {
			if s.End > offset && s.Start < offset+len(text) || (s.Start == s.End && s.Start >= offset && s.Start <= offset+len(text)) {
				spans = append(spans, grep.Span{Start: max(s.Start-offset, 0), End: min(s.End-offset, len(text))})
			}
		}
		j.printLine(path, m.Line+k, ':', text, spans)
		offset += len(text) + 1
	}
	last := m.Line + len(lines) - 1
	for _, c := range m.After {
		j.printLine(path, c.Line, '-', c.Text, nil)
		last = c.Line
	}
	j.lastFile, j.lastLine = path, last
}

func (j *grepJob) printLine(path string, line int, sep byte, text string, spans []grep.Span) {
	c := j.colors
	if j.withPath {
		j.out.WriteString(c.path + path + c.reset)
		j.out.WriteByte(sep)
	}
	if j.lineNums {
		j.out.WriteString(c.line + strconv.Itoa(line) + c.reset)
		j.out.WriteByte(sep)
	}
	if c.match == "" || len(spans) == 0 {
		j.out.WriteString(text)
	} else {
		pos := 0
		for _, s := range spans {
			if s.Start < pos || s.End > len(text) || s.Start == s.End {
				continue
			}
			j.out.WriteString(text[pos:s.Start])
			j.out.WriteString(c.match + text[s.Start:s.End] + c.reset)
			pos = s.End
		}
		j.out.WriteString(text[pos:])
	}
	j.out.WriteByte('\n')
}
