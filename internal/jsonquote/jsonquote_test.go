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

// TestPlainWordMatchesBytes holds the eight-byte check to a byte-by-byte
// one: never true when one byte needs escaping, and true for every word of
// plain bytes.
func TestPlainWordMatchesBytes(t *testing.T) {
	plainByte := func(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	check := func(w [8]byte) {
		x := uint64(0)
		all := true
		for k := 7; k >= 0; k-- {
			x = x<<8 | uint64(w[k])
			all = all && plainByte(w[k])
		}
		if got := plainWord(x); got != all {
			t.Fatalf("%q: plainWord %v, bytes say %v", w[:], got, all)
		}
	}
	// Every byte value in every position among plain neighbours, and next
	// to the values around the thresholds (borrows run upward).
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			for _, fill := range []byte{' ', '!', '#', '[', ']', 'a', 0x7f} {
				var w [8]byte
				for k := range w {
					w[k] = fill
				}
				w[pos] = byte(c)
				check(w)
			}
		}
	}
	seed := uint64(1)
	for n := 0; n < 200000; n++ {
		var w [8]byte
		for k := range w {
			seed ^= seed << 13
			seed ^= seed >> 7
			seed ^= seed << 17
			w[k] = []byte{0, 0x1f, 0x20, 0x21, '"', '#', '\\', ']', 0x7f, 0x80, 0xff, 'a'}[seed%12]
		}
		check(w)
	}
}

func BenchmarkAppendSource(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 200; i++ {
		sb.WriteString("    def method(self, value):\n        \"\"\"Return the value.\"\"\"\n        return self._table.get(value, None)  # comment\n")
	}
	s := sb.String()
	buf := make([]byte, 0, 2*len(s))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = Append(buf[:0], s, true)
	}
}
