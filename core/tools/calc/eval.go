package calc

import "math"

// Error is an evaluation failure; its message is the text omp gives.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Evaluate computes an arithmetic expression with JavaScript number
// semantics and returns a finite result, with -0 turned into 0.
func Evaluate(expr string) (float64, error) {
	toks, err := tokenize(expr)
	if err != nil {
		return 0, err
	}
	if len(toks) == 0 {
		return 0, &Error{Msg: "Expression is empty"}
	}
	p := parser{toks: toks}
	v, err := p.sum()
	if err != nil {
		return 0, err
	}
	if p.pos < len(p.toks) {
		return 0, errUnexpected
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, &Error{Msg: "Expression result is not a finite number"}
	}
	if v == 0 {
		v = 0 // -0 shows as 0
	}
	return v, nil
}

var errUnexpected = &Error{Msg: "Unexpected token in expression"}

// parser evaluates while it parses (recursive descent), one method per
// precedence level, loosest first:
//
//	sum     = product { ("+" | "-") product }
//	product = unary { ("*" | "/" | "%") unary }
//	unary   = ("+" | "-") unary | power
//	power   = primary [ "**" power ]
//	primary = number | "(" sum ")"
//
// So ** is right-associative and binds tighter than a unary sign on its
// left (-2 ** 2 is -4), and its right operand cannot start with a sign
// (2 ** -1 is an error), as in omp.
type parser struct {
	toks  []token
	pos   int
	depth int // nesting of the rules being parsed, bounded by maxDepth
}

// maxDepth bounds the nesting of parentheses, signs and ** chains, so a
// hostile expression cannot exhaust the stack. omp stops at the engine's
// stack limit (some thousands) with a RangeError.
const maxDepth = 2000

var errTooDeep = &Error{Msg: "Expression is nested too deeply (over 2000 levels of parentheses, signs or **); split it into smaller calculations"}

// accept consumes the next token when it is the operator or parenthesis s.
func (p *parser) accept(s string) bool {
	if p.pos < len(p.toks) && p.toks[p.pos].kind != tokNumber && p.toks[p.pos].op == s {
		p.pos++
		return true
	}
	return false
}

func (p *parser) sum() (float64, error) {
	v, err := p.product()
	for err == nil {
		var w float64
		switch {
		case p.accept("+"):
			if w, err = p.product(); err == nil {
				v = float64(v + w)
			}
		case p.accept("-"):
			if w, err = p.product(); err == nil {
				v = float64(v - w)
			}
		default:
			return v, nil
		}
	}
	return 0, err
}

func (p *parser) product() (float64, error) {
	v, err := p.unary()
	for err == nil {
		var w float64
		switch {
		case p.accept("*"):
			if w, err = p.unary(); err == nil {
				v = float64(v * w)
			}
		case p.accept("/"):
			if w, err = p.unary(); err == nil {
				v = float64(v / w)
			}
		case p.accept("%"):
			if w, err = p.unary(); err == nil {
				v = math.Mod(v, w)
			}
		default:
			return v, nil
		}
	}
	return 0, err
}

func (p *parser) unary() (float64, error) {
	if p.depth++; p.depth > maxDepth {
		return 0, errTooDeep
	}
	defer func() { p.depth-- }()
	switch {
	case p.accept("+"):
		return p.unary()
	case p.accept("-"):
		v, err := p.unary()
		return -v, err
	}
	return p.power()
}

func (p *parser) power() (float64, error) {
	v, err := p.primary()
	if err != nil || !p.accept("**") {
		return v, err
	}
	if p.depth++; p.depth > maxDepth {
		return 0, errTooDeep
	}
	w, err := p.power()
	p.depth--
	if err != nil {
		return 0, err
	}
	return jsPow(v, w), nil
}

func (p *parser) primary() (float64, error) {
	if p.pos >= len(p.toks) {
		return 0, &Error{Msg: "Unexpected end of expression"}
	}
	t := p.toks[p.pos]
	switch {
	case t.kind == tokNumber:
		p.pos++
		return t.num, nil
	case t.kind == tokParen && t.op == "(":
		p.pos++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		if !p.accept(")") {
			return 0, &Error{Msg: "Missing closing parenthesis"}
		}
		return v, nil
	}
	return 0, errUnexpected
}
