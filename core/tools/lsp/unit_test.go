package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

func TestPosition(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(p, []byte("\xef\xbb\xbf\tfoo := Foo(foo)\r\n😀 x := x + X\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		line   int
		symbol *string
		want   int
		err    string
	}{
		{1, nil, 1, ""},           // first non-blank, after the tab (the BOM is not counted)
		{1, str("foo"), 1, ""},    // exact first
		{1, str("foo#2"), 12, ""}, // second exact occurrence
		{1, str("Foo"), 8, ""},    // exact beats folded
		{1, str("FOO#3"), 12, ""}, // folded: foo, Foo, foo
		{2, str("x#2"), 8, ""},    // the emoji is two UTF-16 units
		{2, str("X"), 12, ""},     // exact
		{0, nil, 1, ""},           // line below 1 is line 1
		{9, nil, 0, ""},           // past the end: an empty line
		{1, str("bar"), 0, `Symbol "bar" not found on line 1`},
		{1, str("foo#4"), 0, `Symbol "foo" occurrence 4 is out of bounds on line 1 (found 2)`},
		{1, str("#foo#1"), 0, `Symbol "#foo" not found on line 1`},
	} {
		got, err := position(p, c.line, c.symbol)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%d %v: err %v, want %q", c.line, *c.symbol, err, c.err)
			}
			continue
		}
		if err != nil || got.Character != c.want || got.Line != max(c.line, 1)-1 {
			t.Errorf("%d %v: %+v %v, want column %d", c.line, c.symbol, got, err, c.want)
		}
	}
	if _, err := position(filepath.Join(t.TempDir(), "none"), 1, nil); err == nil || err.Error()[:15] != "File not found:" {
		t.Fatal(err)
	}
}

func TestClampTimeout(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		in   *float64
		want time.Duration
	}{{nil, 20 * time.Second}, {f(1), 5 * time.Second}, {f(90), 60 * time.Second}, {f(7.5), 7500 * time.Millisecond}} {
		if got := clampTimeout(c.in); got != c.want {
			t.Errorf("%v: %v", c.in, got)
		}
	}
}

func TestNormalizeLocationsAndHover(t *testing.T) {
	r := `{"start":{"line":1,"character":2},"end":{"line":1,"character":5}}`
	sel := `{"start":{"line":3,"character":4},"end":{"line":3,"character":5}}`
	for raw, want := range map[string]int{
		`null`: 0, `[]`: 0,
		`{"uri":"file:///a","range":` + r + `}`:                                                     1,
		`[{"uri":"file:///a","range":` + r + `},{"targetUri":"file:///b","targetRange":` + r + `}]`: 2,
		`{"targetUri":"file:///b","targetRange":` + r + `,"targetSelectionRange":` + sel + `}`:      1,
	} {
		got := normalizeLocations(json.RawMessage(raw))
		if len(got) != want {
			t.Errorf("%s: %+v", raw, got)
		}
	}
	link := normalizeLocations(json.RawMessage(`{"targetUri":"file:///b","targetRange":` + r + `,"targetSelectionRange":` + sel + `}`))
	if link[0].Range.Start != (protocol.Position{Line: 3, Character: 4}) {
		t.Errorf("selection range not used: %+v", link)
	}
	for raw, want := range map[string]string{
		`"plain"`:                                    "plain",
		`{"kind":"markdown","value":"**x**"}`:        "**x**",
		`["a",{"language":"go","value":"func f()"}]`: "a\n\nfunc f()",
		`{"language":"go","value":"var x int"}`:      "var x int",
	} {
		if got := hoverText(json.RawMessage(raw)); got != want {
			t.Errorf("%s: %q", raw, got)
		}
	}
}

func TestFormatDiagnostics(t *testing.T) {
	d := func(line int, sev protocol.DiagnosticSeverity, msg, code string) protocol.Diagnostic {
		return protocol.Diagnostic{Range: protocol.Range{Start: protocol.Position{Line: line, Character: 1}}, Severity: sev, Message: msg, Code: json.RawMessage(code), Source: "vet"}
	}
	lines := []diagLine{
		formatDiagnostic(d(0, protocol.SeverityError, "bad\nfor further information visit https://x\nhttps://y", `"E1"`), "a.go"),
		formatDiagnostic(d(4, protocol.SeverityWarning, "meh", `7`), "pkg/b.go"),
		formatDiagnostic(d(5, 0, "worse", ``), "pkg/c.go"),
		formatDiagnostic(d(6, protocol.SeverityHint, "hm", ``), "z.go"),
	}
	// Files of one directory stay together, where the directory first
	// appears; the working directory's files have no directory header.
	want := "# a.go\n  1:2 [error] [vet] bad (E1)\n\n# z.go\n  7:2 [hint] [vet] hm\n\n# pkg/\n## b.go\n  5:2 [warning] [vet] meh (7)\n## c.go\n  6:2 [error] [vet] worse"
	if got := groupDiagnostics(lines); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if s := summary([]protocol.Diagnostic{d(0, 1, "", ""), d(0, 0, "", ""), d(0, 3, "", ""), d(0, 4, "", "")}); s != "2 error(s), 1 info(s), 1 hint(s)" {
		t.Error(s)
	}
}
