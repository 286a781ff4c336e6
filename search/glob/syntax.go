package glob

import (
	"fmt"
	"unicode/utf8"
)

// Limits that keep compilation bounded for hostile or accidental input.
const (
	// maxBraceDepth bounds nesting of {…} so the recursive parser cannot
	// exhaust the stack; real patterns nest two or three levels at most.
	maxBraceDepth = 32
	// maxAlternatives bounds brace expansion. Expansion is a product over
	// sibling groups ({a,b}{c,d} → 4), so a short pattern could otherwise
	// ask for millions of alternatives. Merged multi-path find calls
	// produce a few dozen.
	maxAlternatives = 4096
	// maxExpandedTokens bounds the total size of all alternatives, so a
	// long pattern cannot combine with many alternatives into megabytes.
	maxExpandedTokens = 1 << 16
)

// SyntaxError reports a pattern that cannot be compiled.
type SyntaxError struct {
	Pattern string // the pattern as given to Compile
	Pos     int    // byte offset of the offending character
	Msg     string // what is wrong, e.g. "unclosed '['"
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("glob: invalid pattern %q: %s at position %d", e.Pattern, e.Msg, e.Pos)
}

// tokKind is the kind of one lexical element of a brace-free alternative.
type tokKind uint8

const (
	tLit   tokKind = iota // literal bytes (valid UTF-8, never contains '/')
	tAny                  // ? — one character other than '/'
	tStar                 // * — any run of characters other than '/'
	tClass                // [...] — one character from a set, never '/'
	tSep                  // '/' — segment separator
)

// tok is one element of an expanded alternative.
type tok struct {
	kind  tokKind
	lit   string // tLit
	class *class // tClass
}

// node is one element of the parsed pattern before brace expansion: either a
// plain token or an alternation whose branches are node sequences.
type node struct {
	tok  tok
	alts [][]node // non-nil for {a,b,...}
	pos  int      // byte offset of the element in the pattern
}

// parser is a recursive-descent parser over the raw pattern bytes.
type parser struct {
	src string
	pos int
}

