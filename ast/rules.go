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

// RuleConfig is one rule of an ast-grep rule file (one YAML document), as
// `sg scan` reads it: id, language, message, severity, note, url, rule,
// constraints, utils, transform, rewriters, fix, labels and metadata.
//
// A rule is run one of two ways, with the same results. A rule object of
// a pattern, or "any" of patterns, with an optional regex on the matched
// text, regex constraints and a plain fix (no fix when there is a regex or
// a constraint, or several patterns) goes through gopi's pattern matcher
// (Patterns, Regex, Constraints, Fix), whose literal prefilter skips files
// without parsing them. Any other rule (kind, inside, has, not, all, any
// of other sub-rules, precedes, follows, matches, nthChild, range, pattern
// objects, non-regex constraints, utils, transform, rewriters, fix
// objects) goes whole to ast-grep's own rule engine, linked into the
// native library (Engine): ParseRules compiles it once to report errors.
// Both skip files that lack the literal tokens of a plain pattern every
// match must match (for the engine: rule.pattern or one in rule.all).
// The keys files and ignores, which choose the files a rule applies to,
// are refused: pass paths and globs instead.
type RuleConfig struct {
	ID       string
	Language string
	Message  string
	Severity string // hint (default), info, warning, error or off
	Note     string
	Patterns []string // rule.pattern, or the patterns of rule.any
	// Regex, when set, must match somewhere in the matched node's text.
	Regex       *rure.Regex
	RegexSource string
	// Constraints: each metavariable's text must match its regex.
	Constraints map[string]*rure.Regex
	Fix         string
	HasFix      bool // the rule has a fix (for an Engine rule, inside Engine)
	// Engine, when set, is the rule document (YAML, with language set to
	// gopi's canonical name) that ast-grep's rule engine runs; Patterns,
	// Regex, Constraints and Fix are then unused.
	Engine string
	// Labels are the rule's `labels:` section, sorted by metavariable.
	Labels []LabelConfig
}

// LabelConfig marks the text a metavariable captured in a finding.
type LabelConfig struct {
	Var        string
	Style      string // primary or secondary
	Message    string
	HasMessage bool
}

// ruleYAML is the YAML shape ParseRules reads (checked by ruleKeys).
type ruleYAML struct {
	ID          string    `yaml:"id"`
	Language    string    `yaml:"language"`
	Message     string    `yaml:"message"`
	Severity    string    `yaml:"severity"`
	Note        string    `yaml:"note"`
	URL         string    `yaml:"url"`
	Rule        yaml.Node `yaml:"rule"`
	Constraints yaml.Node `yaml:"constraints"`
	Utils       yaml.Node `yaml:"utils"`
	Transform   yaml.Node `yaml:"transform"`
	Rewriters   yaml.Node `yaml:"rewriters"`
	Fix         yaml.Node `yaml:"fix"`
	Labels      yaml.Node `yaml:"labels"`
	Metadata    yaml.Node `yaml:"metadata"`
}

// ruleKeys are the top-level keys of a rule document: true for those gopi
// runs, false for those it refuses (files and ignores).
var ruleKeys = map[string]bool{
	"id": true, "language": true, "message": true, "severity": true, "note": true, "url": true,
	"rule": true, "constraints": true, "utils": true, "transform": true, "rewriters": true,
	"fix": true, "labels": true, "metadata": true, "files": false, "ignores": false,
}

