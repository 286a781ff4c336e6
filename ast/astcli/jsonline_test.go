package astcli

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// referenceMatchJSON is the slow path appendMatchJSON replaces: the encoder
// over toMatchJSON.
func referenceMatchJSON(t testing.TB, m ast.Match) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(toMatchJSON(m)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func checkMatchJSON(t testing.TB, m ast.Match) {
	t.Helper()
	want := referenceMatchJSON(t, m)
	if got := appendMatchJSON(nil, m); !bytes.Equal(got, want) {
		t.Fatalf("match %+v\n got %s\nwant %s", m, got, want)
	}
}

// jsonTrickyStrings hold what a JSON string must escape or replace.
var jsonTrickyStrings = []string{
	"", "plain", `quote " and \ backslash`, "tab\tnew\nline\r\x00\x01\x1f\x7f",
	"\b\f", "<html> & </html>", "caf\u00e9 \U0001F600", "\u2028\u2029 x \u2027",
	"bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate", "end\\",
}

func TestASTJSONMatchesEncodingJSON(t *testing.T) {
	pos := func(line, col, off int) astgrep.Pos { return astgrep.Pos{Line: line, Column: col, Offset: off} }
	node := func(text string) astgrep.Node {
		return astgrep.Node{Start: pos(1, 2, 3), End: pos(4, 5, 600000), Text: text}
	}
	cases := []ast.Match{
		{Path: "a.go", Lang: "go", Text: "f(x)", Lines: "\tf(x)", Start: pos(0, 1, 1), End: pos(0, 5, 5)},
		{Path: "dir/\xff.py", Lang: "python", Text: "x", Lines: "x"},
		// Every kind of capture, with names out of order and repeated the
		// way a map would keep only the last of.
		{Path: "b.ts", Lang: "typescript", Text: "t", Lines: "l", Captures: []astgrep.Capture{
			{Name: "Z", Nodes: []astgrep.Node{node("z")}},
			{Name: "A", Multi: true, Nodes: []astgrep.Node{node("a1"), node("a2")}},
			{Name: "E", Multi: true},
			{Name: "B", Nodes: []astgrep.Node{node("b")}},
			{Name: "T", Transformed: true, Nodes: []astgrep.Node{{Text: "tx"}}},
			{Name: "B", Nodes: []astgrep.Node{node("b2")}},
			{Name: "B", Multi: true, Nodes: []astgrep.Node{node("bm")}},
			{Name: "N"}, // single with no node: left out
			{Name: "TT", Transformed: true, Nodes: []astgrep.Node{{Text: "1"}, {Text: "2"}}},
			{Name: "<&>\n", Nodes: []astgrep.Node{node("odd name")}},
		}},
		{Path: "c.rs", Lang: "rust", Text: "t", Lines: "l", Captures: []astgrep.Capture{{Name: "ONLY", Multi: true}}},
	}
	for _, s := range jsonTrickyStrings {
		cases = append(cases, ast.Match{Path: s, Lang: s, Text: s, Lines: s,
			Captures: []astgrep.Capture{{Name: s, Nodes: []astgrep.Node{node(s)}}}})
	}
	for _, m := range cases {
		checkMatchJSON(t, m)
	}
	// Random matches built from the tricky strings.
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return jsonTrickyStrings[rng.IntN(len(jsonTrickyStrings))] }
	names := []string{"A", "B", "C"}
	for range 2000 {
		m := ast.Match{Path: pick(), Lang: pick(), Text: pick(), Lines: pick(),
			Start: pos(rng.IntN(100), rng.IntN(100), rng.IntN(1e6)), End: pos(rng.IntN(100), rng.IntN(100), rng.IntN(1e6))}
		for range rng.IntN(5) {
			c := astgrep.Capture{Name: names[rng.IntN(len(names))]}
			switch rng.IntN(3) {
			case 1:
				c.Multi = true
			case 2:
				c.Transformed = true
			}
			for range rng.IntN(3) {
				c.Nodes = append(c.Nodes, node(pick()))
			}
			m.Captures = append(m.Captures, c)
		}
		checkMatchJSON(t, m)
	}
}

func FuzzASTJSONMatchesEncodingJSON(f *testing.F) {
	for _, s := range jsonTrickyStrings {
		f.Add(s, s, byte(0))
	}
	f.Add("a", "b", byte(7))
	f.Fuzz(func(t *testing.T, text, name string, kinds byte) {
		m := ast.Match{Path: name, Lang: "go", Text: text, Lines: text + name}
		for i := range int(kinds % 4) {
			c := astgrep.Capture{Name: name[:min(len(name), i)], Multi: kinds&(16<<i) != 0}
			c.Nodes = []astgrep.Node{{Text: text}}
			m.Captures = append(m.Captures, c)
		}
		checkMatchJSON(t, m)
	})
}
