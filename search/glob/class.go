package glob

import "unicode"

// class is a compiled [...] character set. ASCII members live in a 128-bit
// bitmap so the common case is two shifts and a mask; other runes are kept
// as inclusive ranges and searched linearly (classes are tiny).
type class struct {
	negated bool
	fold    bool      // case-insensitive: r is a member when any case form of it is
	ascii   [2]uint64 // bit r set ⇔ ASCII rune r is a member
	ranges  []runeRange
}

type runeRange struct{ lo, hi rune }

// add records the inclusive range lo..hi; an inverted range is empty.
func (c *class) add(lo, hi rune) {
	for r := lo; r <= hi && r < 128; r++ {
		c.ascii[r>>6] |= 1 << (r & 63)
	}
	if hi >= 128 {
		c.ranges = append(c.ranges, runeRange{max(lo, 128), hi})
	}
}

// finish removes '/' from the ASCII set: classes never match a separator,
// negated or not. Matching checks this again for negated classes.
func (c *class) finish() {
	c.ascii['/'>>6] &^= 1 << ('/' & 63)
}

// match reports whether r is in the class. r is never '/' here because the
// matcher only feeds characters of a single path segment.
func (c *class) match(r rune) bool {
	in := c.has(r)
	if !in && c.fold {
		// Walk r's case orbit (k, K, and the Kelvin sign for instance).
		for f := unicode.SimpleFold(r); f != r && !in; f = unicode.SimpleFold(f) {
			in = c.has(f)
		}
	}
	return in != c.negated
}

// has reports whether r itself is a member, ignoring negation and case.
func (c *class) has(r rune) bool {
	if r >= 0 && r < 128 {
		return c.ascii[r>>6]&(1<<(r&63)) != 0
	}
	for _, rr := range c.ranges {
		if rr.lo <= r && r <= rr.hi {
			return true
		}
	}
	return false
}
