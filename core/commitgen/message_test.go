package commitgen

import (
	"reflect"
	"strings"
	"testing"
)

func TestMessageConventions(t *testing.T) {
	m := Message{Type: "feat", Scope: "api", Summary: "feat(api): added TLS to the client", Details: []string{"- Added mutual TLS.", ""}}
	m.normalize()
	if m.String() != "feat(api): added TLS to the client\n\n- Added mutual TLS." || len(m.Problems()) != 0 {
		t.Fatalf("%q %v", m.String(), m.Problems())
	}
	bad := Message{Type: "feature", Scope: "API/x/y", Summary: strings.Repeat("a", 73) + ".", Details: []string{"no period"}}
	want := []string{
		`type "feature" is not one of feat, fix, refactor, perf, docs, test, build, ci, chore, style, revert`,
		"the scope has more than two segments",
		`scope segment "API" is not lowercase letters, digits, - or _`,
		"the summary has 74 characters, more than 72",
		"the summary ends with a period",
		`a detail does not end with a period: "no period"`,
	}
	if got := bad.Problems(); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q", got)
	}
	if !ExcludedFromDiff("web/package-lock.json") || !ExcludedFromDiff("go.sum") || ExcludedFromDiff("main.go") {
		t.Fatal("lock files")
	}
}
