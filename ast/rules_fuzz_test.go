package ast

import (
	"strings"
	"testing"
)

// FuzzParseRules parses arbitrary rule files (untrusted YAML: -r and
// --inline-rules): a list of rules or an error naming the rule, never a
// panic; a rule sent to ast-grep's rule engine was compiled by it, and
// every rule has what Scan needs.
func FuzzParseRules(f *testing.F) {
	f.Add("id: a\nlanguage: go\nrule:\n  kind: call_expression\n  inside: {kind: for_statement, stopBy: end}\n")
	f.Add("id: a\nlanguage: python\nrule:\n  any:\n    - pattern: print($A)\n    - kind: lambda\nconstraints:\n  A: {regex: '^1'}\nfix: log($A)\n---\nid: b\nlanguage: python\nrule: {pattern: f($A)}\n")
	f.Add("id: a\nlanguage: typescript\nrule: {pattern: {context: 'a = f($X)', selector: call_expression}}\ntransform:\n  Y: {substring: {source: $X, startChar: 1}}\nfix: g($Y)\n")
	f.Add("id: a\nlanguage: rust\nutils: {u: {kind: integer_literal}}\nrule: {matches: u}\nfiles: [a.rs]\n")
	f.Add("{id: a, language: go, rule: {kind: identifier, regex: '('}}\n")
	f.Add("id: &x a\nlanguage: go\nrule: {kind: *x}\n")
	f.Add("~\n---\n[1]\n")
	f.Fuzz(func(t *testing.T, data string) {
		rules, err := ParseRules([]byte(data))
		if err != nil {
			if strings.Contains(err.Error(), "panicked") {
				t.Fatalf("native panic: %v", err)
			}
			return
		}
		for _, r := range rules {
			if r.Language == "" || (r.Engine == "") == (len(r.Patterns) == 0) {
				t.Fatalf("rule %+v", r)
			}
		}
	})
}
