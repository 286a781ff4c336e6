package ai

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ParseStreamingJSON parses streamed tool-call arguments: the complete
// JSON object or, for a truncated prefix, what ParsePartialJSON makes of
// it; {} when neither works. A value that is not an object also yields {}.
// It never fails.
//
// On complete JSON ParsePartialJSON returns exactly what encoding/json
// does (FuzzParsePartialJSON checks it) at several times its speed, so it
// runs first; encoding/json is only the fallback for a complete document
// nested deeper than ParsePartialJSON allows.
func ParseStreamingJSON(s string) map[string]any {
	t := strings.TrimSpace(s)
	if t == "" {
		return map[string]any{}
	}
	v, ok := ParsePartialJSON(s)
	if !ok && t[len(t)-1] == '}' && json.Unmarshal([]byte(s), &v) == nil {
		ok = true
	}
	if m, isObject := v.(map[string]any); ok && isObject {
		return m
	}
	return map[string]any{}
}

// ParsePartialJSON parses a JSON text that may be cut off anywhere and
// returns the value it has so far: open strings end where the text ends,
// open arrays and objects are closed, an object key without a value is
// dropped, an incomplete literal ("tr", "nu") completes to its only
// possible value, and a number cut after "-", "." or "e" drops the
// dangling part. Numbers decode as float64 like encoding/json. It reports
// false when the text is not a prefix of any JSON value (or is empty) or
// has non-space text after a complete value.
func ParsePartialJSON(s string) (any, bool) {
	p := partialParser{s: s}
	p.space()
	if p.i >= len(p.s) {
		return nil, false
	}
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	if p.i < len(p.s) {
		return nil, false
	}
	return v, true
}

// maxPartialDepth bounds nesting so that hostile input cannot exhaust the
// stack.
const maxPartialDepth = 512

type partialParser struct {
	s string
	i int
}

func (p *partialParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// eof reports whether the text ended; a cut-off there is fine.
func (p *partialParser) eof() bool { return p.i >= len(p.s) }

// value parses one value; at EOF inside it, it returns what it has. The
// caller distinguishes "complete" by checking eof afterwards.
func (p *partialParser) value(depth int) (any, bool) {
	if depth > maxPartialDepth {
		return nil, false
	}
	p.space()
	if p.eof() {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, false
}

func (p *partialParser) literal(word string, v any) (any, bool) {
	rest := p.s[p.i:]
	if len(rest) >= len(word) {
		if rest[:len(word)] != word {
			return nil, false
		}
		p.i += len(word)
		return v, true
	}
	if word[:len(rest)] != rest {
		return nil, false
	}
	p.i = len(p.s)
	return v, true
}

func (p *partialParser) number() (any, bool) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	if digits() == 0 {
		if p.eof() {
			return nil, false // just "-": no value yet
		}
		return nil, false
	}
	if p.s[intStart] == '0' && p.i-intStart > 1 {
		return nil, false // leading zero
	}
	end := p.i // end of the longest complete number so far
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			if !p.eof() {
				return nil, false
			}
		} else {
			end = p.i
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') && end == p.i {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			if !p.eof() {
				return nil, false
			}
		} else {
			end = p.i
		}
	}
	if end != p.i && !p.eof() {
		return nil, false
	}
	f, err := strconv.ParseFloat(p.s[start:end], 64)
	if err != nil {
		// Out of range: encoding/json rejects it too; treat as broken.
		return nil, false
	}
	return f, true
}

// str parses a string starting at '"'; an unterminated string returns its
// text so far (a cut escape sequence is dropped).
func (p *partialParser) str() (any, bool) {
	p.i++ // opening quote
	end := p.stringEnd()
	if raw := p.s[p.i:end]; end < len(p.s) && plainString(raw) {
		p.i = end + 1
		return raw, true // no escapes: share the input
	}
	var b strings.Builder
	b.Grow(end - p.i)
	for p.i < len(p.s) {
		// Copy a run of plain ASCII in one step.
		j := p.i
		for j < len(p.s) && p.s[j] >= 0x20 && p.s[j] < utf8.RuneSelf && p.s[j] != '"' && p.s[j] != '\\' {
			j++
		}
		if j > p.i {
			b.WriteString(p.s[p.i:j])
			p.i = j
			continue
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), true
		case c == '\\':
			if p.i+1 >= len(p.s) {
				p.i = len(p.s)
				return b.String(), true
			}
			e := p.s[p.i+1]
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, n, ok := p.unicodeEscape(p.i)
				if !ok {
					return nil, false
				}
				if n == 0 { // cut inside the escape
					p.i = len(p.s)
					return b.String(), true
				}
				b.WriteRune(r)
				p.i += n
				continue
			default:
				return nil, false
			}
			p.i += 2
		case c < 0x20:
			return nil, false
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				if !utf8.FullRuneInString(p.s[p.i:]) {
					p.i = len(p.s) // a cut multi-byte character
					return b.String(), true
				}
				r = utf8.RuneError
			}
			b.WriteRune(r)
			p.i += size
		}
	}
	return b.String(), true
}