func (p *parser) errorf(pos int, format string, args ...any) error {
	return &SyntaxError{Pattern: p.src, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// parseSeq parses until the end of input or, inside braces, until an
// unescaped ',' or '}' (left unconsumed for the caller).
func (p *parser) parseSeq(depth int) ([]node, error) {
	var seq []node
	for p.pos < len(p.src) {
		c, start := p.src[p.pos], p.pos
		switch {
		case depth > 0 && (c == ',' || c == '}'):
			return seq, nil
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				return nil, p.errorf(p.pos, "trailing '\\' escapes nothing")
			}
			_, w := utf8.DecodeRuneInString(p.src[p.pos+1:])
			lit := p.src[p.pos+1 : p.pos+1+w]
			p.pos += 1 + w
			if lit == "/" {
				seq = append(seq, node{tok: tok{kind: tSep}})
			} else {
				seq = append(seq, node{tok: tok{kind: tLit, lit: lit}})
			}
		case c == '/':
			p.pos++
			seq = append(seq, node{tok: tok{kind: tSep}})
		case c == '*':
			p.pos++
			seq = append(seq, node{tok: tok{kind: tStar}})
		case c == '?':
			p.pos++
			seq = append(seq, node{tok: tok{kind: tAny}})
		case c == '[':
			cl, err := p.parseClass()
			if err != nil {
				return nil, err
			}
			seq = append(seq, node{tok: tok{kind: tClass, class: cl}})
		case c == '{':
			n, err := p.parseBraces(depth + 1)
			if err != nil {
				return nil, err
			}
			seq = append(seq, n)
		default:
			_, w := utf8.DecodeRuneInString(p.src[p.pos:])
			seq = append(seq, node{tok: tok{kind: tLit, lit: p.src[p.pos : p.pos+w]}})
			p.pos += w
		}
		seq[len(seq)-1].pos = start
	}
	return seq, nil
}

// parseBraces parses {alt,alt,...} starting at the '{'.
func (p *parser) parseBraces(depth int) (node, error) {
	open := p.pos
	if depth > maxBraceDepth {
		return node{}, p.errorf(open, "braces nested deeper than %d levels", maxBraceDepth)
	}
	p.pos++ // '{'
	var alts [][]node
	for {
		seq, err := p.parseSeq(depth)
		if err != nil {
			return node{}, err
		}
		alts = append(alts, seq)
		if p.pos >= len(p.src) {
			return node{}, p.errorf(open, "unclosed '{'")
		}
		c := p.src[p.pos]
		p.pos++
		if c == '}' {
			return node{alts: alts, pos: open}, nil
		}
		// c == ','
	}
}

// parseClass parses [...] starting at the '['. A ']' directly after '[' (or
// after the negation mark) is a member, not the end; '\' escapes the next
// character; "a-z" is an inclusive range unless the '-' is last.
func (p *parser) parseClass() (*class, error) {
	open := p.pos
	p.pos++ // '['
	cl := &class{}
	if p.pos < len(p.src) && (p.src[p.pos] == '!' || p.src[p.pos] == '^') {
		cl.negated = true
		p.pos++
	}
	first := true
	for {
		if p.pos >= len(p.src) {
			return nil, p.errorf(open, "unclosed '['")
		}
		if p.src[p.pos] == ']' && !first {
			p.pos++
			cl.finish()
			return cl, nil
		}
		first = false
		lo, err := p.classRune(open)
		if err != nil {
			return nil, err
		}
		hi := lo
		if p.pos+1 < len(p.src) && p.src[p.pos] == '-' && p.src[p.pos+1] != ']' {
			p.pos++ // '-'
			if hi, err = p.classRune(open); err != nil {
				return nil, err
			}
		}
		cl.add(lo, hi)
	}
}

// classRune reads one (possibly escaped) member character of a class.
func (p *parser) classRune(open int) (rune, error) {
	if p.src[p.pos] == '\\' {
		p.pos++
		if p.pos >= len(p.src) {
			return 0, p.errorf(open, "unclosed '['")
		}
	}
	r, w := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += w
	return r, nil
}

// expand turns a parsed sequence into its brace-free alternatives, in
// pattern order ({b,a} yields the b branch first).
func expand(seq []node, pattern string) ([][]tok, error) {
	out := [][]tok{nil}
	total := 0 // tokens across all alternatives
	for _, n := range seq {
		if n.alts == nil {
			if total += len(out); total > maxExpandedTokens {
				return nil, &SyntaxError{Pattern: pattern, Pos: n.pos,
					Msg: fmt.Sprintf("braces expand to more than %d elements", maxExpandedTokens)}
			}
			for i := range out {
				out[i] = append(out[i], n.tok)
			}
			continue
		}
		var branches [][]tok
		for _, alt := range n.alts {
			sub, err := expand(alt, pattern)
			if err != nil {
				return nil, err
			}
			branches = append(branches, sub...)
		}
		if len(out)*len(branches) > maxAlternatives {
			return nil, &SyntaxError{Pattern: pattern, Pos: n.pos,
				Msg: fmt.Sprintf("braces expand to more than %d alternatives", maxAlternatives)}
		}
		size := 0
		for _, h := range out {
			size += len(h) * len(branches)
		}
		for _, b := range branches {
			size += len(b) * len(out)
		}
		if total = size; size > maxExpandedTokens {
			return nil, &SyntaxError{Pattern: pattern, Pos: n.pos,
				Msg: fmt.Sprintf("braces expand to more than %d elements", maxExpandedTokens)}
		}
		next := make([][]tok, 0, len(out)*len(branches))
		for _, head := range out {
			for _, b := range branches {
				t := make([]tok, 0, len(head)+len(b))
				t = append(append(t, head...), b...)
				next = append(next, t)
			}
		}
		out = next
	}
	return out, nil
}
