package ast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/native/rure"
)

// RuleConfig is one rule of an ast-grep rule file, in the subset gopi
// supports: a rule object holding a pattern, or "any" of patterns, with an
// optional regex on the matched text; regex constraints on metavariables;
// and a fix. The relational and composite keys of ast-grep (kind, inside,
// has, not, all, precedes, follows, matches) need ast-grep's own rule
// engine, which the native library does not link: ParseRules rejects them
// with an explanation rather than matching something else.
type RuleConfig struct {
	ID       string
	Language string
	Message  string
	Severity string // hint (default), info, warning or error
	Note     string
	Patterns []string // rule.pattern, or the patterns of rule.any
	// Regex, when set, must match somewhere in the matched node's text.
	Regex       *rure.Regex
	RegexSource string
	// Constraints: each metavariable's text must match its regex.
	Constraints map[string]*rure.Regex
	Fix         string
	HasFix      bool
}

// ruleYAML is the YAML shape ParseRules reads; unknown keys are errors.
type ruleYAML struct {
	ID          string                    `yaml:"id"`
	Language    string                    `yaml:"language"`
	Message     string                    `yaml:"message"`
	Severity    string                    `yaml:"severity"`
	Note        string                    `yaml:"note"`
	URL         string                    `yaml:"url"`
	Rule        map[string]any            `yaml:"rule"`
	Constraints map[string]map[string]any `yaml:"constraints"`
	Fix         *string                   `yaml:"fix"`
}

// unsupportedRuleKeys are ast-grep rule keys gopi cannot evaluate
// faithfully with a pattern matcher.
var unsupportedRuleKeys = []string{"kind", "inside", "has", "not", "all", "precedes", "follows", "matches", "nthChild", "range"}

// ParseRules reads one or more YAML documents (separated by ---), each an
// ast-grep rule, in the subset RuleConfig describes.
func ParseRules(data []byte) ([]RuleConfig, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var out []RuleConfig
	for n := 1; ; n++ {
		var y ruleYAML
		err := dec.Decode(&y)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("rule %d: %w", n, err)
		}
		r, err := compileRuleYAML(&y)
		if err != nil {
			name := y.ID
			if name == "" {
				name = fmt.Sprint(n)
			}
			return nil, fmt.Errorf("rule %s: %w", name, err)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, errors.New("no rule found: a rule file holds YAML documents with id, language and rule")
	}
	return out, nil
}

func compileRuleYAML(y *ruleYAML) (RuleConfig, error) {
	r := RuleConfig{ID: y.ID, Language: y.Language, Message: y.Message, Severity: y.Severity, Note: y.Note}
	if r.Severity == "" {
		r.Severity = "hint"
	}
	switch r.Severity {
	case "hint", "info", "warning", "error", "off":
	default:
		return r, fmt.Errorf("severity %q: use hint, info, warning, error or off", r.Severity)
	}
	if r.Language == "" {
		return r, errors.New("language is required (e.g. language: go)")
	}
	if y.Rule == nil {
		return r, errors.New("rule is required (e.g. rule: {pattern: 'foo($A)'})")
	}
	for k, v := range y.Rule {
		switch k {
		case "pattern":
			s, ok := v.(string)
			if !ok {
				return r, errors.New("rule.pattern must be a string (pattern objects with context/selector are not supported)")
			}
			r.Patterns = append(r.Patterns, s)
		case "any":
			list, ok := v.([]any)
			if !ok {
				return r, errors.New("rule.any must be a list of rules")
			}
			for _, item := range list {
				m, ok := item.(map[string]any)
				p, isStr := m["pattern"].(string)
				if !ok || len(m) != 1 || !isStr {
					return r, errors.New("rule.any: each item must be {pattern: ...}; other sub-rules are not supported")
				}
				r.Patterns = append(r.Patterns, p)
			}
		case "regex":
			s, ok := v.(string)
			if !ok {
				return r, errors.New("rule.regex must be a string")
			}
			re, err := rure.Compile(s)
			if err != nil {
				return r, fmt.Errorf("rule.regex: %w", err)
			}
			r.Regex, r.RegexSource = re, s
		default:
			if slices.Contains(unsupportedRuleKeys, k) {
				return r, fmt.Errorf("rule.%s is not supported: gopi matches patterns only (its native library does not link ast-grep's rule engine); use pattern, any, regex and constraints", k)
			}
			return r, fmt.Errorf("unknown rule key %q", k)
		}
	}
	if len(r.Patterns) == 0 {
		return r, errors.New("rule needs a pattern (or any: [{pattern: ...}]); a rule of regex alone is not supported")
	}
	for name, c := range y.Constraints {
		for k, v := range c {
			s, ok := v.(string)
			if k != "regex" || !ok {
				return r, fmt.Errorf("constraints.%s.%s is not supported: only regex constraints are", name, k)
			}
			re, err := rure.Compile(s)
			if err != nil {
				return r, fmt.Errorf("constraints.%s.regex: %w", name, err)
			}
			if r.Constraints == nil {
				r.Constraints = map[string]*rure.Regex{}
			}
			r.Constraints[name] = re
		}
	}
	if y.Fix != nil {
		r.Fix, r.HasFix = *y.Fix, true
		if r.Regex != nil || len(r.Constraints) > 0 {
			return r, errors.New("fix together with regex or constraints is not supported yet: the rewriter would also change matches the filters reject")
		}
	}
	return r, nil
}

