package session

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/internal/jsonquote"
)

// A session file is mostly long strings (tool output, file contents). The
// scanner below validates a line and finds its members in one pass that
// walks strings a byte at a time without decoding them; encoding/json would
// validate, then decode, and core/ai's decoders re-scan each level again.
// Loading a 50 MB session is dominated by this pass, so it is kept simple
// and allocation-free. Decoded results must equal encoding/json's: the
// fuzz test FuzzUnquote checks unquote against it.

// maxDepth bounds nesting like encoding/json does, so hostile input cannot
// exhaust the stack.
const maxDepth = 10000

// errSyntax is the error of a malformed value; the scanner adds the offset.
var errSyntax = errors.New("invalid JSON")

type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("invalid JSON at byte %d: %s", e.off, e.msg) }
func (e *syntaxError) Unwrap() error { return errSyntax }

func synErr(off int, msg string) error { return &syntaxError{off, msg} }

func skipWS(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue validates the value starting at d[i] (no leading space) and
// returns the offset just past it.
func skipValue(d []byte, i, depth int) (int, error) {
	if i >= len(d) {
		return i, synErr(i, "unexpected end")
	}
	switch c := d[i]; {
	case c == '"':
		end, _, err := skipString(d, i)
		return end, err
	case c == '{':
		if depth >= maxDepth {
			return i, synErr(i, "nested too deeply")
		}
		return skipObject(d, i, depth+1)
	case c == '[':
		if depth >= maxDepth {
			return i, synErr(i, "nested too deeply")
		}
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = skipValue(d, i, depth+1); err != nil {
				return i, err
			}
			i = skipWS(d, i)
			if i >= len(d) {
				return i, synErr(i, "unterminated array")
			}
			if d[i] == ']' {
				return i + 1, nil
			}
			if d[i] != ',' {
				return i, synErr(i, "expected , or ] in array")
			}
			i = skipWS(d, i+1)
		}
	case c == 't':
		return skipLiteral(d, i, "true")
	case c == 'f':
		return skipLiteral(d, i, "false")
	case c == 'n':
		return skipLiteral(d, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return skipNumber(d, i)
	default:
		return i, synErr(i, fmt.Sprintf("unexpected character %q", c))
	}
}

func skipObject(d []byte, i, depth int) (int, error) {
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return i, synErr(i, "expected a member name")
		}
		var err error
		if i, _, err = skipString(d, i); err != nil {
			return i, err
		}
		i = skipWS(d, i)
		if i >= len(d) || d[i] != ':' {
			return i, synErr(i, "expected : after member name")
		}
		i = skipWS(d, i+1)
		if i, err = skipValue(d, i, depth); err != nil {
			return i, err
		}
		i = skipWS(d, i)
		if i >= len(d) {
			return i, synErr(i, "unterminated object")
		}
		if d[i] == '}' {
			return i + 1, nil
		}
		if d[i] != ',' {
			return i, synErr(i, "expected , or } in object")
		}
		i = skipWS(d, i+1)
	}
}

