package ast

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// ParseIssue is a non-fatal problem: a file with syntax errors, one that
// could not be read, or a pattern that does not compile for one of the
// languages present.
type ParseIssue struct {
	Path    string // file, or "<lang>" for language-wide issues
	Message string
}

// String renders "path: message".
func (p ParseIssue) String() string { return p.Path + ": " + p.Message }

// plan is the resolved work of one request.
type plan struct {
	cands    []candidate
	matchers []*astgrep.Matcher // by candidate index; nil = not searched
	langs    []string           // languages searched, sorted
	issues   []ParseIssue
	missing  []string
	owned    []*astgrep.Matcher
	// unsupported counts the candidates, by language, whose grammar is not
	// linked in (not searched; not parse issues either: like files of an
	// unknown type, they are outside what can be searched).
	unsupported map[string]int
	// scans are the directory scans the index answered (their Views are
	// closed with the plan); ruledOut, by candidate, the files the index
	// showed cannot match (see narrow); nil when none.
	scans    []*indexScan
	ruledOut []bool
}

func (p *plan) close() {
	for _, m := range p.owned {
		m.Close()
	}
	for _, s := range p.scans {
		s.view.Close()
	}
}

// searched is the number of candidates that were handed to a matcher.
func (p *plan) searched() int {
	n := 0
	for _, m := range p.matchers {
		if m != nil {
			n++
		}
	}
	return n
}

// prepare collects candidates, assigns languages and compiles the rules
// once per language. With oneLang, all candidates must infer to a single
// language (rewrites).
func prepare(ctx context.Context, sc Scope, langName string, rules []astgrep.Rule, strict astgrep.Strictness, oneLang bool) (*plan, error) {
	if !astgrep.Available {
		return nil, astgrep.ErrUnavailable
	}
	if ctx.Err() != nil {
		return nil, stopError(ctx)
	}
	var explicit *Language
	if langName != "" {
		l, err := LookupLanguage(langName)
		if err != nil {
			return nil, err
		}
		if !Linked(l.Name) {
			return nil, fmt.Errorf("Language %s is recognised but its grammar is not built into gopi; supported: %s", l.Name, strings.Join(astgrep.Languages(), ", "))
		}
		explicit = l
	}
	var scans []*indexScan
	cands, missing, skipped, err := collect(ctx, sc, &scans)
	if err != nil {
		for _, s := range scans {
			s.view.Close()
		}
		return nil, err
	}
	p := &plan{cands: cands, missing: missing, issues: skipped, matchers: make([]*astgrep.Matcher, len(cands)), scans: scans}
	// Language of each candidate.
	langOf := make([]*Language, len(cands))
	unlinked := map[string]int{}
	for i, c := range cands {
		l := explicit
		if l == nil {
			l = c.lang
		} else if c.lang != explicit {
			// An explicit language narrows the search to its own files,
			// named ones included: like the ast-grep CLI, `-l go a.py`
			// skips a.py rather than parse Python as Go.
			continue
		}
		if l == nil {
			if c.named {
				return nil, fmt.Errorf("Cannot infer the language of %s from its name; pass a language (lang)", c.display)
			}
			continue
		}
		if !Linked(l.Name) {
			unlinked[l.Name]++
			continue
		}
		langOf[i] = l
	}
	p.unsupported = unlinked
	present := map[string]*Language{}
	for _, l := range langOf {
		if l != nil {
			present[l.Name] = l
		}
	}
	if oneLang && len(present) > 1 {
		return nil, fmt.Errorf("Rewrites need one language per call, but the files infer to %s; narrow paths or pass a language (lang)", strings.Join(sortedKeys(present), ", "))
	}
	compiled := map[string]*astgrep.Matcher{}
	var firstErr error
	for _, name := range sortedKeys(present) {
		m, issues, err := compileFor(present[name], rules, strict)
		p.issues = append(p.issues, issues...)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		compiled[name] = m
		p.owned = append(p.owned, m)
		p.langs = append(p.langs, name)
	}
	if len(compiled) == 0 && firstErr != nil && !oneLang {
		p.close()
		return nil, firstErr
	}
	for i, l := range langOf {
		if l != nil {
			p.matchers[i] = compiled[l.Name]
		}
	}
	return p, nil
}

