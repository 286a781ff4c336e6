package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// astRunCLI holds the typed flags of `gopi ast run` and `gopi ast scan`.
type astRunCLI struct {
	pattern, rewrite, lang, strictness string
	rules                              []string // scan: rule files
	inlineRules                        string
	updateAll                          bool
	json                               string
	after, before, context             int
	globs                              []string
	noHidden                           bool
	noIgnore                           astNoIgnore
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
		return nil, nil, fail(env, cmd, usagef("%v", err)), false
	}
	if c.help {
		fmt.Fprint(env.stdout, usage+pflagHelp(fs))
		return nil, nil, exitMatch, false
	}
	switch c.json {
	case "", "pretty", "compact", "stream":
	default:
		return nil, nil, fail(env, cmd, usagef("--json=%s: use pretty, compact or stream", c.json)), false
	}
	if c.context < 0 || c.after < 0 || c.before < 0 || c.maxFiles < 0 {
		return nil, nil, fail(env, cmd, usagef("-A, -B, -C and --max-files need a whole number ≥ 0")), false
	}
	if c.context > 0 {
		c.after, c.before = max(c.after, c.context), max(c.before, c.context)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if !scan && !fs.Changed("rewrite") {
		c.rewrite = "\x00" // marks "no -r"
	}
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
		return fail(env, cmd, usagef("missing -p PATTERN"))
	}
	strict, err := astgrep.ParseStrictness(c.strictness)
	if err != nil {
		return fail(env, cmd, usagef("%v", err))
	}
	sc := c.noIgnore.scope(paths, c.noHidden)
	sc.Globs, sc.ScanCache = c.globs, env.scan
	req := ast.SearchRequest{Scope: sc, Patterns: []string{c.pattern}, Lang: c.lang, Strictness: strict, Captures: c.json != "", Timeout: c.timeout}
	if c.rewrite != "\x00" {
		if c.json == "" {
			return astRewrite(ctx, env, cmd, c, sc, []ast.Rewrite{{Pattern: c.pattern, Out: c.rewrite}}, c.lang, strict)
		}
		// As ast-grep: --json prints each match with its replacement and
		// writes nothing, -U or not.
		req.Rewrite = &c.rewrite
	}
	res, err := ast.Search(ctx, req)
	if err != nil {
		return fail(env, cmd, err)
	}
	out := astOutput(env)
	if c.json != "" {
		items := make([]any, len(res.Matches))
		for i, m := range res.Matches {
			items[i] = toSGJSON(m)
		}
		err = writeJSONStyle(out, c.json, items)
	} else {
		printASTMatchesAround(out, res.Matches, c.before, c.after)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return fail(env, cmd, err)
	}
	reportASTIssues(env.stderr, cmd, res.ParseIssues, res.MissingPaths)
	if res.TotalMatches == 0 {
		return exitNoMatch
	}
	return exitMatch
}