// stringEnd returns the index of the quote closing the string that starts
// at p.i, or len(p.s) when the text ends first.
func (p *partialParser) stringEnd() int {
	i := p.i
	for {
		j := strings.IndexByte(p.s[i:], '"')
		if j < 0 {
			return len(p.s)
		}
		i += j
		bs := 0
		for k := i - 1; k >= p.i && p.s[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return i
		}
		i++
	}
}

// plainString reports whether s needs no decoding: printable ASCII without
// backslashes.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '\\' {
			return false
		}
	}
	return true
}

// unicodeEscape decodes \uXXXX (with a following low surrogate when
// needed) at i. n is the number of bytes consumed, 0 when the text ends
// inside the escape.
func (p *partialParser) unicodeEscape(i int) (r rune, n int, ok bool) {
	hex4 := func(at int) (rune, int) { // 1 ok, 0 cut, -1 bad
		if at+4 > len(p.s) {
			for _, c := range []byte(p.s[at:]) {
				if !isHex(c) {
					return 0, -1
				}
			}
			return 0, 0
		}
		v, err := strconv.ParseUint(p.s[at:at+4], 16, 32)
		if err != nil {
			return 0, -1
		}
		return rune(v), 1
	}
	r1, st := hex4(i + 2)
	if st < 0 {
		return 0, 0, false
	}
	if st == 0 {
		return 0, 0, true
	}
	if !utf16.IsSurrogate(r1) {
		return r1, 6, true
	}
	rest := p.s[i+6:]
	if len(rest) < 2 {
		if rest == "" || rest == "\\" {
			return 0, 0, true // the low half may still come
		}
		return utf8.RuneError, 6, true
	}
	if rest[0] != '\\' || rest[1] != 'u' {
		return utf8.RuneError, 6, true
	}
	r2, st2 := hex4(i + 8)
	if st2 < 0 {
		return 0, 0, false
	}
	if st2 == 0 {
		return 0, 0, true
	}
	if d := utf16.DecodeRune(r1, r2); d != utf8.RuneError {
		return d, 12, true
	}
	return utf8.RuneError, 6, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (p *partialParser) array(depth int) (any, bool) {
	p.i++ // [
	out := []any{}
	for {
		p.space()
		if p.eof() {
			return out, true
		}
		if p.s[p.i] == ']' {
			p.i++
			return out, true
		}
		if len(out) > 0 {
			if p.s[p.i] != ',' {
				return nil, false
			}
			p.i++
			p.space()
			if p.eof() {
				return out, true
			}
		}
		v, ok := p.value(depth + 1)
		if !ok {
			if p.eof() {
				return out, true
			}
			return nil, false
		}
		out = append(out, v)
	}
}

func (p *partialParser) object(depth int) (any, bool) {
	p.i++ // {
	out := map[string]any{}
	first := true
	for {
		p.space()
		if p.eof() {
			return out, true
		}
		if p.s[p.i] == '}' {
			p.i++
			return out, true
		}
		if !first {
			if p.s[p.i] != ',' {
				return nil, false
			}
			p.i++
			p.space()
			if p.eof() {
				return out, true
			}
		}
		first = false
		if p.s[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if p.eof() {
			return out, true // key without colon: dropped
		}
		if p.s[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.space()
		if p.eof() {
			return out, true // key without value: dropped
		}
		v, ok := p.value(depth + 1)
		if !ok {
			if p.eof() {
				return out, true
			}
			return nil, false
		}
		out[k.(string)] = v
	}
}