// compileFor compiles rules for one language after our own checks. A rule
// that does not compile is dropped and reported in issues; the error is
// returned only when no rule is left.
func compileFor(l *Language, rules []astgrep.Rule, strict astgrep.Strictness) (*astgrep.Matcher, []ParseIssue, error) {
	var issues []ParseIssue
	var firstErr error
	drop := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
		issues = append(issues, ParseIssue{Path: "<" + l.Name + ">", Message: err.Error()})
	}
	var ok []astgrep.Rule
	for _, r := range rules {
		switch {
		case r.Config != "":
			ok = append(ok, r) // a rule document: the native side checks it
		case strings.TrimSpace(r.Pattern) == "":
			drop(errors.New("Pattern must not be empty"))
		default:
			if err := checkMetavariables(r.Pattern, l); err != nil {
				drop(err)
				continue
			}
			ok = append(ok, r)
		}
	}
	for len(ok) > 0 {
		m, err := astgrep.Compile(l.Name, ok, strict)
		if err == nil {
			return m, issues, nil
		}
		var ce *astgrep.CompileError
		if !errors.As(err, &ce) || ce.Rule < 0 || ce.Rule >= len(ok) {
			drop(err)
			return nil, issues, firstErr
		}
		drop(err)
		ok = slices.Delete(ok, ce.Rule, ce.Rule+1)
	}
	return nil, issues, firstErr
}

// search runs every candidate that has a matcher through it, on all cores,
// and returns the native results by candidate index.
func (p *plan) search(ctx context.Context, opts astgrep.Options, timeout time.Duration) ([]astgrep.FileResult, error) {
	return runNative(ctx, p.cands, p.matcherOf, opts, timeout)
}

// fileOutcome is the native result of one searched candidate.
type fileOutcome struct {
	cand    candidate
	matcher *astgrep.Matcher
	result  astgrep.FileResult
}

// outcomes yields the searched candidates in order with their results,
// appending each file's parse issue (syntax errors, unreadable files) to
// *issues as it goes; stopping early leaves the rest unreported.
func (p *plan) outcomes(results []astgrep.FileResult, issues *[]ParseIssue) iter.Seq[fileOutcome] {
	return func(yield func(fileOutcome) bool) {
		for i, r := range results {
			m := p.matcherOf(i)
			if m == nil {
				continue
			}
			c := p.cands[i]
			if is, ok := fileIssue(c, r); ok {
				*issues = append(*issues, is)
			}
			if !yield(fileOutcome{cand: c, matcher: m, result: r}) {
				return
			}
		}
	}
}

// fileIssue turns a native per-file outcome into a parse issue, if any.
func fileIssue(c candidate, r astgrep.FileResult) (ParseIssue, bool) {
	switch r.Status {
	case astgrep.Searched:
		if r.SyntaxError {
			return ParseIssue{Path: c.display, Message: r.Message}, true
		}
		return ParseIssue{}, false
	case astgrep.Skipped, astgrep.Stopped:
		return ParseIssue{}, false
	default:
		return ParseIssue{Path: c.display, Message: r.Status.String() + ": " + r.Message}, true
	}
}

// UnsupportedNotes renders the counts of files left out for want of a
// grammar, one line per language in name order, e.g. "2 sql files not
// searched: no sql grammar is built in".
func UnsupportedNotes(counts map[string]int) []string {
	var out []string
	for _, l := range sortedKeys(counts) {
		if counts[l] > 0 {
			out = append(out, fmt.Sprintf("%d %s files not searched: no %s grammar is built in", counts[l], l, l))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
