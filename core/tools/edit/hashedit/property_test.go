package hashedit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
)

// TestFreshAnchorsChangeOnlyNamedLines builds random edits from fresh
// anchors and checks the result against a slow reference that applies
// the same edits one at a time, bottom up, by plain slice splicing: every
// line the edit does not name must survive unchanged and in order, and
// nothing else may appear but the payloads.
func TestFreshAnchorsChangeOnlyNamedLines(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	texts := []string{"}", "{", "", "return x", "  }", "x := 1", "// note", "end"}
	for iter := range 4000 {
		n := 1 + r.IntN(30)
		lines := make([]string, n)
		for i := range lines {
			if r.IntN(3) == 0 {
				lines[i] = fmt.Sprintf("line %d", i+1)
			} else {
				lines[i] = texts[r.IntN(len(texts))]
			}
		}
		if lines[n-1] == "" {
			// "+ <last line>" on the empty line after a final break goes
			// before it (omp's EOF rule), which the reference splice
			// does not model; TestEmptyLastLine covers it.
			lines[n-1] = "end"
		}
		ops, ref := randomEdit(r, lines, iter)
		r.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
		res, err := Apply(lines, ops, Options{})
		if err != nil {
			t.Fatalf("iter %d: %v\nlines %q\nops %+v", iter, err, lines, ops)
		}
		if len(res.Warnings) != 0 {
			t.Fatalf("iter %d: unexpected warnings %q", iter, res.Warnings)
		}
		checkRegions(t, lines, res)
		if !slices.Equal(res.Lines, ref) {
			t.Fatalf("iter %d:\nlines %q\nops %+v\ngot  %q\nwant %q", iter, lines, ops, res.Lines, ref)
		}
	}
}

// slot is one edit on a private stretch of the file.
type slot struct {
	op       Op
	from, to int // the original lines the slot owns (1-based, inclusive)
}

// randomEdit picks non-overlapping slots, each with one op made from
// fresh anchors and unique payload lines, and returns the ops with the
// expected result computed by splicing the slots bottom up.
func randomEdit(r *rand.Rand, lines []string, iter int) ([]Op, []string) {
	anchor := func(l int) hashline.Ref { return hashline.Ref{Line: l, Hash: hashline.LineHash(l, lines[l-1])} }
	payload := func(k int) []string {
		p := make([]string, 1+r.IntN(3))
		for j := range p {
			p[j] = fmt.Sprintf("P%d-%d-%d", iter, k, j)
		}
		return p
	}
	var slots []slot
	for l := 1; l <= len(lines); {
		if r.IntN(3) != 0 {
			l++
			continue
		}
		k := len(slots)
		switch r.IntN(4) {
		case 0, 1: // delete or replace a range
			end := min(l+r.IntN(3), len(lines))
			op := Op{Kind: Delete, From: anchor(l), To: anchor(end), Line: k}
			if r.IntN(2) == 0 {
				op.Kind, op.Payload = Replace, payload(k)
			}
			slots = append(slots, slot{op, l, end})
			l = end + 2
		case 2:
			slots = append(slots, slot{Op{Kind: InsertAfter, At: Target{Ref: anchor(l)}, Payload: payload(k), Line: k}, l, l})
			l += 2
		case 3:
			slots = append(slots, slot{Op{Kind: InsertBefore, At: Target{Ref: anchor(l)}, Payload: payload(k), Line: k}, l, l})
			l += 2
		}
	}
	lastIsAfterEnd := len(slots) > 0 && slots[len(slots)-1].op.Kind == InsertAfter && slots[len(slots)-1].from == len(lines)
	// "+ <last line>" shares the EOF bucket with "+ EOF" in op order; keep
	// the reference simple by not combining them.
	if r.IntN(4) == 0 && !lastIsAfterEnd {
		slots = append(slots, slot{op: Op{Kind: InsertAfter, At: Target{Special: EOF}, Payload: payload(len(slots)), Line: len(slots)}})
	}
	if r.IntN(4) == 0 {
		slots = append(slots, slot{op: Op{Kind: InsertBefore, At: Target{Special: BOF}, Payload: payload(len(slots)), Line: len(slots)}})
	}
	if len(slots) == 0 {
		slots = append(slots, slot{op: Op{Kind: InsertAfter, At: Target{Special: BOF}, Payload: payload(0)}})
	}
	ref := slices.Clone(lines)
	// Anchored slots bottom up, then EOF, then BOF.
	order := slices.Clone(slots)
	slices.SortStableFunc(order, func(a, b slot) int { return b.from - a.from })
	for _, s := range order {
		op := s.op
		switch {
		case op.At.Special != NoSpecial:
		case op.Kind == InsertAfter:
			ref = slices.Insert(ref, s.from, op.Payload...)
		case op.Kind == InsertBefore:
			ref = slices.Insert(ref, s.from-1, op.Payload...)
		case op.Kind == Delete:
			ref = slices.Delete(ref, s.from-1, s.to)
		case op.Kind == Replace:
			ref = slices.Concat(ref[:s.from-1], op.Payload, ref[s.to:])
		}
	}
	// BOF then EOF, as omp places them: replacing a text that is one empty
	// line, EOF text before the empty line after a final line break.
	for _, special := range []Special{BOF, EOF} {
		for _, s := range slots {
			if s.op.At.Special != special {
				continue
			}
			switch {
			case len(ref) == 1 && ref[0] == "":
				ref = slices.Clone(s.op.Payload)
			case special == BOF:
				ref = slices.Concat(s.op.Payload, ref)
			case len(ref) > 1 && ref[len(ref)-1] == "":
				ref = slices.Insert(ref, len(ref)-1, s.op.Payload...)
			default:
				ref = append(ref, s.op.Payload...)
			}
		}
	}
	ops := make([]Op, len(slots))
	for i, s := range slots {
		ops[i] = s.op
	}
	return ops, ref
}

// checkRegions verifies that a region-limited diff of the result rebuilds
// both sides, i.e. that nothing changed outside the reported regions.
func checkRegions(t *testing.T, old []string, res *Result) {
	t.Helper()
	var a, b []string
	for _, e := range diff.LinesInRegions(old, res.Lines, res.Regions) {
		if e.Kind != diff.Insert {
			a = append(a, e.Text)
		}
		if e.Kind != diff.Delete {
			b = append(b, e.Text)
		}
		if e.Kind == diff.Equal && e.Text != old[e.OldLine] {
			t.Fatalf("equal line %d differs", e.OldLine)
		}
	}
	if !slices.Equal(a, old) || !slices.Equal(b, res.Lines) {
		t.Fatalf("regions %+v do not cover the change:\n%q\n%q", res.Regions, old, res.Lines)
	}
	// Outside the regions, old and new lines must pair up exactly.
	i, j := 0, 0
	for _, r := range res.Regions {
		for ; i < r.OldStart; i, j = i+1, j+1 {
			if j >= len(res.Lines) || old[i] != res.Lines[j] {
				t.Fatalf("line %d changed outside the regions %+v", i+1, res.Regions)
			}
		}
		i, j = r.OldEnd, r.NewEnd
	}
	if len(old)-i != len(res.Lines)-j {
		t.Fatalf("tail lengths differ after the regions %+v", res.Regions)
	}
}
