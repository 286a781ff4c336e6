package oauth

import (
	"net/url"
	"strings"
	"testing"
)

func TestParsePasted(t *testing.T) {
	for _, tc := range []struct{ in, code, state string }{
		{"", "", ""},
		{"   \n", "", ""},
		{"http://localhost:1455/auth/callback?code=abc&state=s1", "abc", "s1"},
		{"http://localhost:54545/callback?state=s1&code=a%2Bb#frag", "a+b", "s1"},
		{"https://example.com/cb?error=access_denied", "", ""},
		{"localhost:8085/oauth2callback?code=xyz&state=s2", "xyz", "s2"},
		{"code=abc&state=s3", "abc", "s3"},
		{"?code=abc", "abc", ""},
		{"#code=abc&state=s4", "abc", "s4"},
		{"abc#s5", "abc", "s5"},
		{"  abc  ", "abc", ""},
		{"4/0AeanS0ab-cd_EF", "4/0AeanS0ab-cd_EF", ""},
		{"x#y#z", "x", "y"},
		{"abc:def", "abc:def", ""}, // omp reads this as a URL without a code; a code is likelier
	} {
		code, state := parsePasted(tc.in)
		if code != tc.code || state != tc.state {
			t.Errorf("parsePasted(%q) = %q, %q; want %q, %q", tc.in, code, state, tc.code, tc.state)
		}
	}
}

// FuzzParsePasted: any paste parses without panicking; a redirect URL built
// from a code and state gives them back, and so does code#state for a code
// without the characters that make it look like a URL or a query.
func FuzzParsePasted(f *testing.F) {
	for _, s := range []string{"abc", "4/0AeanS0ab-cd_EF", "a+b/c=", "x#y"} {
		f.Add(s, "state1")
	}
	f.Fuzz(func(t *testing.T, code, state string) {
		parsePasted(code)
		parsePasted(code + "#" + state)
		if code == "" {
			return
		}
		u := "http://localhost:1455/auth/callback?" + url.Values{"code": {code}, "state": {state}}.Encode()
		if c, s := parsePasted(u); c != code || s != state {
			t.Fatalf("URL %q gave %q, %q", u, c, s)
		}
		bare := strings.TrimSpace(code)
		if bare != code || strings.ContainsAny(code, "#") || strings.Contains(code, "code=") || strings.Contains(code, "://") ||
			strings.ContainsAny(state, "# \t\r\n\v\f\u0085\u00a0") {
			return
		}
		if c, s := parsePasted(code + "#" + state); c != code || s != state {
			t.Fatalf("%q#%q gave %q, %q", code, state, c, s)
		}
	})
}
