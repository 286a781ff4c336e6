package commitgen

import (
	"fmt"
	"slices"
	"strings"
)

// Scope candidates: the components of the repository the changed lines
// fall in, so the model picks a scope from the paths rather than
// guessing. A component is the first meaningful directory of a path, and
// that directory with the next one (two segments); directories that only
// hold code (src, lib, pkg, …) are looked through, and build or test
// directories are skipped.

// placeholderDirs hold code without naming a component.
var placeholderDirs = []string{"src", "lib", "bin", "crates", "benches", "examples", "internal", "pkg", "include", "tests", "test", "docs", "packages", "modules"}

// skipDirs never name a component.
var skipDirs = []string{"test", "tests", "benches", "examples", "target", "build", "node_modules", ".github"}

// wideShare is the share of the changed lines the top component needs
// for the change not to count as spread over the repository.
const wideShare = 0.6

type scopeCandidate struct {
	path       string
	percent    float64
	confidence float64
}

// ScopeCandidates describes the likely scopes of a change from its
// numstat, one line for the model: the components holding at least 10%
// of the changed lines (at most five, the strongest first), or why there
// is none. wide reports a change spread over three or more top-level
// parts, or whose top component holds under 60% of the lines.
func ScopeCandidates(files []NumstatEntry) (text string, wide bool) {
	lines := map[string]int{}
	var paths []string
	roots := map[string]bool{}
	total := 0
	for _, f := range files {
		n := f.Additions + f.Deletions
		if n == 0 || ExcludedFromDiff(f.Path) {
			continue
		}
		paths = append(paths, f.Path)
		if r := topRoot(f.Path); r != "" {
			roots[r] = true
		}
		total += n
		for _, c := range components(f.Path) {
			lines[c] += n
		}
	}
	if total == 0 {
		return "(none - no measurable changes)", false
	}
	var cands []scopeCandidate
	for p, n := range lines {
		if slices.Contains(placeholderDirs, strings.Split(p, "/")[0]) {
			continue
		}
		pct := float64(n) / float64(total) * 100
		conf := pct
		if strings.Contains(p, "/") {
			if pct > 60 {
				conf = pct * 1.2
			} else {
				conf = pct * 0.8
			}
		}
		cands = append(cands, scopeCandidate{p, pct, conf})
	}
	slices.SortFunc(cands, func(a, b scopeCandidate) int {
		switch {
		case a.confidence > b.confidence:
			return -1
		case a.confidence < b.confidence:
			return 1
		}
		return strings.Compare(a.path, b.path)
	})
	if len(roots) >= 3 || (len(cands) > 0 && cands[0].percent/100 < wideShare) {
		if kind := wideKind(paths); kind != "" {
			return "(cross-cutting: " + kind + ")", true
		}
		return "(none - multi-component change)", true
	}
	var parts []string
	for _, c := range cands[:min(5, len(cands))] {
		if c.percent < 10 {
			continue
		}
		label := "high confidence"
		if strings.Contains(c.path, "/") && c.percent <= 60 {
			label = "moderate confidence"
		}
		parts = append(parts, fmt.Sprintf("%s (%.0f%%, %s)", c.path, c.percent, label))
	}
	if len(parts) == 0 {
		return "(none - unclear component)", false
	}
	return strings.Join(parts, ", ") + "\nPrefer 2-segment scopes marked 'high confidence'", false
}

// components returns the one- and two-segment components of a path.
func components(p string) []string {
	segs := strings.Split(p, "/")
	var meaningful []string
	for i, s := range segs {
		if slices.Contains(placeholderDirs, s) && i < len(segs)-1 {
			continue
		}
		if isFileName(s) || slices.Contains(skipDirs, s) || s == "" || strings.HasPrefix(s, ".") {
			continue
		}
		meaningful = append(meaningful, s)
	}
	switch len(meaningful) {
	case 0:
		return nil
	case 1:
		return meaningful
	}
	return []string{meaningful[0], meaningful[0] + "/" + meaningful[1]}
}

// isFileName reports a segment with an extension (a dot after its first
// character).
func isFileName(s string) bool { return strings.LastIndexByte(s, '.') > 0 }

// topRoot is the first meaningful directory of a path, "(root)" for a
// file at the top, "" for a hidden one.
func topRoot(p string) string {
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	switch len(segs) {
	case 0:
		return ""
	case 1:
		if strings.HasPrefix(segs[0], ".") {
			return ""
		}
		return "(root)"
	}
	for i, s := range segs {
		if (slices.Contains(placeholderDirs, s) && i < len(segs)-1) || slices.Contains(skipDirs, s) || strings.HasPrefix(s, ".") {
			continue
		}
		return s
	}
	return ""
}

// wideKind names what a change spread over the repository has in
// common, or "".
func wideKind(paths []string) string {
	var md, tests, conf, errs, types int
	for _, p := range paths {
		l := strings.ToLower(p)
		if strings.Contains(p, "Cargo.toml") || strings.Contains(p, "package.json") {
			return "deps"
		}
		if strings.HasSuffix(l, ".md") {
			md++
		}
		if strings.Contains(l, "/test") || strings.Contains(l, "_test.") {
			tests++
		}
		for _, e := range []string{".toml", ".yaml", ".yml", ".json"} {
			if strings.HasSuffix(l, e) {
				conf++
				break
			}
		}
		if strings.Contains(l, "err") || strings.Contains(l, "result") {
			errs++
		}
		if strings.Contains(l, "type") || strings.Contains(l, "struct") || strings.Contains(l, "enum") {
			types++
		}
	}
	n := len(paths)
	switch {
	case md*100 > 70*n:
		return "docs"
	case tests*100 > 60*n:
		return "tests"
	case errs*100 > 40*n:
		return "error-handling"
	case types*100 > 40*n:
		return "type-refactor"
	case conf*100 > 50*n:
		return "config"
	}
	return ""
}
