package calc

import (
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// tokenKind tells the three kinds of token apart.
type tokenKind uint8

const (
	tokNumber tokenKind = iota // a numeric literal, its value in token.num
	tokOp                      // an operator, in token.op
	tokParen                   // "(" or ")", in token.op
)

// token is one lexical unit of an expression.
type token struct {
	kind tokenKind
	op   string  // "+", "-", "*", "/", "%", "**", "(" or ")"
	num  float64 // the value of a number
}

// tokenize splits an expression into numbers, operators and parentheses,
// skipping white space. Any other character, a prefixed literal without
// digits, an exponent without digits or a literal too large for a float64
// is an error, reported as omp reports it.
func tokenize(expr string) ([]token, error) {
	var toks []token
	for i := 0; i < len(expr); {
		r, size := utf8.DecodeRuneInString(expr[i:])
		switch {
		case isJSSpace(r):
			i += size
			continue
		case r == '(' || r == ')':
			toks = append(toks, token{kind: tokParen, op: string(r)})
			i++
			continue
		case r == '*' && i+1 < len(expr) && expr[i+1] == '*':
			toks = append(toks, token{kind: tokOp, op: "**"})
			i += 2
			continue
		case r == '+' || r == '-' || r == '*' || r == '/' || r == '%':
			toks = append(toks, token{kind: tokOp, op: string(r)})
			i++
			continue
		}
		if !isDigit(r) && (r != '.' || i+1 >= len(expr) || !isDigit(rune(expr[i+1]))) {
			return nil, &Error{Msg: `Invalid character "` + shownChar(r) + `" in expression`}
		}
		tok, next, err := lexNumber(expr, i)
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok)
		i = next
	}
	return toks, nil
}

// lexNumber reads the numeric literal starting at expr[start], which is a
// digit or a '.' before a digit, and returns it with the index after it.
func lexNumber(expr string, start int) (token, int, error) {
	i := start
	if expr[i] == '0' && i+1 < len(expr) {
		if base := prefixBase(expr[i+1]); base != 0 {
			i += 2
			for i < len(expr) && digitValue(expr[i]) < base {
				i++
			}
			raw := expr[start:i]
			if i == start+2 {
				return token{}, 0, &Error{Msg: `Invalid numeric literal starting at "` + raw + `"`}
			}
			v, ok := prefixedValue(raw[2:], base)
			if !ok {
				return token{}, 0, &Error{Msg: `Invalid number "` + raw + `"`}
			}
			return token{kind: tokNumber, num: v}, i, nil
		}
	}
	for i < len(expr) && isDigit(rune(expr[i])) {
		i++
	}
	if i < len(expr) && expr[i] == '.' {
		i++
		for i < len(expr) && isDigit(rune(expr[i])) {
			i++
		}
	}
	if i < len(expr) && (expr[i] == 'e' || expr[i] == 'E') {
		i++
		if i < len(expr) && (expr[i] == '+' || expr[i] == '-') {
			i++
		}
		digits := i
		for i < len(expr) && isDigit(rune(expr[i])) {
			i++
		}
		if i == digits {
			return token{}, 0, &Error{Msg: `Invalid exponent in "` + expr[start:i] + `"`}
		}
	}
	raw := expr[start:i]
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		// The literal is well formed, so the only failure is a value
		// beyond the float64 range (an underflow parses as 0, as in JS).
		return token{}, 0, &Error{Msg: `Invalid number "` + raw + `"`}
	}
	return token{kind: tokNumber, num: v}, i, nil
}

// prefixBase is the base of a literal prefix letter after "0": x, b or o
// in either case; 0 for anything else.
func prefixBase(c byte) int {
	switch c | 0x20 {
	case 'x':
		return 16
	case 'b':
		return 2
	case 'o':
		return 8
	}
	return 0
}

// digitValue is the value of a hexadecimal digit, 99 for anything else.
func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

// prefixedValue converts the digits of a 0x/0b/0o literal to a float64
// as JavaScriptCore's Number() does, so large literals round as they do
// in omp: the digits are accumulated most significant first, and when the
// value reaches 2**53 they are summed again least significant first,
// each digit times its power of the base (both in float64 arithmetic,
// not correctly rounded). false when the value is infinite.
func prefixedValue(digits string, base int) (float64, bool) {
	b := float64(base)
	v := 0.0
	for i := 0; i < len(digits); i++ {
		v = float64(v*b) + float64(digitValue(digits[i]))
	}
	if v >= 1<<53 {
		v = 0
		scale := 1.0
		for i := len(digits) - 1; i >= 0; i-- {
			if math.IsInf(scale, 1) {
				if digits[i] != '0' {
					v = math.Inf(1)
					break
				}
			} else {
				v += float64(float64(digitValue(digits[i])) * scale)
			}
			scale *= b
		}
	}
	return v, !math.IsInf(v, 0)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// isJSSpace reports whether r is white space or a line terminator to
// JavaScript's String.prototype.trim, the test omp's tokenizer uses.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0xFEFF, 0x2028, 0x2029:
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// shownChar is how an invalid character appears in the error. omp works
// on UTF-16 code units, so a character beyond the Basic Multilingual
// Plane shows as its first (lone) surrogate, which reaches the model as
// U+FFFD; invalid UTF-8 shows as U+FFFD too.
func shownChar(r rune) string {
	if r > 0xFFFF {
		return string(utf8.RuneError)
	}
	return string(r)
}
