package astcli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// JSON styles of `ast run` and `ast scan`, ast-grep's.
const (
	JSONPretty  = "pretty"  // an indented array, "[]" when empty
	JSONCompact = "compact" // an array on one line
	JSONStream  = "stream"  // one object per line, nothing when empty
)

// RunOptions is one `gopi ast run`.
type RunOptions struct {
	Scope      ast.Scope
	Pattern    string
	Lang       string
	Strictness astgrep.Strictness
	// Rewrite, when not nil, is the rewrite template ("" deletes): its
	// changes are shown, or written with UpdateAll.
	Rewrite       *string
	UpdateAll     bool
	JSON          string // "" for text, else JSONPretty, JSONCompact or JSONStream
	Before, After int    // lines of context (text only)
	MaxFiles      int    // files a rewrite changes at most (the caller's default resolved)
	Timeout       time.Duration
}

// Run is ast-grep's run: it prints every match, or with a rewrite shows
// (or with UpdateAll applies) the changes. With JSON and a rewrite, as in
// ast-grep, every match is printed with its replacement and nothing is
// written.
func Run(ctx context.Context, o RunOptions, out Output) (int, error) {
	const cmd = "ast run"
	req := ast.SearchRequest{Scope: o.Scope, Patterns: []string{o.Pattern}, Lang: o.Lang, Strictness: o.Strictness, Captures: o.JSON != "", Timeout: o.Timeout}
	if o.Rewrite != nil {
		if o.JSON == "" {
			return rewrite(ctx, cmd, rewriteOptions{
				scope: o.Scope, rules: []ast.Rewrite{{Pattern: o.Pattern, Out: *o.Rewrite}}, lang: o.Lang, strictness: o.Strictness,
				apply: o.UpdateAll, maxFiles: o.MaxFiles, timeout: o.Timeout,
			}, out)
		}
		req.Rewrite = o.Rewrite
	}
	res, err := ast.Search(ctx, req)
	if err != nil {
		return ExitError, err
	}
	w := out.buffer()
	if o.JSON != "" {
		items := make([]any, len(res.Matches))
		for i, m := range res.Matches {
			items[i] = toSGJSON(m)
		}
		err = writeJSONStyle(w, o.JSON, items)
	} else {
		printMatchesAround(w, res.Matches, o.Before, o.After)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return ExitError, err
	}
	reportIssues(out.Stderr, cmd, res.ParseIssues, res.MissingPaths)
	if res.TotalMatches == 0 {
		return ExitNoMatch, nil
	}
	return ExitMatch, nil
}

// rewriteOptions is a rewrite of `ast run -r` or `ast scan -U`.
type rewriteOptions struct {
	scope      ast.Scope
	rules      []ast.Rewrite
	lang       string
	strictness astgrep.Strictness
	apply      bool
	maxFiles   int
	timeout    time.Duration
}

// rewrite previews (or with apply writes) rewrites, printing the changes
// as `ast edit` does. (With --json, run and scan print matches with their
// replacements instead and write nothing, as ast-grep does.)
func rewrite(ctx context.Context, cmd string, o rewriteOptions, out Output) (int, error) {
	res, err := ast.Edit(ctx, ast.EditRequest{Scope: o.scope, Rules: o.rules, Lang: o.lang, Strictness: o.strictness, MaxFiles: o.maxFiles, DryRun: !o.apply, Timeout: o.timeout,
		SkipOverlapping: true}) // as ast-grep: the outer of nested matches is rewritten
	var partial *ast.PartialWriteError
	if errors.As(err, &partial) {
		fmt.Fprintf(out.Stderr, "gopi %s: %v\n", cmd, partial.Err)
		fmt.Fprintf(out.Stderr, "gopi %s: the rewrite was only partly applied: written %s; not written %s\n", cmd, strings.Join(partial.Written, ", "), strings.Join(partial.Unwritten, ", "))
		return ExitError, nil
	}
	if err != nil {
		return ExitError, err
	}
	w := out.buffer()
	printRewrite(w, res, "preview; pass -U to apply them")
	if err := w.Flush(); err != nil {
		return ExitError, err
	}
	return finishRewrite(out.Stderr, cmd, res), nil
}