// astRewrite previews (or with -U applies) rewrites, printing the changes
// as `ast edit` does.
func astRewrite(ctx context.Context, env *cliEnv, cmd string, c *astRunCLI, sc ast.Scope, rules []ast.Rewrite, lang string, strict astgrep.Strictness) int {
	maxFiles := c.maxFiles
	if maxFiles == 0 {
		if maxFiles = env.cfg.ASTMaxFiles(); maxFiles == 0 {
			maxFiles = ast.DefaultMaxFiles
		}
	}
	res, err := ast.Edit(ctx, ast.EditRequest{Scope: sc, Rules: rules, Lang: lang, Strictness: strict, MaxFiles: maxFiles, DryRun: !c.updateAll, Timeout: c.timeout,
		SkipOverlapping: true}) // as ast-grep: the outer of nested matches is rewritten
	var partial *ast.PartialWriteError
	if errors.As(err, &partial) {
		fmt.Fprintf(env.stderr, "gopi %s: %v\n", cmd, partial.Err)
		fmt.Fprintf(env.stderr, "gopi %s: the rewrite was only partly applied: written %s; not written %s\n", cmd, strings.Join(partial.Written, ", "), strings.Join(partial.Unwritten, ", "))
		return exitError
	}
	if err != nil {
		return fail(env, cmd, err)
	}
	out := astOutput(env)
	if c.json != "" {
		var items []any
		for _, f := range res.Files {
			for _, ch := range f.Changes {
				items = append(items, map[string]any{"file": f.Path, "line": ch.Start.Line, "column": ch.Start.Column, "text": ch.Before, "replacement": ch.After,
					"replacementOffsets": map[string]int{"start": ch.EditStart, "end": ch.EditEnd}})
			}
		}
		if items == nil {
			items = []any{}
		}
		if err := writeJSONStyle(out, c.json, items); err != nil {
			return fail(env, cmd, err)
		}
	} else {
		printASTChanges(out, res.Files)
		switch {
		case res.TotalReplacements == 0:
			fmt.Fprintln(out, "No replacements made")
		case res.Applied:
			fmt.Fprintf(out, "Applied %d replacements in %d files.\n", res.TotalReplacements, res.FilesTouched)
		default:
			fmt.Fprintf(out, "%d replacements in %d files (preview; pass -U to apply them).\n", res.TotalReplacements, res.FilesTouched)
		}
	}
	if err := out.Flush(); err != nil {
		return fail(env, cmd, err)
	}
	return finishASTRewrite(env.stderr, cmd, res)
}

// runASTScan implements `gopi ast scan`.
func runASTScan(ctx context.Context, env *cliEnv, args []string) int {
	const cmd = "ast scan"
	c, paths, code, ok := parseASTRun(env, cmd, args, true, astScanUsage)
	if !ok {
		return code
	}
	var rules []ast.RuleConfig
	for _, f := range c.rules {
		data, err := os.ReadFile(f)
		if err != nil {
			return fail(env, cmd, fmt.Errorf("read rule file: %w", err))
		}
		rs, err := ast.ParseRules(data)
		if err != nil {
			return fail(env, cmd, fmt.Errorf("%s: %w", f, err))
		}
		rules = append(rules, rs...)
	}
	if c.inlineRules != "" {
		rs, err := ast.ParseRules([]byte(c.inlineRules))
		if err != nil {
			return fail(env, cmd, fmt.Errorf("--inline-rules: %w", err))
		}
		rules = append(rules, rs...)
	}
	if len(rules) == 0 {
		return fail(env, cmd, usagef("give rules with -r RULE.yml or --inline-rules YAML"))
	}
	sc := c.noIgnore.scope(paths, c.noHidden)
	sc.Globs, sc.ScanCache = c.globs, env.scan
	if c.updateAll && c.json == "" { // with --json, ast-grep prints the fixes and writes nothing
		rewrites, lang, err := ast.FixRewrites(rules)
		if err != nil {
			return fail(env, cmd, usagef("%v", err))
		}
		return astRewrite(ctx, env, cmd, c, sc, rewrites, lang, astgrep.Smart)
	}
	res, err := ast.Scan(ctx, ast.ScanRequest{Scope: sc, Rules: rules, Captures: c.json != "", Fixes: c.json != "", Timeout: c.timeout})
	if err != nil {
		return fail(env, cmd, err)
	}
	out := astOutput(env)
	failing := false
	items := make([]any, 0, len(res.Findings))
	for _, f := range res.Findings {
		failing = failing || f.Rule.Severity == "error"
		if c.json != "" {
			item := astScanJSON{astJSON: toSGJSON(f.Match), RuleID: f.Rule.ID, Severity: f.Rule.Severity, Message: f.Message(),
				Labels: sgLabels(f)}
			if f.Rule.Note != "" {
				note := f.Rule.Note
				item.Note = &note
			}
			items = append(items, item)
			continue
		}
		m := f.Match
		fmt.Fprintf(out, "%s:%d:%d: %s[%s]: %s\n", m.Path, m.Start.Line+1, m.Start.Column+1, f.Rule.Severity, f.Rule.ID, f.Message())
		printASTMatchesAround(out, []ast.Match{m}, c.before, c.after)
	}
	if c.json != "" {
		err = writeJSONStyle(out, c.json, items)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return fail(env, cmd, err)
	}
	reportASTIssues(env.stderr, cmd, res.ParseIssues, res.MissingPaths)
	if failing {
		return exitNoMatch
	}
	return exitMatch
}

