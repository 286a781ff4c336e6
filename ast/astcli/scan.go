package astcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// ScanOptions is one `gopi ast scan`.
type ScanOptions struct {
	Scope ast.Scope
	// RuleFiles are YAML rule files (several documents each, separated
	// by ---), InlineRules more rules as YAML text; at least one rule in
	// all.
	RuleFiles   []string
	InlineRules string
	// UpdateAll applies the rules' fixes (without JSON; with JSON, as in
	// ast-grep, the fixes are printed and nothing is written).
	UpdateAll     bool
	JSON          string // "" for text, else JSONPretty, JSONCompact or JSONStream
	Before, After int    // lines of context (text only)
	MaxFiles      int    // files the fixes change at most (the caller's default resolved)
	Timeout       time.Duration
}

// UsageError is a mistake in what was asked (rules whose fixes cannot be
// applied together), which the caller may point at the help for.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }

func (e *UsageError) Unwrap() error { return e.Err }

// loadRules reads the rules of files, then those of inline.
func loadRules(files []string, inline string) ([]ast.RuleConfig, error) {
	var rules []ast.RuleConfig
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read rule file: %w", err)
		}
		rs, err := ast.ParseRules(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		rules = append(rules, rs...)
	}
	if inline != "" {
		rs, err := ast.ParseRules([]byte(inline))
		if err != nil {
			return nil, fmt.Errorf("--inline-rules: %w", err)
		}
		rules = append(rules, rs...)
	}
	if len(rules) == 0 {
		return nil, &UsageError{errors.New("give rules with -r RULE.yml or --inline-rules YAML")}
	}
	return rules, nil
}

// Scan is ast-grep's scan: it prints each finding as PATH:LINE:COLUMN:
// SEVERITY[ID]: MESSAGE followed by its lines, or as JSON, or with
// UpdateAll applies the rules' fixes.
func Scan(ctx context.Context, o ScanOptions, out Output) (int, error) {
	const cmd = "ast scan"
	rules, err := loadRules(o.RuleFiles, o.InlineRules)
	if err != nil {
		return ExitError, err
	}
	if o.UpdateAll && o.JSON == "" {
		rewrites, lang, err := ast.FixRewrites(rules)
		if err != nil {
			return ExitError, &UsageError{err}
		}
		return rewrite(ctx, cmd, rewriteOptions{
			scope: o.Scope, rules: rewrites, lang: lang, strictness: astgrep.Smart,
			apply: true, maxFiles: o.MaxFiles, timeout: o.Timeout,
		}, out)
	}
	res, err := ast.Scan(ctx, ast.ScanRequest{Scope: o.Scope, Rules: rules, Captures: o.JSON != "", Fixes: o.JSON != "", Timeout: o.Timeout})
	if err != nil {
		return ExitError, err
	}
	w := out.buffer()
	failing := false
	items := make([]any, 0, len(res.Findings))
	for _, f := range res.Findings {
		failing = failing || f.Rule.Severity == "error"
		if o.JSON != "" {
			items = append(items, toScanJSON(f))
			continue
		}
		m := f.Match
		fmt.Fprintf(w, "%s:%d:%d: %s[%s]: %s\n", m.Path, m.Start.Line+1, m.Start.Column+1, f.Rule.Severity, f.Rule.ID, f.Message())
		printMatchesAround(w, []ast.Match{m}, o.Before, o.After)
	}
	if o.JSON != "" {
		err = writeJSONStyle(w, o.JSON, items)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return ExitError, err
	}
	reportIssues(out.Stderr, cmd, res.ParseIssues, res.MissingPaths)
	if failing {
		return ExitNoMatch, nil
	}
	return ExitMatch, nil
}
