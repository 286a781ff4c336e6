package lsp

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
)

// The column found for a symbol is where that text starts on the line, in
// UTF-16 units (exactly or ignoring case), whatever the file and the
// "name#N" the model sends.
func FuzzSymbolColumn(f *testing.F) {
	f.Add([]byte("\tfoo := Foo(foo)\r\n😀 x := x\n"), 1, "foo#2")
	f.Add([]byte("a#b#c a#b"), 1, "a#b#2")
	f.Add([]byte("ǅǅ İi"), 1, "i")
	f.Add([]byte("\xef\xbb\xbfx"), 2, "")
	f.Fuzz(func(t *testing.T, data []byte, line int, symbol string) {
		line = line % 16
		var sym *string
		if symbol != "" {
			sym = &symbol
		}
		pos, err := positionIn(data, line, sym)
		if err != nil {
			return
		}
		lines := strings.Split(strings.TrimPrefix(string(data), "\xef\xbb\xbf"), "\n")
		text := ""
		if l := max(line, 1); l <= len(lines) {
			text = lines[l-1]
		}
		units := utf16.Encode([]rune(text))
		if pos.Character > len(units) {
			t.Fatalf("column %d past the line (%d units)", pos.Character, len(units))
		}
		if sym == nil {
			return
		}
		name := symbol
		if m := occurrence.FindStringSubmatch(symbol); m != nil {
			name = m[1]
		}
		rest := []rune(string(utf16.Decode(units[pos.Character:])))
		want := []rune(name)
		if len(rest) < len(want) {
			t.Fatalf("%q at %d: the line ends before %q", text, pos.Character, name)
		}
		for i, r := range want {
			if r != rest[i] && unicode.ToLower(r) != unicode.ToLower(rest[i]) {
				t.Fatalf("%q at %d does not start with %q", text, pos.Character, name)
			}
		}
	})
}

// Whatever a server answers, reading it does not fail, and every location
// read names a document.
func FuzzServerResults(f *testing.F) {
	f.Add([]byte(`[{"targetUri":"file:///b","targetRange":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}}]`))
	f.Add([]byte(`{"uri":"file:///a","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}`))
	f.Add([]byte(`["a",{"language":"go","value":"x"},[{"value":null}]]`))
	f.Add([]byte(`"string"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		raw := json.RawMessage(data)
		for _, l := range normalizeLocations(raw) {
			if l.URI == "" {
				t.Fatalf("a location without a document from %s", data)
			}
		}
		_ = hoverText(raw)
		_ = formatResult(raw)
		var syms []documentSymbol
		if json.Unmarshal(data, &syms) == nil {
			_ = outline(syms, 0, nil)
		}
	})
}