// ParseRules reads one or more YAML documents (separated by ---), each an
// ast-grep rule (see RuleConfig); null documents are skipped, as ast-grep
// does. An error names the rule (its id, or its number from 1).
func ParseRules(data []byte) ([]RuleConfig, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []RuleConfig
	for n := 1; ; n++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("rule %d: %w", n, err)
		}
		root := &doc
		if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
			root = root.Content[0]
		}
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			continue
		}
		r, err := compileRuleYAML(root)
		if err != nil {
			name := r.ID
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

func compileRuleYAML(root *yaml.Node) (RuleConfig, error) {
	var r RuleConfig
	if root.Kind != yaml.MappingNode {
		return r, errors.New("a rule is a mapping with id, language and rule")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "id" && root.Content[i+1].Kind == yaml.ScalarNode {
			r.ID = root.Content[i+1].Value // to name the rule in errors
		}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i].Value
		ok, known := ruleKeys[k]
		switch {
		case !known:
			return r, fmt.Errorf("unknown key %q (line %d): a rule has id, language, rule, constraints, utils, transform, rewriters, fix, message, note, severity, labels, url, metadata", k, root.Content[i].Line)
		case !ok:
			return r, fmt.Errorf("%s is not supported: it chooses the files a rule applies to; pass paths and globs instead", k)
		}
	}
	var y ruleYAML
	if err := root.Decode(&y); err != nil {
		return r, err
	}
	r = RuleConfig{ID: y.ID, Language: y.Language, Message: y.Message, Severity: y.Severity, Note: y.Note}
	if y.Labels.Kind != 0 && !isNull(&y.Labels) {
		var labels map[string]struct {
			Style   string  `yaml:"style"`
			Message *string `yaml:"message"`
		}
		if err := y.Labels.Decode(&labels); err != nil {
			return r, fmt.Errorf("labels: %w", err)
		}
		for name, l := range labels {
			if l.Style != "primary" && l.Style != "secondary" {
				return r, fmt.Errorf("labels.%s.style %q: use primary or secondary", name, l.Style)
			}
			lc := LabelConfig{Var: name, Style: l.Style}
			if l.Message != nil {
				lc.Message, lc.HasMessage = *l.Message, true
			}
			r.Labels = append(r.Labels, lc)
		}
		slices.SortFunc(r.Labels, func(a, b LabelConfig) int { return strings.Compare(a.Var, b.Var) })
	}
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
	if y.Rule.Kind == 0 || isNull(&y.Rule) {
		return r, errors.New("rule is required (e.g. rule: {pattern: 'foo($A)'})")
	}
	r.HasFix = y.Fix.Kind != 0 && !isNull(&y.Fix)
	if ok, err := simpleRule(&r, &y); err != nil || ok {
		if err == nil && (r.HasFix || len(r.Constraints) > 0) {
			// The pattern path runs it, but ast-grep's own checks apply:
			// a metavariable used in fix or constraints that the rule
			// never binds is an error (a fix would delete code).
			check := r
			if err := engineRule(&check, root); err != nil {
				return r, err
			}
		}
		return r, err
	}
	return r, engineRule(&r, root)
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// simpleRule fills r for gopi's pattern matcher and reports true when the
// rule is of the subset it runs exactly as ast-grep does (see RuleConfig);
// false (and no error) sends the rule to the rule engine.
func simpleRule(r *RuleConfig, y *ruleYAML) (bool, error) {
	for _, n := range []*yaml.Node{&y.Utils, &y.Transform, &y.Rewriters, &y.Labels} {
		if n.Kind != 0 && !isNull(n) {
			return false, nil
		}
	}
	var rule map[string]any
	if y.Rule.Decode(&rule) != nil {
		return false, nil
	}
	var patterns []string
	var regex *rure.Regex
	var regexSource string
	hasPattern, hasAny := false, false
	for k, v := range rule {
		switch k {
		case "pattern":
			s, ok := v.(string)
			if !ok {
				return false, nil // a pattern object (context, selector, strictness)
			}
			patterns, hasPattern = append(patterns, s), true
		case "any":
			list, ok := v.([]any)
			if !ok {
				return false, nil
			}
			for _, item := range list {
				m, ok := item.(map[string]any)
				p, isStr := m["pattern"].(string)
				if !ok || len(m) != 1 || !isStr {
					return false, nil // other sub-rules
				}
				patterns = append(patterns, p)
			}
			hasAny = true
		case "regex":
			s, ok := v.(string)
			if !ok {
				return false, nil
			}
			re, err := rure.Compile(s)
			if err != nil {
				return false, fmt.Errorf("rule.regex: %w", err)
			}
			regex, regexSource = re, s
		default:
			return false, nil
		}
	}
	// A pattern and an any in one rule object must both match (ast-grep
	// joins the keys of a rule object with "all"); an empty any matches
	// nothing.
	if hasPattern == hasAny || len(patterns) == 0 {
		return false, nil
	}
	var constraints map[string]map[string]any
	if y.Constraints.Kind != 0 && !isNull(&y.Constraints) && y.Constraints.Decode(&constraints) != nil {
		return false, nil
	}
	res := map[string]*rure.Regex{}
	for name, c := range constraints {
		s, ok := c["regex"].(string)
		if len(c) != 1 || !ok {
			return false, nil
		}
		re, err := rure.Compile(s)
		if err != nil {
			return false, fmt.Errorf("constraints.%s.regex: %w", name, err)
		}
		res[name] = re
	}
	if r.HasFix {
		// The pattern matcher rewrites every match of a pattern: exact only
		// when no filter drops matches and no two patterns match one node.
		if y.Fix.Kind != yaml.ScalarNode || y.Fix.Tag != "!!str" || regex != nil || len(res) > 0 || len(patterns) > 1 {
			return false, nil
		}
		r.Fix = y.Fix.Value
	}
	r.Patterns, r.Regex, r.RegexSource = patterns, regex, regexSource
	if len(res) > 0 {
		r.Constraints = res
	}
	return true, nil
}

// engineRule makes r a rule of ast-grep's rule engine: its document,
// with language set to gopi's canonical name, is compiled once here so
// that a mistake in it is reported now, naming the rule.
func engineRule(r *RuleConfig, root *yaml.Node) error {
	l, err := LookupLanguage(r.Language)
	if err != nil {
		return err
	}
	if astgrep.Available && !Linked(l.Name) {
		return fmt.Errorf("language %s is recognised but its grammar is not built into gopi; supported: %s", l.Name, strings.Join(astgrep.Languages(), ", "))
	}
	doc := *root
	doc.Content = slices.Clone(root.Content)
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == "language" {
			doc.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: l.Name}
		}
	}
	text, err := yaml.Marshal(&doc)
	if err != nil {
		return err
	}
	r.Engine = string(text)
	if !astgrep.Available {
		return nil // Scan reports that the native library is missing
	}
	m, err := astgrep.Compile(l.Name, []astgrep.Rule{{Pattern: r.ID, Config: r.Engine}}, astgrep.Smart)
	if err != nil {
		var ce *astgrep.CompileError
		if errors.As(err, &ce) {
			return errors.New(ce.Message)
		}
		return err
	}
	m.Close()
	return nil
}

