package websearch

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/termsafe"
)

// The report printed on a terminal (gopi search) carries none of the
// escape sequences and control characters a hostile provider puts in its
// titles, URLs, snippets, answer or error.
func TestReportStripsControls(t *testing.T) {
	hostile := "\u202e\x1b[31mRED\x1b[0m\a\x1b]0;pwned\a\u009b2J\x7f"
	r := &Response{Provider: SearXNG, Answer: "answer " + hostile, Model: "m" + hostile, RequestID: "id" + hostile,
		SearchQueries: []string{"q" + hostile},
		Sources:       []Source{{Title: "T" + hostile, URL: "https://x.test/\x1b[2J" + hostile, Snippet: "s" + hostile + "\nline two\x08", Author: "a" + hostile, PublishedDate: "d" + hostile}}}
	var b strings.Builder
	Report(&b, r, "query"+hostile, false, "")
	Report(&b, r, "", false, "SearXNG API error (500): "+hostile)
	out := b.String()
	for _, c := range out {
		if c != '\n' && (termsafe.IsControl(c) || termsafe.IsBidi(c)) {
			t.Fatalf("control %U printed:\n%q", c, out)
		}
	}
	for _, want := range []string{"  TRED2J ", "    - sRED2J\n", "    - line two\n", "Query: queryRED2J\n", "Error: SearXNG API error (500): RED2J\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
