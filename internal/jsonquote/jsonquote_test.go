package jsonquote

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var cases = []string{
	"", "plain", `quote " and \ backslash`, "tab\tnew\nline\r\x00\x01\x1f\x7f", "\b\f",
	"<html> & </html>", "caf\u00e9 \U0001F600", "\u2028\u2029 x \u2027", "bad \xff utf8 \xc3",
	"\xed\xa0\x80 surrogate", "end\\",
}

// reference is encoding/json's quoting without HTML escaping.
func reference(t testing.TB, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func check(t testing.TB, s string) {
	want := reference(t, s)
	if got := Append(nil, s, true); !bytes.Equal(got, want) {
		t.Fatalf("%q: got %s, want %s", s, got, want)
	}
	// Without lineSeparators only U+2028 and U+2029 differ: raw.
	alt := strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029").Replace(string(want))
	if got := Append(nil, s, false); string(got) != alt {
		t.Fatalf("%q without line separators: got %s, want %s", s, got, alt)
	}
}

func TestAppendMatchesEncodingJSON(t *testing.T) {
	for _, s := range cases {
		check(t, s)
	}
}

func FuzzAppend(f *testing.F) {
	for _, s := range cases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, `\u2028`) || strings.Contains(s, `\u2029`) {
			return // the replacer above cannot tell escaped text from escapes
		}
		check(t, s)
	})
}