// skipString validates the string starting at d[i] == '"' and returns the
// offset past its closing quote and whether it holds escapes.
func skipString(d []byte, i int) (int, bool, error) {
	esc := false
	for i++; i < len(d); i++ {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character (long strings are most of a session), then
		// straight to the first one that is.
		for i+8 <= len(d) {
			if m := specialMask(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(d) {
			break
		}
		c := d[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		switch c {
		case '"':
			return i + 1, esc, nil
		case '\\':
			esc = true
			i++
			if i >= len(d) {
				return i, esc, synErr(i, "unterminated string")
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) {
					return i, esc, synErr(i, "short \\u escape")
				}
				for _, h := range d[i+1 : i+5] {
					if !isHex(h) {
						return i, esc, synErr(i, "bad \\u escape")
					}
				}
				i += 4
			default:
				return i, esc, synErr(i, "bad escape")
			}
		default:
			return i, esc, synErr(i, "control character in string")
		}
	}
	return i, esc, synErr(i, "unterminated string")
}

// specialMask has the top bit of each byte of x (little-endian) that may
// be '"', '\\' or below 0x20 set, and the lowest bit it sets is the first
// such byte: the classic SWAR tests (a byte b is zero iff (b-1) & ^b has its
// top bit set) give false positives only above a true one, from borrows.
func specialMask(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return ((q-ones)&^q | (bs-ones)&^bs | (x-ones*0x20)&^x) & highs
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func skipLiteral(d []byte, i int, lit string) (int, error) {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return i, synErr(i, "bad literal")
	}
	return i + len(lit), nil
}

func skipNumber(d []byte, i int) (int, error) {
	start := i
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return i, synErr(start, "bad number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, synErr(start, "bad number")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, synErr(start, "bad number")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	return i, nil
}

// member is one "key": value of an object; Key and Value are slices of the
// input (Key with its quotes).
type member struct {
	Key   []byte
	Value []byte
	esc   bool // the key holds escapes
}

// name returns the member's decoded name.
func (m member) name() string {
	if !m.esc {
		return string(m.Key[1 : len(m.Key)-1])
	}
	return unquote(m.Key)
}

// is reports whether the member's name is n.
func (m member) is(n string) bool {
	if !m.esc {
		return len(m.Key) == len(n)+2 && string(m.Key[1:len(m.Key)-1]) == n
	}
	return m.name() == n
}

// isFold reports whether the member's name is n in any letter case (how
// encoding/json matches a member to a field).
func (m member) isFold(n string) bool {
	if !m.esc {
		return len(m.Key) == len(n)+2 && strings.EqualFold(string(m.Key[1:len(m.Key)-1]), n)
	}
	return strings.EqualFold(m.name(), n)
}

// eachMember validates the object d (surrounding space allowed) and calls
// fn for each member in order; fn returning false stops early (the rest is
// then not validated).
func eachMember(d []byte, fn func(member) bool) error { return eachMemberScan(d, nil, fn) }

// eachMemberScan is eachMember where scan, when not nil, validates and
// skips each member's value in place of skipValue: it gets the member (its
// Value not yet set), d and the value's offset, and returns the offset
// just past the value. It lets a caller look inside a value in the pass
// that validates it.
func eachMemberScan(d []byte, scan func(key member, d []byte, i int) (int, error), fn func(member) bool) error {
	end, stopped, err := walkObject(d, skipWS(d, 0), scan, fn)
	if err != nil || stopped {
		return err
	}
	return trailing(d, end)
}

// walkObject is eachMemberScan for the object starting at d[i] (no leading
// space), with more after it allowed: it returns the offset just past the
// object, or stopped when fn ended the walk early (end is then not set).
func walkObject(d []byte, i int, scan func(key member, d []byte, i int) (int, error), fn func(member) bool) (end int, stopped bool, err error) {
	if i >= len(d) || d[i] != '{' {
		return i, false, synErr(i, "not a JSON object")
	}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, false, nil
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return i, false, synErr(i, "expected a member name")
		}
		ks := i
		ke, esc, err := skipString(d, i)
		if err != nil {
			return i, false, err
		}
		i = skipWS(d, ke)
		if i >= len(d) || d[i] != ':' {
			return i, false, synErr(i, "expected : after member name")
		}
		i = skipWS(d, i+1)
		vs := i
		if scan != nil {
			i, err = scan(member{Key: d[ks:ke:ke], esc: esc}, d, i)
		} else {
			i, err = skipValue(d, i, 1)
		}
		if err != nil {
			return i, false, err
		}
		if !fn(member{Key: d[ks:ke:ke], Value: d[vs:i:i], esc: esc}) {
			return i, true, nil
		}
		i = skipWS(d, i)
		if i >= len(d) {
			return i, false, synErr(i, "unterminated object")
		}
		if d[i] == '}' {
			return i + 1, false, nil
		}
		if d[i] != ',' {
			return i, false, synErr(i, "expected , or } in object")
		}
		i = skipWS(d, i+1)
	}
}

func trailing(d []byte, i int) error {
	if i = skipWS(d, i); i != len(d) {
		return synErr(i, "data after the value")
	}
	return nil
}

// validJSON reports whether d is one valid JSON value.
func validJSON(d []byte) bool {
	i := skipWS(d, 0)
	i, err := skipValue(d, i, 0)
	return err == nil && trailing(d, i) == nil
}

// stringValue returns the decoded string if v is a JSON string.
func stringValue(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	return unquote(v), true
}

// unquoteEsc is unquote for a literal whose escapes skipString reported:
// without escapes, only UTF-8 validity needs checking.
func unquoteEsc(q []byte, esc bool) string {
	if !esc && utf8.Valid(q) {
		return string(q[1 : len(q)-1])
	}
	return unquote(q)
}

// unquote decodes a valid JSON string literal (with quotes) exactly as
// encoding/json does: invalid UTF-8 and unpaired surrogates become U+FFFD.
func unquote(q []byte) string {
	s := q[1 : len(q)-1]
	// Fast path: no escapes, valid UTF-8 (checked as we go for ASCII).
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '\\' || c == '"' || c < 0x20 {
			break
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	if i == len(s) {
		return string(s)
	}
	b := make([]byte, i, len(s)+8)
	copy(b, s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\':
			i++
			switch s[i] {
			case '"', '\\', '/', '\'':
				b = append(b, s[i])
				i++
			case 'b':
				b = append(b, '\b')
				i++
			case 'f':
				b = append(b, '\f')
				i++
			case 'n':
				b = append(b, '\n')
				i++
			case 'r':
				b = append(b, '\r')
				i++
			case 't':
				b = append(b, '\t')
				i++
			case 'u':
				r := hex4(s[i+1 : i+5])
				i += 5
				if utf16.IsSurrogate(r) {
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						r2 := hex4(s[i+2 : i+6])
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							i += 6
							b = utf8.AppendRune(b, dec)
							break
						}
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
		}
	}
	return string(b)
}

func hex4(h []byte) rune {
	n, _ := strconv.ParseUint(string(h), 16, 32)
	return rune(n)
}

// appendQuoted appends s as a JSON string the way JavaScript's
// JSON.stringify writes it: only '"', '\\' and control characters are
// escaped (no HTML escaping, no escaping of U+2028/U+2029).
func appendQuoted(b []byte, s string) []byte { return jsonquote.Append(b, s, false) }
