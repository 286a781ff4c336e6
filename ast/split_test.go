package ast

import (
	"fmt"
	"os"
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

// partsMatchWhole checks that searching with the prefilter (which parses
// files part by part where it can) gives exactly the matches, positions and
// captures of whole-file parses.
func partsMatchWhole(t *testing.T, lang string, paths []string, patterns []string) {
	t.Helper()
	for _, p := range patterns {
		fast := search(t, SearchRequest{Scope: Scope{Paths: paths}, Patterns: []string{p}, Lang: lang, Captures: true})
		whole := search(t, SearchRequest{Scope: Scope{Paths: paths}, Patterns: []string{p}, Lang: lang, Captures: true, NoPrefilter: true})
		sameMatches(t, lang+" "+p, fast, whole)
		t.Logf("%s %s: %d matches in %d files", lang, p, len(fast.Matches), fast.FilesWithMatches)
	}
}

// sameMatches reports where a search with the prefilter (parts, groups on
// several threads) and a whole-file one disagree.
func sameMatches(t *testing.T, what string, fast, whole *SearchResult) {
	t.Helper()
	if len(fast.Matches) != len(whole.Matches) {
		t.Errorf("%s: %d matches, %d whole", what, len(fast.Matches), len(whole.Matches))
		return
	}
	for i := range fast.Matches {
		if a, b := matchKey(fast.Matches[i]), matchKey(whole.Matches[i]); a != b {
			t.Errorf("%s: match %d differs:\nfast  %s\nwhole %s", what, i, a, b)
			return
		}
	}
}

// existing keeps the paths that exist (corpora differ between machines).
func existing(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if ms, _ := filepath.Glob(p); len(ms) > 0 {
			out = append(out, ms...)
		}
	}
	return out
}

// Go, Rust, TypeScript, JavaScript and Python files are parsed declaration
// by declaration (only those holding the pattern's literals) when the
// prefilter is on: on real code that must change nothing.
func TestPartsMatchWholeFiles(t *testing.T) {
	requireNative(t)
	goSrc := filepath.Join(runtime.GOROOT(), "src")
	goDirs := []string{"net/http", "go/types", "sync", "strings"}
	if testing.Short() {
		goDirs = goDirs[2:]
	}
	var goPaths []string
	for _, d := range goDirs {
		goPaths = append(goPaths, filepath.Join(goSrc, d))
	}
	partsMatchWhole(t, "go", goPaths, []string{"$A.Lock()", "errors.Is($ERR, $TARGET)", "if err != nil { return $$$ }",
		"for $K, $V := range $X { $$$B }", "func ($R $T) String() string { $$$B }", "type $T struct { $$$F }", "`$S`"})
	home, _ := os.UserHomeDir()
	registry := filepath.Join(home, ".cargo", "registry", "src", "*")
	if rs := existing(filepath.Join(registry, "regex-automata-*"), filepath.Join(registry, "memchr-*"), filepath.Join(registry, "serde_json-*")); len(rs) > 0 {
		partsMatchWhole(t, "rust", rs, []string{"unsafe { $$$B }", "$X.unwrap()", "impl $T for $U { $$$B }", "Box::new($X)", "'a'"})
	}
	if py := existing("/usr/lib/python3*/json", "/usr/lib/python3*/email", "/usr/lib/python3*/asyncio"); len(py) > 0 {
		partsMatchWhole(t, "python", py, []string{"raise $E from $C", "isinstance($X, $T)", "def $F(self): $$$B", "@property", "\"\"\"$D\"\"\""})
	}
	if js := existing("/usr/lib/node_modules/npm/lib"); len(js) > 0 {
		partsMatchWhole(t, "javascript", js, []string{"await $X", "require($M)", "JSON.parse($X)", "`${$A}`"})
	}
	if ts := existing(filepath.Join(home, ".cache", "omp-reference", "node_modules", "@oh-my-pi", "pi-coding-agent", "src")); len(ts) > 0 {
		partsMatchWhole(t, "typescript", ts, []string{"$A?.$B", "interface $I { $$$B }", "await Promise.all($X)", "JSON.parse($X)"})
	}
}

// A syntax error in a declaration without the pattern's literals is not
// parsed, so not reported; one in a parsed declaration is, and a parsed
// part with an error is parsed again as the whole file.
func TestPartsReportTheirOwnSyntaxErrors(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{
		"skipped.py": "foo(1)\n\ndef (:\n",
		"parsed.py":  "foo(2)\n\ndef g():\n    foo(3\n",
	})
	res := search(t, SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Patterns: []string{"foo($A)"}})
	if got := locations(res.Matches); got != "parsed.py:1 skipped.py:1" {
		t.Errorf("matches %s", got)
	}
	var issues []string
	for _, is := range res.ParseIssues {
		issues = append(issues, is.String())
	}
	if joined := strings.Join(issues, "\n"); !strings.Contains(joined, "parsed.py: syntax error") || strings.Contains(joined, "skipped.py") {
		t.Errorf("issues:\n%s", joined)
	}
	whole := search(t, SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Patterns: []string{"foo($A)"}, NoPrefilter: true})
	if locations(whole.Matches) != locations(res.Matches) {
		t.Errorf("whole-file matches %s, by parts %s", locations(whole.Matches), locations(res.Matches))
	}
}

// A file searched alone with cores to spare is parsed and searched in
// groups of declarations on several threads (native/src/ast/parallel.rs):
// on the large files of real trees that must change nothing either. (On a
// one-core machine every file is parsed on one thread and this compares a
// search with itself.)
func TestLargeFilesSearchedAloneMatchWholeFiles(t *testing.T) {
	requireNative(t)
	goSrc := filepath.Join(runtime.GOROOT(), "src")
	large := func(min int64, patterns ...string) []string {
		var out []string
		for _, p := range patterns {
			ms, _ := filepath.Glob(p)
			for _, m := range ms {
				if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() && fi.Size() >= min {
					out = append(out, m)
				}
			}
		}
		if testing.Short() && len(out) > 3 {
			out = out[:3]
		}
		return out
	}
	cases := []struct {
		lang     string
		files    []string
		patterns []string
	}{
		{"go", large(64<<10, filepath.Join(goSrc, "net/http/*.go"), filepath.Join(goSrc, "go/types/*.go")),
			[]string{"if err != nil { return $$$ }", "$A.Lock()", "func ($R $T) $M($$$P) $$$R { $$$B }"}},
		{"python", large(64<<10, "/usr/lib/python3*/*.py"), []string{"def $F($$$P): $$$B", "isinstance($X, $T)"}},
	}
	for _, c := range cases {
		for _, f := range c.files {
			for _, p := range c.patterns {
				req := SearchRequest{Scope: Scope{Paths: []string{f}}, Patterns: []string{p}, Lang: c.lang, Captures: true}
				fast := search(t, req)
				req.NoPrefilter = true
				sameMatches(t, f+" "+p, fast, search(t, req))
			}
		}
		t.Logf("%s: %d large files", c.lang, len(c.files))
	}
}
