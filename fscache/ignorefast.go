package fscache

import (
	"strings"
	"unicode/utf8"
)

// fastRule matches one simple ignore pattern with string comparisons where
// go-gitignore would run fnmatch over the path rune by rune: a name or path
// without wildcards ("/bin/", "gopi", "docs/build"), or a name of a leading
// '*' and a literal ("*.log"). Each ignore file's rules are tried against
// every entry of a walk, so on a large tree these matches were a fifth of
// `gopi find` (200,000 files below a repository with nine such rules).
// Any other pattern is left to go-gitignore. FuzzFastRuleMatchesGitignore
// holds the two equal.
type fastRule struct {
	kind    fastKind
	lit     string // the literal: the whole text, or what follows the '*'
	dirOnly bool   // the pattern ends in '/': directories only
}

type fastKind uint8

const (
	fastPath       fastKind = iota + 1 // the whole relative path equals lit
	fastName                           // the last component equals lit
	fastPathSuffix                     // the whole relative path ends with lit ("/*.log": '*' crosses '/' there)
	fastNameSuffix                     // the last component ends with lit
)

// newFastRule returns the fast form of the pattern whose text (as the
// parser prints it, with any '!' and slashes) is s, or nil when it has
// none.
func newFastRule(s string, negated bool) *fastRule {
	if negated {
		if !strings.HasPrefix(s, "!") {
			return nil
		}
		s = s[1:]
	}
	anchored := strings.HasPrefix(s, "/")
	if anchored {
		s = s[1:]
	}
	r := &fastRule{dirOnly: strings.HasSuffix(s, "/")}
	if r.dirOnly {
		s = s[:len(s)-1]
	}
	if s == "" {
		return nil
	}
	star := strings.HasPrefix(s, "*")
	if star {
		s = s[1:]
	}
	// Anything else a pattern can hold goes to go-gitignore: wildcards,
	// classes, escapes, "**", and white space the parser may trim or keep.
	if s == "" || strings.ContainsAny(s, "*?[]\\ \t!") {
		return nil
	}
	// fnmatch compares runes: any invalid byte decodes to U+FFFD and
	// equals any other, which a byte comparison would not copy.
	if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
		return nil
	}
	hasSlash := strings.Contains(s, "/")
	switch {
	case hasSlash && star:
		return nil
	case hasSlash:
		// A path pattern: fnmatch with FNM_PATHNAME over the whole path,
		// anchored or not (go-gitignore tries the same match for both).
		if strings.HasPrefix(s, "/") || strings.HasSuffix(s, "/") || strings.Contains(s, "//") {
			return nil
		}
		r.kind = fastPath
	case star && anchored:
		r.kind = fastPathSuffix
	case star:
		r.kind = fastNameSuffix
	case anchored:
		r.kind = fastPath
	default:
		r.kind = fastName
	}
	r.lit = s
	return r
}

// match is the pattern's Match for a slash-separated relative path.
func (r *fastRule) match(rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	switch r.kind {
	case fastPath:
		return rel == r.lit
	case fastPathSuffix:
		return strings.HasSuffix(rel, r.lit)
	}
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if r.kind == fastName {
		return base == r.lit
	}
	return strings.HasSuffix(base, r.lit)
}
