// Package astgrep is the ast_grep tool: structural code search with
// ast-grep patterns over files, directories and globs, answered as
// anchored match rows grouped by file, with captured metavariables.
package astgrep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	native "github.com/gopi-agent/gopi/native/astgrep"
)

// Limit is the number of matches one call shows.
const Limit = 50

// maxSkip is the largest skip accepted: the largest integer a JSON number
// holds exactly (and well inside int on 64-bit platforms).
const maxSkip = min(1<<53-1, math.MaxInt)

// metaValueMax caps a shown capture value, in characters.
const metaValueMax = 200

// Texts fixed by the reference agent.
const (
	NoMatches           = "No matches found"
	NoMatchesWithIssues = "No matches found. Parse issues mean the query may be mis-scoped; narrow paths before concluding absence."
	LimitReached        = "Result limit reached; narrow paths or increase limit."
)

const description = `Search code by syntax structure (ast-grep patterns) rather than text.
A pattern is code in the target language with metavariables:
  $NAME   matches one syntax node and captures it
  $_      matches one node without capturing
  $$$NAME matches zero or more nodes (arguments, statements) and captures them
  $$$     matches zero or more nodes without capturing
Metavariable names are upper case and stand for whole nodes, never parts of identifiers or
strings; "$$NAME" is not valid. Using the same name twice requires identical code at both places.
White space and formatting do not matter. The pattern must parse as one node of the file's language
(inferred from the extension), e.g. "fmt.Errorf($$$ARGS)", "if err != nil { return $$$ }",
"useEffect($FN, [])"; a bare name such as "parseConfig" finds every use of it. Different declaration
forms (function, method, assigned arrow function) are different patterns.
paths takes files, directories or globs ("src/**/*.ts"); keep one language per call when you can.
Each match shows its first line as "*REF|line" (REF as in read output) followed by its captures as
"meta: NAME=value"; matches come sorted by file and position, 50 per call; use skip to page.`

// Tool is the ast_grep tool bound to a session.
type Tool struct{ env *tool.Env }

// New returns the ast_grep tool for env.
func New(env *tool.Env) tool.Tool { return &Tool{env: env} }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "ast_grep",
		Label:       "AST Grep",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"pat":   {Type: "string", Description: "AST pattern, e.g. \"console.log($$$ARGS)\""},
			"paths": {Type: "array", Items: &tool.Schema{Type: "string"}, MinItems: tool.Ptr(1), Description: "Files, directories or globs to search"},
			"skip":  {Type: "number", Description: "Matches to skip (for paging); default 0"},
		}, "pat", "paths"),
		Concurrency: tool.Shared,
		ReadOnly:    true,
	}
}

// Details is the structured part of an ast_grep result.
type Details struct {
	MatchCount    int            `json:"matchCount"`
	FileCount     int            `json:"fileCount"`
	FilesSearched int            `json:"filesSearched"`
	LimitReached  bool           `json:"limitReached"`
	ParseErrors   []string       `json:"parseErrors,omitempty"`
	ScopePath     string         `json:"scopePath,omitempty"`
	Files         []string       `json:"files,omitempty"`
	FileMatches   map[string]int `json:"fileMatches,omitempty"`
}

