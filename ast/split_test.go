package ast

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// matchKey is everything a caller sees of a match.
func matchKey(m Match) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d-%d %d:%d %q %q", m.Path, m.Start.Offset, m.End.Offset, m.Start.Line, m.Start.Column, m.Text, m.Lines)
	for _, c := range m.Captures {
		fmt.Fprintf(&b, " %s:", c.Name)
		for _, n := range c.Nodes {
			fmt.Fprintf(&b, "%d-%d/%d:%d,", n.Start.Offset, n.End.Offset, n.Start.Line, n.Start.Column)
		}
	}
	return b.String()
}

// Go files are parsed declaration by declaration (only those holding the
// pattern's literals) when the prefilter is on: on real code that must
// give exactly the matches, positions and captures of whole-file parses.
func TestGoPartsMatchWholeFiles(t *testing.T) {
	requireNative(t)
	src := filepath.Join(runtime.GOROOT(), "src")
	dirs := []string{"net/http", "go/types", "sync", "strings"}
	if testing.Short() {
		dirs = dirs[2:]
	}
	var paths []string
	for _, d := range dirs {
		paths = append(paths, filepath.Join(src, d))
	}
	for _, p := range []string{"$A.Lock()", "errors.Is($ERR, $TARGET)", "if err != nil { return $$$ }", "for $K, $V := range $X { $$$B }", "func ($R $T) String() string { $$$B }", "type $T struct { $$$F }", "`$S`"} {
		fast := search(t, SearchRequest{Scope: Scope{Paths: paths}, Patterns: []string{p}, Lang: "go", Captures: true})
		whole := search(t, SearchRequest{Scope: Scope{Paths: paths}, Patterns: []string{p}, Lang: "go", Captures: true, NoPrefilter: true})
		if len(fast.Matches) != len(whole.Matches) {
			t.Errorf("%s: %d matches by parts, %d whole", p, len(fast.Matches), len(whole.Matches))
			continue
		}
		for i := range fast.Matches {
			if a, b := matchKey(fast.Matches[i]), matchKey(whole.Matches[i]); a != b {
				t.Errorf("%s: match %d differs:\nparts %s\nwhole %s", p, i, a, b)
				break
			}
		}
		t.Logf("%s: %d matches", p, len(fast.Matches))
	}
}