// FixRewrites returns the rewrites that apply the fixes of rules (those of
// severity off left out), as `sg scan --update-all` does, for Edit, with
// their language: one language at a time.
func FixRewrites(rules []RuleConfig) ([]Rewrite, string, error) {
	var rewrites []Rewrite
	lang := ""
	for _, r := range rules {
		if !r.HasFix || r.Severity == "off" {
			continue
		}
		if lang != "" && r.Language != lang {
			return nil, "", fmt.Errorf("-U applies the fixes of one language at a time; these rules mix %s and %s", lang, r.Language)
		}
		lang = r.Language
		if r.Engine != "" {
			rewrites = append(rewrites, Rewrite{Pattern: r.ID, Rule: r.Engine})
			continue
		}
		for _, p := range r.Patterns {
			rewrites = append(rewrites, Rewrite{Pattern: p, Out: r.Fix})
		}
	}
	if len(rewrites) == 0 {
		return nil, "", errors.New("-U: no rule has a fix")
	}
	return rewrites, lang, nil
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
	Strictness astgrep.Strictness // of pattern rules (rule documents set their own)
	Captures   bool               // collect every match's metavariables
	// Fixes: compute the fix of every finding of a rule that has one
	// (Match.Edit), as a preview; nothing is written.
	Fixes   bool
	Timeout time.Duration
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
		sr := SearchRequest{
			Scope: req.Scope, Patterns: r.Patterns, Lang: r.Language, Strictness: req.Strictness,
			Captures: req.Captures || len(r.Constraints) > 0 || strings.Contains(r.Message, "$") || len(r.Labels) > 0, Timeout: req.Timeout,
		}
		if r.Engine != "" {
			sr.Patterns = nil
			sr.rules = []astgrep.Rule{{Pattern: r.ID, Config: r.Engine}}
			sr.edits = req.Fixes && r.HasFix
		} else if req.Fixes && r.HasFix {
			fix := r.Fix
			sr.Rewrite = &fix
		}
		res, err := Search(ctx, sr)
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", r.ID, err)
		}
		out.FilesSearched = max(out.FilesSearched, res.FilesSearched)
		out.ParseIssues = append(out.ParseIssues, res.ParseIssues...)
		out.MissingPaths = res.MissingPaths
		var last *Match
		for k := range res.Matches {
			m := &res.Matches[k]
			// A node matched by several patterns of an "any" is one match
			// of the rule, with the first matching pattern's captures (the
			// native side orders a node's matches by pattern), and it is
			// filtered with those, as ast-grep does.
			same := last != nil && last.Path == m.Path && last.Start.Offset == m.Start.Offset && last.End.Offset == m.End.Offset
			last = m
			if same {
				continue
			}
			if r.keeps(*m) {
				out.Findings = append(out.Findings, Finding{Rule: r, Match: *m})
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
