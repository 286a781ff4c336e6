package fscache

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// fastRulePaths are the paths every fast rule is checked against.
var fastRulePaths = []string{
	"a", "a.log", "b/a.log", "a/b", "bin", "bin/x", "x/bin", "gopi", "cmd/gopi/gopi", "cmd/gopi",
	".log", "x.test", "dir/x.test.go", "docs/build", "docs/build/x", "y/docs/build", "é.log", "a b",
	"node_modules", "deep/node_modules", "native/_lib", "native/_libx", "", "a/", "log",
}

// checkFastRule compares every fast rule of content with go-gitignore.
func checkFastRule(t *testing.T, content string, paths []string) (fast int) {
	t.Helper()
	rs := parseRules([]byte(content))
	for _, r := range rs.rules {
		if r.fast == nil {
			continue
		}
		fast++
		for _, p := range paths {
			for _, dir := range []bool{false, true} {
				if got, want := r.fast.match(p, dir), r.pat.Match(p, dir); got != want {
					t.Fatalf("pattern %q (%+v) on %q dir=%v: fast %v, go-gitignore %v", r.pat.String(), *r.fast, p, dir, got, want)
				}
			}
		}
	}
	return fast
}

func TestFastRuleMatchesGitignore(t *testing.T) {
	t.Parallel()
	lines := []string{
		"/bin/", "/dist/", "/native/_target/", "/native/_lib", "/bench/_work/", "*.test", "*.prof", "/gopi",
		"/cmd/gopi/gopi", "node_modules", "node_modules/", "!keep.log", "*.log", "/*.log", "docs/build",
		"a", "!/a", "log", "*", "*/", "a*", "a?b", "[ab]", "\\#x", "**/x", "x/**", "a b", "é.log", "!*.log",
	}
	if n := checkFastRule(t, strings.Join(lines, "\n"), fastRulePaths); n < 15 {
		t.Fatalf("only %d of the simple patterns took the fast path", n)
	}
	// Random patterns and paths from a small alphabet.
	rng := rand.New(rand.NewPCG(3, 5))
	parts := []string{"a", "b", ".log", "x", "/", "*", "!", "bin", "."}
	for range 3000 {
		var pat, path strings.Builder
		for range 1 + rng.IntN(4) {
			pat.WriteString(parts[rng.IntN(len(parts))])
		}
		paths := make([]string, 0, 8)
		for range 8 {
			path.Reset()
			for range 1 + rng.IntN(5) {
				path.WriteString(parts[rng.IntN(len(parts)-3)]) // no '*', '!' or '.' alone in paths
			}
			paths = append(paths, path.String())
		}
		checkFastRule(t, pat.String(), paths)
	}
}

func FuzzFastRuleMatchesGitignore(f *testing.F) {
	for _, s := range []string{"/bin/", "*.log", "docs/build", "!a", "/*.x"} {
		f.Add(s, "docs/build")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if strings.ContainsAny(pattern, "\n\r") {
			return
		}
		checkFastRule(t, pattern, []string{path, strings.Trim(path, "/")}) // both as file and as directory
	})
}
