package ast

import (
	"context"
	"strings"
	"testing"
)

func TestParseRulesSubset(t *testing.T) {
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
	for _, tc := range []struct{ yaml, want string }{
		{"id: x\nlanguage: go\nrule:\n  kind: call_expression\n", "rule.kind is not supported"},
		{"id: x\nlanguage: go\nrule:\n  pattern: f()\n  inside: {pattern: g()}\n", "rule.inside is not supported"},
		{"id: x\nrule:\n  pattern: f()\n", "language is required"},
		{"id: x\nlanguage: go\nrule:\n  pattern: f($A)\nconstraints:\n  A: {kind: identifier}\n", "constraints.A.kind is not supported"},
		{"id: x\nlanguage: go\nrule:\n  pattern: f($A)\n  regex: a\nfix: g($A)\n", "fix together with regex"},
		{"id: x\nlanguage: go\nrules: {}\n", "field rules not found"},
		{"", "no rule found"},
	} {
		_, err := ParseRules([]byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

func TestScanRules(t *testing.T) {
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
