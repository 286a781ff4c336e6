//go:build cgo

package index

import (
	"testing"

	"github.com/gopi-agent/gopi/native/rure"
	"github.com/gopi-agent/gopi/search/grep"
)

// FuzzPlanRure holds the planner to the regex engine grep really uses:
// Plan reads patterns with Go's parser, grep matches with Rust's regex
// crate, and where the two dialects differ on a pattern both accept, a
// text Rust matches must still satisfy the plan.
func FuzzPlanRure(f *testing.F) {
	for _, s := range []struct{ p, text string }{
		{"abcd", "xxabcdxx"}, {"(foo|ba)zz", "bazz"}, {"kab", "\u212aAB"}, {`\d{3}abc`, "١٢٣abc"},
		{"x[ab]yz", "xbyz"}, {`\bfoo\b.*bar`, "foo; bar"}, {"${name}", "${name}"}, {`\w+ing`, "ünïcodeing"},
	} {
		f.Add(s.p, s.text, false)
		f.Add(s.p, s.text, true)
	}
	f.Fuzz(func(t *testing.T, pattern, text string, fold bool) {
		pattern = grep.EscapeLiteralBraces(pattern)
		q, ok := Plan(pattern, fold)
		if !ok {
			return
		}
		flags := rure.FlagUnicode
		if fold {
			flags |= rure.FlagCaseI
		}
		re, err := rure.CompileOptions(pattern, flags, nil)
		if err != nil || !re.IsMatch(text) {
			return
		}
		if !q.Eval(trigramsOfText([]byte(text))) {
			t.Fatalf("Plan(%q, %v) = %s rules out %q, which Rust's regex matches", pattern, fold, q, text)
		}
	})
}
