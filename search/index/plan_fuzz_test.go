package index

import (
	"regexp"
	"testing"
)

// FuzzPlan checks the planner's one promise: a text the regex matches
// satisfies the regex's query (Go's regexp is the oracle; the planner
// reads patterns with Go's parser).
func FuzzPlan(f *testing.F) {
	for _, s := range []struct{ p, text string }{
		{"abcd", "xxabcdxx"}, {"(foo|ba)zz", "bazz"}, {"(?i)kab", "\u212aAB"},
		{"x[ab]yz", "xbyz"}, {`\bfoo\b.*bar`, "foo; bar"}, {"colou?r", "color"},
	} {
		f.Add(s.p, s.text, false)
		f.Add(s.p, s.text, true)
	}
	f.Fuzz(func(t *testing.T, pattern, text string, fold bool) {
		q, ok := Plan(pattern, fold)
		if !ok {
			return
		}
		expr := pattern
		if fold {
			expr = "(?i)" + pattern
		}
		re, err := regexp.Compile(expr)
		if err != nil || !re.MatchString(text) {
			return
		}
		if !q.Eval(trigramsOfText([]byte(text))) {
			t.Fatalf("Plan(%q, %v) = %s rules out %q, which matches", pattern, fold, q, text)
		}
	})
}