// keeps reports whether a match passes the rule's regex and constraints.
func (r *RuleConfig) keeps(m Match) bool {
	if r.Regex != nil && !r.Regex.IsMatch(m.Text) {
		return false
	}
	for name, re := range r.Constraints {
		i := slices.IndexFunc(m.Captures, func(c astgrep.Capture) bool { return c.Name == name })
		if i < 0 {
			return false
		}
		var text []string
		for _, n := range m.Captures[i].Nodes {
			text = append(text, n.Text)
		}
		if !re.IsMatch(strings.Join(text, "")) {
			return false
		}
	}
	return true
}

// Finding is a match of one rule.
type Finding struct {
	Rule  *RuleConfig
	Match Match
}

// ScanRequest runs rules over a scope.
type ScanRequest struct {
	Scope
	Rules      []RuleConfig
	Strictness astgrep.Strictness
	Timeout    time.Duration
}

// ScanResult is the outcome of Scan.
type ScanResult struct {
	Findings      []Finding // by path, then position, then rule order
	FilesSearched int
	ParseIssues   []ParseIssue
	MissingPaths  []string
}

// Scan runs every rule (severity "off" ones are skipped) and returns the
// matches that pass each rule's filters.
func Scan(ctx context.Context, req ScanRequest) (*ScanResult, error) {
	out := &ScanResult{}
	for i := range req.Rules {
		r := &req.Rules[i]
		if r.Severity == "off" {
			continue
		}
		res, err := Search(ctx, SearchRequest{
			Scope: req.Scope, Patterns: r.Patterns, Lang: r.Language, Strictness: req.Strictness,
			Captures: len(r.Constraints) > 0, Timeout: req.Timeout,
		})
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", r.ID, err)
		}
		out.FilesSearched = max(out.FilesSearched, res.FilesSearched)
		out.ParseIssues = append(out.ParseIssues, res.ParseIssues...)
		out.MissingPaths = res.MissingPaths
		for _, m := range res.Matches {
			if r.keeps(m) {
				out.Findings = append(out.Findings, Finding{Rule: r, Match: m})
			}
		}
	}
	slices.SortStableFunc(out.Findings, func(a, b Finding) int {
		if c := strings.Compare(a.Match.Path, b.Match.Path); c != 0 {
			return c
		}
		return a.Match.Start.Offset - b.Match.Start.Offset
	})
	out.ParseIssues = dedupeIssues(out.ParseIssues)
	return out, nil
}