// astScanJSON is a finding in --json output: the match plus its rule.
type astScanJSON struct {
	astJSON
	RuleID   string         `json:"ruleId"`
	Severity string         `json:"severity"`
	Note     *string        `json:"note"` // null when the rule has none, as in ast-grep
	Message  string         `json:"message"`
	Labels   []astJSONLabel `json:"labels"`
}

// astJSONLabel marks a part of a finding; the match itself is the
// primary one.
type astJSONLabel struct {
	Text    string      `json:"text"`
	Range   astJSONSpan `json:"range"`
	Message *string     `json:"message,omitempty"`
	Style   string      `json:"style"`
}

// sgLabels are a finding's labels as ast-grep gives them: those of the
// rule's `labels:` section (by metavariable name; ast-grep's order varies),
// or else the match as the primary label and the nodes a relational rule
// matched (inside, has, ...; the rule engine's "secondary" capture) as
// secondary ones.
func sgLabels(f ast.Finding) []astJSONLabel {
	m := f.Match
	byName := func(name string) []astgrep.Node {
		for _, c := range m.Captures {
			if c.Name == name && !c.Transformed {
				return c.Nodes
			}
		}
		return nil
	}
	if len(f.Rule.Labels) > 0 {
		var out []astJSONLabel
		for _, l := range f.Rule.Labels {
			nodes := byName(l.Var)
			if len(nodes) == 0 {
				continue
			}
			first, last := nodes[0], nodes[len(nodes)-1]
			text := first.Text
			if lo, hi := first.Start.Offset-m.Start.Offset, last.End.Offset-m.Start.Offset; len(nodes) > 1 && lo >= 0 && lo <= hi && hi <= len(m.Text) {
				text = m.Text[lo:hi]
			}
			lab := astJSONLabel{Text: text, Range: astSpan(first.Start, last.End), Style: l.Style}
			if l.HasMessage {
				msg := l.Message
				lab.Message = &msg
			}
			out = append(out, lab)
		}
		return out
	}
	out := []astJSONLabel{{Text: m.Text, Range: astSpan(m.Start, m.End), Style: "primary"}}
	for _, n := range byName("secondary") {
		out = append(out, astJSONLabel{Text: n.Text, Range: astSpan(n.Start, n.End), Style: "secondary"})
	}
	return out
}

// writeJSONStyle writes items as ast-grep's --json styles do: pretty (an
// indented array, "[]" when empty), compact (an array on one line) or
// stream (one object per line, nothing when empty).
func writeJSONStyle(w io.Writer, style string, items []any) error {
	if style == "stream" {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, it := range items {
			if err := enc.Encode(it); err != nil {
				return err
			}
		}
		return nil
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if style != "pretty" || len(items) == 0 {
		return enc.Encode(items)
	}
	// As ast-grep: "[", then each object indented by two spaces per level
	// from column 0, separated by ",", then "]".
	enc.SetIndent("", "  ")
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, it := range items {
		var one bytes.Buffer
		e := json.NewEncoder(&one)
		e.SetEscapeHTML(false)
		e.SetIndent("", "  ")
		if err := e.Encode(it); err != nil {
			return err
		}
		b.Write(bytes.TrimRight(one.Bytes(), "\n"))
		if i < len(items)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	_, err := w.Write(b.Bytes())
	return err
}
