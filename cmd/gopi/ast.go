package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/ast"
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
	return fail(env, "ast", usagef("unknown subcommand %q: use run, scan, grep or edit", args[0]))
}

// astOutput buffers what an ast command prints: 4 KiB on a terminal, so
// the first matches show early, 64 KiB into a pipe or a file, where the
// default 4 KiB made eight thousand write calls of the Python standard
// library's 36 MB `def` output (the CLI makes about 600).
func astOutput(env *cliEnv) *bufio.Writer {
	if env.isTerminal {
		return bufio.NewWriter(env.stdout)
	}
	return bufio.NewWriterSize(env.stdout, 64<<10)
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
		valueName(fs, "rewrite", "REWRITE")
		fs.BoolVar(&c.apply, "apply", false, "write the changes (default: only preview them)")
		fs.StringVar(&c.expect, "expect", "", "with --apply: write only if the changes and files are exactly those of the preview that printed `ID`")
		nonNegIntVarP(fs, &c.maxFiles, "max-files", "", 0, "change at most `N` files (default: PI_MAX_AST_FILES or 1000)")
	} else {
		fs.BoolVar(&c.json, "json", false, "print one JSON object per match")
		nonNegIntVarP(fs, &c.context, "context", "C", 0, "show `N` lines before and after each match")
		nonNegIntVarP(fs, &c.offset, "offset", "", 0, "skip the first `N` matches (after sorting by path and position)")
		nonNegIntVarP(fs, &c.limit, "limit", "", 0, "print at most `N` matches (default: all)")
		fs.BoolVar(&c.noPrefilter, "no-prefilter", false, "parse every file, even those that cannot contain the pattern's tokens")
		fs.BoolVar(&c.stats, "stats", false, "print totals (files searched, matches) to stderr")
	}
	fs.StringVarP(&c.pattern, "pattern", "p", "", "the AST pattern (required)")
	valueName(fs, "pattern", "PATTERN")
	fs.StringVarP(&c.lang, "lang", "l", "", "search only files of `LANG`, named ones too (default: every file, language from its extension)")
	fs.StringVar(&c.strictness, "strictness", "smart", "cst, smart (default), ast, relaxed, signature or template")
	valueName(fs, "strictness", "LEVEL")
	fs.BoolVar(&c.noHidden, "no-hidden", false, "skip hidden files and directories")
	addASTNoIgnoreFlag(fs, &c.noIgnore)
	fs.DurationVar(&c.timeout, "timeout", 0, "give up after `DURATION` (e.g. 5s)")
	boundFlag(fs, "timeout", 1, "--timeout needs a positive duration like 5s, got %q")
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
	if err := parseFlags(fs, astNoIgnoreArgs(args)); err != nil {
		return nil, nil, fail(env, cmd, err), false
	}
	if c.help {
		fmt.Fprint(env.stdout, usage+pflagHelp(fs))
		return nil, nil, exitMatch, false
	}
	if strings.TrimSpace(c.pattern) == "" {
		return nil, nil, fail(env, cmd, usagef("missing -p PATTERN")), false
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
func astScope(c *astCLI, paths []string) (ast.Scope, astgrep.Strictness, error) {
	sc := c.noIgnore.scope(paths, c.noHidden)
	if len(sc.Paths) == 0 {
		sc.Paths = []string{"."}
	}
	strict, err := astgrep.ParseStrictness(c.strictness)
	if err != nil {
		return sc, 0, usagef("%v", err)
	}
	return sc, strict, nil
}

func runASTGrep(ctx context.Context, env *cliEnv, args []string) int {
	c, fs, code, ok := parseAST(env, args, false)
	if !ok {
		return code
	}
	sc, strict, err := astScope(c, fs.Args())
	sc.ScanCache = env.scan
	if err != nil {
		return fail(env, "ast grep", err)
	}
	// Matches are printed as the search produces them (in order), so the
	// results of a whole tree are never held in memory at once.
	out := astOutput(env)
	var onMatch func(ast.Match) error
	if c.json {
		var line []byte
		onMatch = func(m ast.Match) error {
			line = appendASTJSON(line[:0], m)
			_, err := out.Write(line)
			return err
		}
	} else {
		pr := &astPrinter{w: out, before: c.context, after: c.context}
		onMatch = func(m ast.Match) error { pr.add(m); return nil }
	}
	res, err := ast.Search(ctx, ast.SearchRequest{
		Scope: sc, Patterns: []string{c.pattern}, Lang: c.lang, Strictness: strict,
		Offset: c.offset, Limit: c.limit, Captures: c.json, NoPrefilter: c.noPrefilter, Timeout: c.timeout,
		OnMatch: onMatch,
	})
	if err != nil {
		out.Flush()
		return fail(env, "ast grep", err)
	}
	if err := out.Flush(); err != nil {
		return fail(env, "ast grep", err)
	}
	reportASTIssues(env.stderr, "ast grep", res.ParseIssues, res.MissingPaths)
	if c.stats {
		fmt.Fprintf(env.stderr, "%d matches in %d files; %d files searched\n", res.TotalMatches, res.FilesWithMatches, res.FilesSearched)
		for _, note := range ast.UnsupportedNotes(res.Unsupported) {
			fmt.Fprintln(env.stderr, note)
		}
	}
	if res.TotalMatches == 0 {
		return exitNoMatch
	}
	return exitMatch
}

// printASTMatchesAround prints matches with before and after lines of
// context (-B and -A) through an astPrinter.
func printASTMatchesAround(w io.Writer, ms []ast.Match, before, after int) {
	pr := &astPrinter{w: w, before: before, after: after}
	for _, m := range ms {
		pr.add(m)
	}
}

// astPrinter prints matches one at a time, in order: each match's lines,
// with optional context read from the file, grep style; "--" separates
// non-adjacent groups. It keeps only the current file's lines.
type astPrinter struct {
	w             io.Writer
	before, after int // lines of context before and after each match
	lastPath      string
	lastLine      int
	srcPath       string   // file whose lines src holds
	src           []string // lines of srcPath, read for context
}

func (pr *astPrinter) add(m ast.Match) {
	first := m.Start.Line
	last := first + strings.Count(m.Lines, "\n")
	lo, hi := first, last
	var src []string
	ctxLines := max(pr.before, pr.after)
	if ctxLines > 0 {
		if pr.srcPath != m.Abs {
			data, _ := os.ReadFile(m.Abs)
			pr.src = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			pr.srcPath = m.Abs
		}
		src = pr.src
		lo = max(first-pr.before, 0)
		hi = max(min(last+pr.after, len(src)-1), last)
	}
	if m.Path != pr.lastPath {
		pr.lastLine = -1
	}
	if ctxLines > 0 && pr.lastPath != "" && (m.Path != pr.lastPath || lo > pr.lastLine+1) {
		fmt.Fprintln(pr.w, "--")
	}
	lo = max(lo, pr.lastLine+1)
	matchLines := strings.Split(m.Lines, "\n")
	for n := lo; n <= hi; n++ {
		switch {
		case n >= first && n <= last:
			fmt.Fprintf(pr.w, "%s:%d:%s\n", m.Path, n+1, strings.TrimSuffix(matchLines[n-first], "\r"))
		case n < len(src):
			fmt.Fprintf(pr.w, "%s-%d-%s\n", m.Path, n+1, strings.TrimSuffix(src[n], "\r"))
		}
	}
	pr.lastPath, pr.lastLine = m.Path, max(pr.lastLine, hi)
}

// astIssueLines caps the parse issues printed.
const astIssueLines = 20

// reportASTIssues prints parse issues and skipped paths to stderr.
func reportASTIssues(w io.Writer, cmd string, issues []ast.ParseIssue, missing []string) {
	for _, m := range missing {
		fmt.Fprintf(w, "gopi %s: warning: Path not found: %s (skipped)\n", cmd, m)
	}
	for i, is := range issues {
		if i == astIssueLines {
			fmt.Fprintf(w, "gopi %s: warning: … %d more parse issues\n", cmd, len(issues)-astIssueLines)
			break
		}
		fmt.Fprintf(w, "gopi %s: warning: %s\n", cmd, is)
	}
}

// astJSON mirrors the ast-grep CLI's --json match objects (0-based lines
// and columns, byte offsets), so results compare field by field.
type astJSON struct {
	Text               string            `json:"text"`
	Range              astJSONSpan       `json:"range"`
	File               string            `json:"file"`
	Lines              string            `json:"lines"`
	CharCount          *astJSONCharCount `json:"charCount,omitempty"`
	Replacement        *string           `json:"replacement,omitempty"`
	ReplacementOffsets *astJSONOffsets   `json:"replacementOffsets,omitempty"`
	Language           string            `json:"language"`
	MetaVariables      *astJSONMeta      `json:"metaVariables,omitempty"`
}

// astJSONCharCount counts the characters of "lines" before and after the
// match.
type astJSONCharCount struct {
	Leading  int `json:"leading"`
	Trailing int `json:"trailing"`
}

// astJSONOffsets is the byte range a replacement replaces.
type astJSONOffsets struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

type astJSONSpan struct {
	ByteOffset struct {
		Start int `json:"start"`
		End   int `json:"end"`
	} `json:"byteOffset"`
	Start astJSONPos `json:"start"`
	End   astJSONPos `json:"end"`
}

type astJSONPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

type astJSONNode struct {
	Text  string      `json:"text"`
	Range astJSONSpan `json:"range"`
}

type astJSONMeta struct {
	Single      map[string]astJSONNode   `json:"single"`
	Multi       map[string][]astJSONNode `json:"multi"`
	Transformed map[string]string        `json:"transformed"`
}

func astSpan(s, e astgrep.Pos) astJSONSpan {
	var sp astJSONSpan
	sp.ByteOffset.Start, sp.ByteOffset.End = s.Offset, e.Offset
	sp.Start = astJSONPos{Line: s.Line, Column: s.Column}
	sp.End = astJSONPos{Line: e.Line, Column: e.Column}
	return sp
}

func toASTJSON(m ast.Match) astJSON {
	j := astJSON{Text: m.Text, Range: astSpan(m.Start, m.End), File: m.Path, Lines: m.Lines, Language: m.Lang}
	if len(m.Captures) > 0 {
		meta := &astJSONMeta{Single: map[string]astJSONNode{}, Multi: map[string][]astJSONNode{}, Transformed: map[string]string{}}
		for _, c := range m.Captures {
			nodes := make([]astJSONNode, len(c.Nodes))
			for i, n := range c.Nodes {
				nodes[i] = astJSONNode{Text: n.Text, Range: astSpan(n.Start, n.End)}
			}
			if c.Transformed {
				if len(c.Nodes) == 1 {
					meta.Transformed[c.Name] = c.Nodes[0].Text
				}
				continue
			}
			if c.Multi {
				meta.Multi[c.Name] = nodes
			} else if len(nodes) == 1 {
				meta.Single[c.Name] = nodes[0]
			}
		}
		j.MetaVariables = meta
	}
	return j
}

// toSGJSON is toASTJSON in every detail of the ast-grep CLI's own output
// (`gopi ast run` and `scan`): its language names, the character counts
// around the match and, for a rewrite, the replacement and the range it
// replaces.
func toSGJSON(m ast.Match) astJSON {
	j := toASTJSON(m)
	j.Language = ast.DisplayName(m.Lang)
	// Columns count characters: the match starts after Column of them.
	lead := 0
	for n := 0; n < m.Start.Column && lead < len(m.Lines); n++ {
		_, size := utf8.DecodeRuneInString(m.Lines[lead:])
		lead += size
	}
	tail := min(lead+len(m.Text), len(m.Lines))
	j.CharCount = &astJSONCharCount{Leading: m.Start.Column, Trailing: utf8.RuneCountInString(m.Lines[tail:])}
	if m.Edit != nil {
		r := m.Edit.Replacement
		j.Replacement = &r
		j.ReplacementOffsets = &astJSONOffsets{Start: m.Edit.Start, End: m.Edit.End}
	}
	return j
}

func runASTEdit(ctx context.Context, env *cliEnv, args []string) int {
	c, fs, code, ok := parseAST(env, args, true)
	if !ok {
		return code
	}
	if !fs.Changed("rewrite") {
		return fail(env, "ast edit", usagef("missing -r REWRITE (use -r '' to delete matches)"))
	}
	sc, strict, err := astScope(c, fs.Args())
	sc.ScanCache = env.scan
	if err != nil {
		return fail(env, "ast edit", err)
	}
	maxFiles := c.maxFiles
	if !fs.Changed("max-files") {
		if maxFiles = env.cfg.ASTMaxFiles(); maxFiles == 0 {
			maxFiles = ast.DefaultMaxFiles
		}
	}
	if c.expect != "" && !c.apply {
		return fail(env, "ast edit", usagef("--expect only makes sense with --apply"))
	}
	var previewID string
	res, err := ast.Edit(ctx, ast.EditRequest{
		Scope: sc, Rules: []ast.Rewrite{{Pattern: c.pattern, Out: c.rewrite}}, Lang: c.lang,
		Strictness: strict, MaxFiles: maxFiles, DryRun: !c.apply, Timeout: c.timeout,
		Check: func(r *ast.EditResult) error {
			id, err := editPreviewID(r)
			if err != nil {
				return err
			}
			previewID = id
			if c.expect != "" && id != c.expect {
				return fmt.Errorf("nothing written: the files or the changes differ from the preview %s (now %s); preview again and check the changes", c.expect, id)
			}
			return nil
		},
	})
	var partial *ast.PartialWriteError
	if errors.As(err, &partial) {
		// Some files already hold the new content: say which, one per
		// line, so that the state of the tree is clear.
		fmt.Fprintf(env.stderr, "gopi ast edit: %v\n", partial.Err)
		fmt.Fprintf(env.stderr, "gopi ast edit: the rewrite was only partly applied: %d of %d files written\n",
			len(partial.Written), len(partial.Written)+len(partial.Unwritten))
		for _, p := range partial.Written {
			fmt.Fprintf(env.stderr, "gopi ast edit: written: %s\n", p)
		}
		for _, p := range partial.Unwritten {
			fmt.Fprintf(env.stderr, "gopi ast edit: not written: %s\n", p)
		}
		return exitError
	}
	if err != nil {
		return fail(env, "ast edit", err)
	}
	out := astOutput(env)
	printASTChanges(out, res.Files)
	switch {
	case res.TotalReplacements == 0:
		fmt.Fprintln(out, "No replacements made")
	case res.Applied:
		fmt.Fprintf(out, "Applied %d replacements in %d files.\n", res.TotalReplacements, res.FilesTouched)
	default:
		fmt.Fprintf(out, "%d replacements in %d files (preview %s; pass --apply --expect %s to write exactly these).\n", res.TotalReplacements, res.FilesTouched, previewID, previewID)
	}
	if res.LimitReached {
		fmt.Fprintln(out, "Limit reached; narrow paths.")
	}
	if err := out.Flush(); err != nil {
		return fail(env, "ast edit", err)
	}
	return finishASTRewrite(env.stderr, "ast edit", res)
}

// finishASTRewrite reports a rewrite's parse issues and missing paths as
// warnings and the files whose rewrite was refused (it would have added a
// syntax error) as errors, and returns the exit status: 2 when a file was
// refused, even if others were rewritten, else 1 when nothing was
// replaced and 0 when something was.
func finishASTRewrite(w io.Writer, cmd string, res *ast.EditResult) int {
	reportASTIssues(w, cmd, res.ParseIssues, res.MissingPaths)
	for i, r := range res.Refused {
		if i == astIssueLines {
			fmt.Fprintf(w, "gopi %s: … %d more files not rewritten\n", cmd, len(res.Refused)-astIssueLines)
			break
		}
		fmt.Fprintf(w, "gopi %s: %s\n", cmd, r)
	}
	switch {
	case len(res.Refused) > 0:
		return exitError
	case res.TotalReplacements == 0:
		return exitNoMatch
	}
	return exitMatch
}

// editPreviewID fingerprints a planned rewrite: every file's path and
// current content and every change. A preview prints it and `--apply
// --expect ID` refuses to write when anything differs, so what is applied
// is what was reviewed even if a file changed in between.
func editPreviewID(r *ast.EditResult) (string, error) {
	h := sha256.New()
	for _, f := range r.Files {
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			return "", fmt.Errorf("read %s to check it against the preview: %w", f.Path, err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%q %x %d\n", f.Path, sum, len(f.Changes))
		for _, c := range f.Changes {
			fmt.Fprintf(h, "%d %d %q %q\n", c.EditStart, c.EditEnd, c.Before, c.After)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// printASTChanges prints each change as "path:line:col", then its old
// lines prefixed "-" and its new ones "+".
func printASTChanges(w io.Writer, files []ast.FileChanges) {
	for _, f := range files {
		for _, c := range f.Changes {
			fmt.Fprintf(w, "%s:%d:%d\n", f.Path, c.Start.Line+1, c.Start.Column+1)
			for _, l := range strings.Split(c.Before, "\n") {
				fmt.Fprintf(w, "-%s\n", l)
			}
			if c.After != "" {
				for _, l := range strings.Split(c.After, "\n") {
					fmt.Fprintf(w, "+%s\n", l)
				}
			}
		}
	}
}
