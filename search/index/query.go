package index

import (
	"slices"
	"strconv"
	"strings"
)

// Trigram is three bytes of text, the first in the high byte.
type Trigram uint32

// Op is the kind of a Query node.
type Op uint8

// Query node kinds.
const (
	OpAll  Op = iota // every file
	OpNone           // no file
	OpTri            // files holding Tri
	OpAnd            // files satisfying every Sub
	OpOr             // files satisfying some Sub
)

// Query is a boolean condition on the trigrams of a file: what the index
// can answer. Build them with the planner (Plan); they are kept
// normalised (no All inside And, no None inside Or, nested And/Or
// flattened, children sorted and unique), so String is canonical.
type Query struct {
	Op  Op
	Tri Trigram  // OpTri
	Sub []*Query // OpAnd, OpOr
}

func allQuery() *Query          { return &Query{Op: OpAll} }
func noneQuery() *Query         { return &Query{Op: OpNone} }
func triQuery(t Trigram) *Query { return &Query{Op: OpTri, Tri: t} }

func and(a, b *Query) *Query { return combine(OpAnd, a, b) }
func or(a, b *Query) *Query  { return combine(OpOr, a, b) }

// combine builds a op b, normalised.
func combine(op Op, a, b *Query) *Query {
	unit, zero := OpAll, OpNone // the identity and the absorbing element of op
	if op == OpOr {
		unit, zero = OpNone, OpAll
	}
	switch {
	case a.Op == zero || b.Op == zero:
		return &Query{Op: zero}
	case a.Op == unit:
		return b
	case b.Op == unit:
		return a
	}
	var subs []*Query
	for _, q := range []*Query{a, b} {
		if q.Op == op {
			subs = append(subs, q.Sub...)
		} else {
			subs = append(subs, q)
		}
	}
	slices.SortFunc(subs, func(x, y *Query) int { return strings.Compare(x.String(), y.String()) })
	subs = slices.CompactFunc(subs, func(x, y *Query) bool { return x.String() == y.String() })
	if len(subs) == 1 {
		return subs[0]
	}
	return &Query{Op: op, Sub: subs}
}

// String is the query in a canonical text form: all, none, a quoted
// trigram, and(...) or or(...).
func (q *Query) String() string {
	switch q.Op {
	case OpAll:
		return "all"
	case OpNone:
		return "none"
	case OpTri:
		return strconv.Quote(string([]byte{byte(q.Tri >> 16), byte(q.Tri >> 8), byte(q.Tri)}))
	}
	parts := make([]string, len(q.Sub))
	for i, s := range q.Sub {
		parts[i] = s.String()
	}
	name := "and"
	if q.Op == OpOr {
		name = "or"
	}
	return name + "(" + strings.Join(parts, " ") + ")"
}

// Trigrams lists every trigram the query names, sorted and unique.
func (q *Query) Trigrams() []Trigram {
	var out []Trigram
	var walk func(*Query)
	walk = func(q *Query) {
		if q.Op == OpTri {
			out = append(out, q.Tri)
		}
		for _, s := range q.Sub {
			walk(s)
		}
	}
	walk(q)
	slices.Sort(out)
	return slices.Compact(out)
}

// Eval reports whether a file whose trigrams has answers "holds t" satisfies q.
func (q *Query) Eval(has func(Trigram) bool) bool {
	switch q.Op {
	case OpAll:
		return true
	case OpNone:
		return false
	case OpTri:
		return has(q.Tri)
	case OpAnd:
		for _, s := range q.Sub {
			if !s.Eval(has) {
				return false
			}
		}
		return true
	}
	for _, s := range q.Sub {
		if s.Eval(has) {
			return true
		}
	}
	return false
}
