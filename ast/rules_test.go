package ast

import (
	"context"
	"strings"
	"testing"
)

func TestParseRulesSubset(t *testing.T) {
	t.Parallel()
	requireNative(t)
	rules, err := ParseRules([]byte(`id: no-print
language: python
severity: warning
message: use logging
rule:
  any:
    - pattern: print($A)
    - pattern: pprint($A)
---
id: big-sleep
language: python
rule:
  pattern: sleep($N)
constraints:
  N:
    regex: ^[0-9]{3,}$
---
id: fix-me
language: python
rule:
  pattern: old($A)
fix: new($A)
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 3 || len(rules[0].Patterns) != 2 || rules[1].Severity != "hint" || rules[1].Constraints["N"] == nil || !rules[2].HasFix || rules[2].Fix != "new($A)" {
		t.Fatalf("rules %+v", rules)
	}
	for _, r := range rules {
		if r.Engine != "" {
			t.Errorf("rule %s goes to the rule engine; want the pattern matcher", r.ID)
		}
	}
	for _, tc := range []struct{ yaml, want string }{
		{"id: x\nrule:\n  pattern: f()\n", "language is required"},
		{"id: x\nlanguage: go\nrules: {}\n", `unknown key "rules"`},
		{"id: x\nlanguage: go\nfiles: [a.go]\nrule: {kind: call_expression}\n", "files is not supported"},
		{"id: x\nlanguage: go\nrule: {pattern: f($A), regex: '('}\n", "rule.regex"},
		{"id: x\nlanguage: go\nrule: {kind: no_such_kind}\n", "rule x: Fail to parse yaml as Rule: `rule` is not configured correctly: Rule contains invalid kind matcher: Invalid Kind: Kind `no_such_kind` is invalid."},
		{"id: x\nlanguage: go\nrule: {kind: call_expression, nope: 1}\n", "nope"},
		{"id: x\nlanguage: go\nrule: {regex: a, not: {kind: identifier}}\n", "Try adding `kind` rule"},
		{"id: x\nlanguage: go\nrule: {kind: call_expression}\nfix: g($B)\n", "B"},
		{"id: x\nlanguage: nope\nrule: {kind: call_expression}\n", "Unsupported language"},
		{"id: x\nlanguage: go\nrule: {pattern: f($A)}\nseverity: loud\n", "severity"},
		{"[1]", "rule 1: a rule is a mapping"},
		{"", "no rule found"},
		{"~\n---\n", "no rule found"},
	} {
		_, err := ParseRules([]byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

// TestParseRulesEngine: rules beyond patterns go whole to ast-grep's rule
// engine, with the language set to gopi's canonical name.
func TestParseRulesEngine(t *testing.T) {
	t.Parallel()
	requireNative(t)
	for _, y := range []string{
		"id: x\nlanguage: go\nrule:\n  kind: call_expression\n",
		"id: x\nlanguage: go\nrule:\n  pattern: f()\n  inside: {pattern: g(), stopBy: end}\n",
		"id: x\nlanguage: go\nrule:\n  pattern: f($A)\nconstraints:\n  A: {kind: identifier}\n",
		"id: x\nlanguage: go\nrule:\n  pattern: f($A)\n  regex: a\nfix: g($A)\n",
		"id: x\nlanguage: go\nrule:\n  pattern: f($A)\n  any: [{pattern: f(1)}]\n",
		"id: x\nlanguage: go\nrule:\n  any: [{pattern: f($A)}, {pattern: g($A)}]\nfix: h($A)\n",
		"id: x\nlanguage: go\nrule:\n  pattern: {context: 'var a = f($A)', selector: call_expression}\n",
		"id: x\nlanguage: golang\nrule: {kind: identifier}\nutils: {u: {kind: identifier}}\n",
	} {
		rules, err := ParseRules([]byte(y))
		if err != nil {
			t.Errorf("%q: %v", y, err)
			continue
		}
		r := rules[0]
		if r.Engine == "" || len(r.Patterns) > 0 || !strings.Contains(r.Engine, "language: go\n") {
			t.Errorf("%q: %+v", y, r)
		}
	}
}

func TestScanRules(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{
		"a.py": "print(1)\nsleep(5)\nsleep(1000)\npprint(x)\n",
		"b.py": "foo = 1\nprint(foo)\n",
	})
	rules, err := ParseRules([]byte("id: no-print\nlanguage: python\nrule:\n  any: [{pattern: print($A)}, {pattern: pprint($A)}]\n  regex: '[0-9x]'\n---\nid: big-sleep\nlanguage: python\nrule: {pattern: sleep($N)}\nconstraints:\n  N: {regex: '^[0-9]{3,}$'}\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Scan(context.Background(), ScanRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule.ID+" "+f.Match.Path+" "+f.Match.Text)
	}
	want := []string{"no-print a.py print(1)", "big-sleep a.py sleep(1000)", "no-print a.py pprint(x)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// A metavariable used in fix or constraints that the rule never binds is
// refused, as ast-grep refuses it, also for rules the pattern path runs:
// `fix: bar($Z)` would otherwise rewrite foo(c) to bar(), deleting code.
func TestParseRulesUndefinedMetavariable(t *testing.T) {
	t.Parallel()
	requireNative(t)
	for _, doc := range []string{
		"id: r\nlanguage: python\nrule: {pattern: foo($A)}\nfix: bar($Z)\n",
		"id: r\nlanguage: python\nrule: {pattern: foo($A)}\nconstraints: {Z: {regex: a}}\n",
	} {
		_, err := ParseRules([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), "Z") {
			t.Errorf("%q: err %v, want the undefined $Z named", doc, err)
		}
	}
	if _, err := ParseRules([]byte("id: r\nlanguage: python\nrule: {pattern: foo($A)}\nfix: bar($A)\n")); err != nil {
		t.Errorf("a fix using the bound $A: %v", err)
	}
}
