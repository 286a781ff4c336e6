package glob

import (
	"strings"
	"unicode/utf8"
)

// Pattern is a compiled glob. It is immutable and safe for concurrent use.
type Pattern struct {
	src      string
	fold     bool   // case-insensitive: literals are lower case, paths are lowered before matching
	matchAll bool   // "" or "**": every path matches
	suffix   string // literal every matching path must end with ("" = none)
	alts     []alt  // brace-free alternatives, in pattern order
}

// alt is one brace-free alternative split on '/'.
type alt struct {
	segs []seg
	// lastGlobstar is the index of the last globstar segment when the
	// segments after it contain no globstar (so they must match the last
	// path segments exactly, see match.go); -1 otherwise.
	lastGlobstar int
}

// seg is one pattern segment: a globstar or a token list without tSep.
type seg struct {
	globstar bool
	toks     []tok
	lit      string // the whole segment when it is one literal (fast compare)
	isLit    bool
	// suffix is a literal that ended the segment after a '*' ("*.go");
	// it is checked with one comparison and removed from toks, which then
	// end in that '*'.
	suffix  string
	anyName bool // toks is just "*": every name matches
}

// Compile parses a glob pattern. See the package documentation for the
// syntax. The error, if any, is a *SyntaxError.
func Compile(pattern string) (*Pattern, error) { return compile(pattern, false) }

// CompileFold is Compile for a case-insensitive pattern: literals match
// whatever the case of the path (compared in lower case) and a class
// matches a character when it holds any case form of it ([A-Z] matches
// "q"; [!a-z] does not match "Q").
func CompileFold(pattern string) (*Pattern, error) { return compile(pattern, true) }

func compile(pattern string, fold bool) (*Pattern, error) {
	if !utf8.ValidString(pattern) {
		i := 0
		for i < len(pattern) {
			r, w := utf8.DecodeRuneInString(pattern[i:])
			if r == utf8.RuneError && w == 1 {
				break
			}
			i += w
		}
		return nil, &SyntaxError{Pattern: pattern, Pos: i, Msg: "invalid UTF-8"}
	}
	p := &Pattern{src: pattern, fold: fold}
	if pattern == "" || pattern == "**" {
		p.matchAll = true
		return p, nil
	}
	ps := &parser{src: pattern}
	seq, err := ps.parseSeq(0)
	if err != nil {
		return nil, err
	}
	expanded, err := expand(seq, pattern)
	if err != nil {
		return nil, err
	}
	for i, toks := range expanded {
		if fold {
			foldTokens(toks)
		}
		a := buildAlt(toks)
		p.alts = append(p.alts, a)
		s := a.literalSuffix()
		if i == 0 {
			p.suffix = s
		} else {
			p.suffix = commonSuffix(p.suffix, s)
		}
	}
	return p, nil
}

// foldTokens prepares tokens for case-insensitive matching against a
// lowered path: literals are lowered and classes look at every case form.
func foldTokens(toks []tok) {
	for i := range toks {
		switch toks[i].kind {
		case tLit:
			toks[i].lit = strings.ToLower(toks[i].lit)
		case tClass:
			toks[i].class.fold = true
		}
	}
}

// MustCompile is Compile for patterns known to be valid; it panics on error.
func MustCompile(pattern string) *Pattern {
	p, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return p
}

// String returns the pattern as given to Compile.
func (p *Pattern) String() string { return p.src }

// MatchesAll reports whether the pattern matches every path ("" or "**").
func (p *Pattern) MatchesAll() bool { return p.matchAll }

// MentionsNodeModules reports whether the pattern text contains
// "node_modules". Callers scan node_modules only for such patterns: a
// pattern that never names it cannot be meant to search dependencies, and
// pruning them is the single biggest saving in a JavaScript tree.
func (p *Pattern) MentionsNodeModules() bool {
	return strings.Contains(p.src, "node_modules")
}

// RequiredSuffix returns a literal that every matching path ends with, or
// "" when there is none (e.g. ".go" for "**/*.go", "" for "src/**").
func (p *Pattern) RequiredSuffix() string { return p.suffix }

// buildAlt splits a token list on separators, merges adjacent literals,
// collapses runs of '*' inside a segment and marks globstar segments.
func buildAlt(toks []tok) alt {
	a := alt{lastGlobstar: -1}
	start := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && toks[i].kind != tSep {
			continue
		}
		a.segs = append(a.segs, buildSeg(toks[start:i]))
		start = i + 1
	}
	if a.segs[len(a.segs)-1].globstar {
		return a // a trailing globstar leaves no fixed-length tail
	}
	for i, s := range a.segs {
		if s.globstar {
			a.lastGlobstar = i
		}
	}
	return a
}

func buildSeg(toks []tok) seg {
	if len(toks) == 2 && toks[0].kind == tStar && toks[1].kind == tStar {
		return seg{globstar: true}
	}
	var out []tok
	for _, t := range toks {
		n := len(out)
		switch {
		case t.kind == tLit && n > 0 && out[n-1].kind == tLit:
			out[n-1].lit += t.lit
		case t.kind == tStar && n > 0 && out[n-1].kind == tStar:
			// "**" inside a segment is the same as "*"
		default:
			out = append(out, t)
		}
	}
	s := seg{toks: out}
	if n := len(out); n >= 2 && out[n-1].kind == tLit && out[n-2].kind == tStar {
		s.suffix, s.toks = out[n-1].lit, out[:n-1]
	}
	s.anyName = len(s.toks) == 1 && s.toks[0].kind == tStar
	switch {
	case len(out) == 0:
		s.isLit = true // empty segment: matches only an empty path segment
	case len(out) == 1 && out[0].kind == tLit:
		s.isLit, s.lit = true, out[0].lit
	}
	return s
}

// literalSuffix is the literal that ends every path this alternative
// matches: the trailing literal token of its last segment, if any.
func (a *alt) literalSuffix() string {
	last := a.segs[len(a.segs)-1]
	if last.globstar || len(last.toks) == 0 {
		return ""
	}
	if last.suffix != "" {
		return last.suffix
	}
	t := last.toks[len(last.toks)-1]
	if t.kind != tLit {
		return ""
	}
	return t.lit
}

func commonSuffix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	s := a[len(a)-i:]
	// never split a UTF-8 sequence (harmless for HasSuffix, but keep it clean)
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return s
}
