package ast

import (
	"testing"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// Messages are filled as ast-grep 0.51 fills them (its output for the same
// rule and file, checked by hand: `ast-grep scan --json`).
func TestFindingMessage(t *testing.T) {
	t.Parallel()
	// print(a, b,   c) at offset 100 of its file.
	node := func(text string, at int) astgrep.Node {
		return astgrep.Node{Text: text, Start: astgrep.Pos{Offset: at}, End: astgrep.Pos{Offset: at + len(text)}}
	}
	m := Match{Text: "print(a, b,   c)", Start: astgrep.Pos{Offset: 100}, Captures: []astgrep.Capture{
		{Name: "F", Nodes: []astgrep.Node{node("print", 100)}},
		{Name: "ARGS", Multi: true, Nodes: []astgrep.Node{node("a", 106), node(",", 107), node("b", 109), node(",", 110), node("c", 114)}},
		{Name: "NONE", Multi: true},
	}}
	for msg, want := range map[string]string{
		"plain text":                  "plain text",
		"call of $F":                  "call of print",
		"args [$$$ARGS]":              "args [a, b,   c]",
		"$$F and $$$NONE.":            "print and .",
		"$UNDEF$ARGS|$$$F":            "|", // not captured, or not as that kind
		"cost $$5, $lower, $$$ and $": "cost $$5, $lower, $$$ and $",
		"$F1 $_X $F_":                 "  ",
		"$F$F":                        "printprint",
	} {
		f := Finding{Rule: &RuleConfig{Message: msg}, Match: m}
		if got := f.Message(); got != want {
			t.Errorf("%q: got %q, want %q", msg, got, want)
		}
	}
}
