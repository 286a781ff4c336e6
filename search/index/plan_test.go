package index

import "testing"

func TestPlanCanonical(t *testing.T) {
	cases := []struct {
		pattern string
		fold    bool
		want    string
	}{
		{"abcd", false, `and("abc" "bcd")`},
		{"ab", false, "all"},
		{"foo.*barx", false, `and("arx" "bar" "foo")`},
		{"foo|bar", false, `or("bar" "foo")`},
		{"(foo|ba)zz", false, `or(and("azz" "baz") and("foo" "ooz" "ozz"))`},
		{"x[ab]yz", false, `or(and("ayz" "xay") and("byz" "xby"))`},
		{"a+bcd", false, `"bcd"`},
		{"(abc)+", false, `"abc"`},
		{"(abc)*def", false, `"def"`},
		{"colou?r", false, `and("col" "olo")`},
		{`\bfoo\b`, false, `"foo"`},
		{"[a-z]+", false, "all"},
		{"ab.", true, "all"},
	}
	for _, c := range cases {
		q, ok := Plan(c.pattern, c.fold)
		if !ok {
			t.Errorf("Plan(%q) refused", c.pattern)
			continue
		}
		if got := q.String(); got != c.want {
			t.Errorf("Plan(%q, %v) = %s, want %s", c.pattern, c.fold, got, c.want)
		}
	}
}

func TestPlanFoldKeepsKelvin(t *testing.T) {
	q, _ := Plan("kab", true)
	text := "\u212aab" // KELVIN SIGN, then "ab": (?i)kab matches it
	if !q.Eval(trigramsOfText([]byte(text))) {
		t.Fatalf("plan %s rules out %q, which (?i)kab matches", q, text)
	}
}

func TestPlanRefusesWhatGoCannotParse(t *testing.T) {
	if _, ok := Plan("(?x) a b", false); ok {
		t.Fatal("a verbose-mode pattern was planned; want a walk")
	}
}