// Execute runs the search.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Pat   string   `json:"pat"`
		Paths []string `json:"paths"`
		Skip  *float64 `json:"skip"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	pat := strings.TrimSpace(a.Pat)
	if pat == "" {
		return nil, tool.Errorf("Pattern must not be empty")
	}
	skip := 0
	if a.Skip != nil {
		if math.IsNaN(*a.Skip) || math.IsInf(*a.Skip, 0) || *a.Skip < 0 {
			return nil, tool.Errorf("Skip must be a non-negative number")
		}
		// Beyond the int range the conversion below is undefined (in
		// practice MinInt, which would then read as 0).
		if *a.Skip > maxSkip {
			return nil, tool.Errorf("Skip must be a non-negative number no larger than %d", int64(maxSkip))
		}
		skip = int(math.Floor(*a.Skip))
	}
	sc, grouped, err := Scope(t.env, a.Paths)
	if err != nil {
		return nil, err
	}
	// Parsed trees are kept between calls in the session's parse cache
	// (Scope sets it: a second search of the same tree costs a fraction
	// of the first); the tools that write files invalidate it.
	res, err := ast.Search(ctx, ast.SearchRequest{Scope: sc, Patterns: []string{pat}, Offset: skip, Limit: Limit, Captures: true})
	if err != nil {
		if errors.Is(err, ast.ErrAborted) {
			return nil, fmt.Errorf("%w: %w", tool.ErrAborted, err)
		}
		return nil, tool.Errorf("%v", err)
	}
	issues := IssueStrings(t.env, res.ParseIssues)
	d := &Details{
		MatchCount: res.TotalMatches, FileCount: res.FilesWithMatches, FilesSearched: res.FilesSearched,
		LimitReached: res.LimitReached, ParseErrors: issues, ScopePath: ScopePath(t.env, sc),
	}
	if len(res.Matches) == 0 {
		text := NoMatches
		if len(issues) > 0 {
			text = NoMatchesWithIssues + "\n" + FormatIssues(issues)
		}
		return tool.TextResult(AppendUnsupported(text, res.Unsupported), d), nil
	}
	mode := RowMode(t.env)
	var b []byte
	lastFile := ""
	d.FileMatches = map[string]int{}
	for _, m := range res.Matches {
		file := t.env.DisplayPath(m.Abs)
		if file != lastFile {
			d.Files = append(d.Files, file)
			if grouped {
				if lastFile != "" {
					b = append(b, '\n')
				}
				b = append(b, "# "...)
				b = append(b, file...)
				b = append(b, '\n')
			}
			lastFile = file
		}
		d.FileMatches[file]++
		b = appendMatch(b, mode, m)
	}
	text := strings.TrimSuffix(string(b), "\n")
	if res.LimitReached {
		text += "\n\n" + LimitReached
	}
	if len(issues) > 0 {
		text += "\n\n" + FormatIssues(issues)
	}
	return tool.TextResult(AppendUnsupported(text, res.Unsupported), d), nil
}

// appendMatch renders one match: the first line marked with '*', the
// other lines of a multi-line match with a leading space, then one
// "meta: NAME=value" line per capture.
func appendMatch(b []byte, mode tool.DisplayMode, m ast.Match) []byte {
	for i, line := range strings.Split(m.Lines, "\n") {
		if i == 0 {
			b = append(b, '*')
		} else {
			b = append(b, ' ')
		}
		b = AppendRow(b, mode, m.Start.Line+1+i, line)
		b = append(b, '\n')
	}
	for _, c := range m.Captures {
		b = append(b, "meta: "...)
		b = append(b, c.Name...)
		b = append(b, '=')
		b = append(b, captureValue(m, c)...)
		b = append(b, '\n')
	}
	return b
}

// captureValue is the source text a capture covers (for $$$ captures from
// the first node to the last), on one line and cut to metaValueMax.
func captureValue(m ast.Match, c native.Capture) string {
	if len(c.Nodes) == 0 {
		return ""
	}
	if c.Transformed { // text only, no position in the match
		return c.Nodes[0].Text
	}
	lo := c.Nodes[0].Start.Offset - m.Start.Offset
	hi := c.Nodes[len(c.Nodes)-1].End.Offset - m.Start.Offset
	var v string
	if lo >= 0 && hi <= len(m.Text) && lo <= hi {
		v = m.Text[lo:hi]
	} else {
		v = c.Nodes[0].Text
	}
	lines := strings.Split(v, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	v = strings.Join(lines, " ")
	if cut, ok := tool.TruncateLine(v, metaValueMax); ok {
		v = cut
	}
	return v
}

// RowMode is the row format for match lines: hashline anchors when the
// session shows them, line numbers otherwise (never bare text).
func RowMode(env *tool.Env) tool.DisplayMode {
	if m := env.DisplayMode(false, false); m == tool.DisplayHashline {
		return m
	}
	return tool.DisplayLineNumbers
}

// AppendRow appends "REF|text": the reference is computed from the whole
// line, the text shown is cut at the default column limit.
func AppendRow(b []byte, mode tool.DisplayMode, line int, text string) []byte {
	text = strings.TrimSuffix(text, "\r")
	b = append(b, mode.LineRef(line, text)...)
	b = append(b, hashline.BodySeparator...)
	cut, _ := tool.TruncateLine(text, 0)
	return append(b, cut...)
}
