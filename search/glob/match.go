package glob

import (
	"strings"
	"unicode/utf8"
)

// Match reports whether relPath (slash-separated, relative to the search
// root) matches the pattern. It does not allocate, except to lower a path
// holding upper-case letters for a pattern from CompileFold.
func (p *Pattern) Match(relPath string) bool {
	if p.matchAll {
		return true
	}
	if p.fold {
		relPath = strings.ToLower(relPath)
	}
	if !strings.HasSuffix(relPath, p.suffix) {
		return false
	}
	for i := range p.alts {
		if p.alts[i].match(relPath) {
			return true
		}
	}
	return false
}

// match runs the segment-level matcher. Segments play the role characters
// play in a classic wildcard matcher: a globstar is a '*' over segments and
// every other pattern segment matches exactly one path segment. With only
// one kind of variable-length item, greedy matching that remembers just the
// most recent globstar is complete: when a later segment fails, letting the
// most recent globstar absorb one more path segment is the only retry that
// can help (earlier globstars absorbing more only shifts the same problem
// right). So the cost is O(path segments × pattern segments) worst case.
//
// After the last non-trailing globstar the remaining segments contain no
// globstar, so they can only match the last len(rest) path segments; that
// tail is checked once instead of being retried at every offset.
func (a *alt) match(path string) bool {
	segs := a.segs
	pi, pos := 0, 0 // pattern segment index; byte offset of the current path segment
	starPi, starPos := -1, 0
	for {
		if pi < len(segs) && pos <= len(path) {
			s := &segs[pi]
			if s.globstar {
				if pi == len(segs)-1 {
					return true // trailing "**": one or more segments remain
				}
				if pi == a.lastGlobstar {
					return matchTail(segs[pi+1:], path, pos)
				}
				starPi, starPos = pi, pos
				pi++
				continue
			}
			end := segEnd(path, pos)
			if s.match(path[pos:end]) {
				pi++
				pos = end + 1
				continue
			}
		} else if pi == len(segs) && pos > len(path) {
			return true
		}
		// Mismatch: let the last globstar take one more path segment.
		if starPi < 0 {
			return false
		}
		end := segEnd(path, starPos)
		if end >= len(path) {
			return false
		}
		starPos = end + 1
		pi, pos = starPi+1, starPos
	}
}

// matchTail matches globstar-free segments against the last len(segs)
// segments of path[from:].
func matchTail(segs []seg, path string, from int) bool {
	n := len(segs)
	start := from
	seen := 0
	for i := len(path) - 1; i >= from; i-- {
		if path[i] == '/' {
			seen++
			if seen == n {
				start = i + 1
				break
			}
		}
	}
	if seen < n-1 {
		return false // fewer than n segments left
	}
	pos := start
	for i := range segs {
		end := segEnd(path, pos)
		if !segs[i].match(path[pos:end]) {
			return false
		}
		pos = end + 1
	}
	return true
}

// segEnd returns the offset of the '/' ending the segment at pos, or len(path).
func segEnd(path string, pos int) int {
	if i := strings.IndexByte(path[pos:], '/'); i >= 0 {
		return pos + i
	}
	return len(path)
}

// match matches one pattern segment against one path segment (no '/').
// It is the textbook wildcard matcher: on a mismatch, only the most recent
// '*' is retried with one more character, which is complete because every
// other token has a fixed length in characters.
func (s *seg) match(name string) bool {
	if s.isLit {
		return name == s.lit
	}
	if s.suffix != "" {
		// "…*lit": the literal is anchored at the end and the '*' before
		// it can absorb anything, so only the part before it remains.
		if !strings.HasSuffix(name, s.suffix) {
			return false
		}
		name = name[:len(name)-len(s.suffix)]
	}
	if s.anyName {
		return true
	}
	toks := s.toks
	ti, ni := 0, 0
	starTi, starNi := -1, 0
	for {
		if ti < len(toks) {
			t := &toks[ti]
			switch t.kind {
			case tStar:
				starTi, starNi = ti, ni
				ti++
				continue
			case tLit:
				if strings.HasPrefix(name[ni:], t.lit) {
					ni += len(t.lit)
					ti++
					continue
				}
			case tAny:
				if ni < len(name) {
					ni += runeLen(name, ni)
					ti++
					continue
				}
			case tClass:
				if ni < len(name) {
					r, w := rune(name[ni]), 1
					if r >= utf8.RuneSelf {
						r, w = utf8.DecodeRuneInString(name[ni:])
					}
					if t.class.match(r) {
						ni += w
						ti++
						continue
					}
				}
			}
		} else if ni == len(name) {
			return true
		}
		if starTi < 0 || starNi >= len(name) {
			return false
		}
		if starTi == len(toks)-1 {
			return true // trailing '*' takes the rest
		}
		starNi += runeLen(name, starNi)
		ti, ni = starTi+1, starNi
	}
}

// runeLen is the byte length of the character at name[i]; an invalid byte
// counts as one character.
func runeLen(name string, i int) int {
	if name[i] < utf8.RuneSelf {
		return 1
	}
	_, w := utf8.DecodeRuneInString(name[i:])
	return w
}
