package jstext

import "testing"

func TestTrim(t *testing.T) {
	for in, want := range map[string]string{
		" \t a b \r\n":        "a b",
		"\uFEFFx\u00A0":       "x",
		"\u0085x\u0085":       "\u0085x\u0085",
		"\u2028\u3000y\u2029": "y",
		"":                    "",
	} {
		if got := Trim(in); got != want {
			t.Errorf("Trim(%q) = %q, want %q", in, got, want)
		}
	}
}
