package extensions

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// A text handed over by textValue behaves in JavaScript as goja's own
// conversion of it: length, characters, search, equality with a literal,
// JSON; ASCII text takes the fast path (goja's ASCII type), other text
// goja's.
func TestTextValue(t *testing.T) {
	rt := goja.New()
	fn, err := rt.RunString(`(s, ref) => [s.length === ref.length, s === ref, s.indexOf("zz") === ref.indexOf("zz"),
		s.charCodeAt(s.length - 1) === ref.charCodeAt(ref.length - 1), s.slice(3, 40) === ref.slice(3, 40),
		JSON.stringify(s) === JSON.stringify(ref), (s + "!").length === ref.length + 1].join()`)
	if err != nil {
		t.Fatal(err)
	}
	call, _ := goja.AssertFunction(fn)
	for _, tc := range []struct {
		text  string
		ascii bool
	}{
		{strings.Repeat("0123456789abcdef", 100) + "zz\n", true},
		{strings.Repeat("x", 31) + "é" + strings.Repeat("y", 40), false},
		{strings.Repeat("€uro ", 20), false},
		{`{"a": [1, 2, "three"], "b": "` + strings.Repeat("q", 40) + `"}`, true},
		{"short", true},
	} {
		v := textValue(rt, tc.text)
		got, err := call(goja.Undefined(), v, rt.ToValue(tc.text))
		if err != nil || got.String() != "true,true,true,true,true,true,true" {
			t.Errorf("%.20q: %v %v", tc.text, got, err)
		}
		if isFast := reflect.TypeOf(v).Name() == "asciiString"; isFast != tc.ascii {
			t.Errorf("%.20q: fast path %v, want %v", tc.text, isFast, tc.ascii)
		}
	}
}

// FuzzIsASCII checks the eight-bytes-a-step test against the plain one.
func FuzzIsASCII(f *testing.F) {
	for _, s := range []string{"", "a", strings.Repeat("a", 31) + "\x80", strings.Repeat("b", 64), "é", strings.Repeat("c", 33) + "ü", "\x7f\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := true
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				want = false
			}
		}
		if got := isASCII(s); got != want {
			t.Errorf("isASCII(%q) = %v", s, got)
		}
	})
}
