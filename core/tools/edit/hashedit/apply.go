package hashedit

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
)

// Options tune Apply.
type Options struct {
	// AutoDropInsertDuplicates drops a pure insert's first or last payload
	// line when it repeats the line the insert sits next to
	// (edit.hashlineAutoDropPureInsertDuplicates).
	AutoDropInsertDuplicates bool
}

// Result is a file after its edits.
type Result struct {
	Lines    []string // the new lines, without terminators
	Warnings []string // boundary fixes made along the way
	// Regions are the stretches of old and new lines the edits touched
	// (nil when unknown, as after a recovery merge); outside them the
	// lines are unchanged, so a diff only needs to look inside.
	Regions []diff.Region
}

// NeedsFile reports whether ops refer to existing lines (anything but
// inserts at BOF or EOF), so that the file must exist.
func NeedsFile(ops []Op) bool {
	for _, op := range ops {
		if op.Kind == Delete || op.Kind == Replace || op.At.Special == NoSpecial {
			return true
		}
	}
	return false
}

// Apply validates every anchor of ops against lines and, when all hold,
// returns the edited lines. lines are the text split at every '\n', as
// omp splits it: a text ending in a line break ends with an empty line,
// which anchors like any other, and "" is one empty line. Line numbers in ops always refer to lines as
// given: edits are bucketed by original line and spliced as if from the
// bottom up, BOF and EOF inserts last. Errors: *hashline.OutOfRangeError
// for an anchor past the end, *MismatchError (listing every stale anchor)
// when hashes differ, or an overlap error.
func Apply(lines []string, ops []Op, opts Options) (*Result, error) {
	if err := validate(lines, ops); err != nil {
		return nil, err
	}
	plan, err := newPlan(lines, ops)
	if err != nil {
		return nil, err
	}
	plan.absorbBoundaryDuplicates(ops)
	if opts.AutoDropInsertDuplicates {
		plan.dropInsertDuplicates()
	}
	lines, regions := plan.render()
	return &Result{Lines: lines, Warnings: plan.warnings, Regions: regions}, nil
}

// validate checks every anchor: range ends and insert anchors. Interior
// lines of a range are not checked.
func validate(lines []string, ops []Op) error {
	var stale []hashline.Ref
	seen := map[hashline.Ref]bool{}
	check := func(r hashline.Ref) error {
		err := hashline.Check(r, lines)
		var mm *hashline.MismatchError
		if errors.As(err, &mm) {
			if !seen[r] {
				seen[r] = true
				stale = append(stale, r)
			}
			return nil
		}
		return err
	}
	for _, op := range ops {
		var err error
		switch op.Kind {
		case InsertAfter, InsertBefore:
			if op.At.Special == NoSpecial {
				err = check(op.At.Ref)
			}
		default:
			if err = check(op.From); err == nil && op.To != op.From {
				err = check(op.To)
			}
		}
		if err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		return &MismatchError{Lines: lines, Stale: stale}
	}
	return nil
}

// insertion is payload placed before an original line (or at BOF/EOF).
type insertion struct {
	op      int // index of the op, for warnings
	payload []string
	pure    bool // from + or <, not from =
	after   int  // the anchor line of a pure insert (0 for BOF/EOF and "<")
	before  int  // for "<": the anchor line
}

// plan is the bucketed form of a set of ops.
type plan struct {
	lines    []string
	before   [][]insertion // before[i]: inserts before original line i+1
	bof, eof []insertion
	deleted  []int // deleted[i]: 1 + index of the op deleting line i+1, 0 if kept
	warnings []string
}

func newPlan(lines []string, ops []Op) (*plan, error) {
	p := &plan{lines: lines, before: make([][]insertion, len(lines)), deleted: make([]int, len(lines))}
	for i, op := range ops {
		switch op.Kind {
		case InsertAfter, InsertBefore:
			ins := insertion{op: i, payload: op.Payload, pure: true}
			switch {
			case op.At.Special == BOF:
				p.bof = append(p.bof, ins)
			case op.At.Special == EOF:
				p.eof = append(p.eof, ins)
			case op.Kind == InsertBefore:
				ins.before = op.At.Ref.Line
				p.before[op.At.Ref.Line-1] = append(p.before[op.At.Ref.Line-1], ins)
			case op.At.Ref.Line == len(lines):
				ins.after = op.At.Ref.Line
				p.eof = append(p.eof, ins)
			default:
				ins.after = op.At.Ref.Line
				p.before[op.At.Ref.Line] = append(p.before[op.At.Ref.Line], ins)
			}
		case Delete, Replace:
			for l := op.From.Line; l <= op.To.Line; l++ {
				if prev := p.deleted[l-1]; prev != 0 {
					return nil, fmt.Errorf("line %d: range %s..%s overlaps the range on line %d (line %d is in both); merge them into one operation.",
						op.Line, op.From, op.To, ops[prev-1].Line, l)
				}
				p.deleted[l-1] = i + 1
			}
			if op.Kind == Replace {
				at := op.From.Line - 1
				p.before[at] = append(p.before[at], insertion{op: i, payload: op.Payload})
			}
		}
	}
	return p, nil
}

// render splices the plan into the new lines and reports the regions it
// changed.
func (p *plan) render() ([]string, []diff.Region) {
	out := make([]string, 0, len(p.lines)+8)
	var regions []diff.Region
	open := false // a region is open at the end of regions
	touch := func(oldAt int) {
		if !open {
			regions = append(regions, diff.Region{OldStart: oldAt, NewStart: len(out)})
			open = true
		}
	}
	closeAt := func(oldAt int) {
		if open {
			r := &regions[len(regions)-1]
			r.OldEnd, r.NewEnd = oldAt, len(out)
			open = false
		}
	}
	for i, l := range p.lines {
		if len(p.before[i]) == 0 && p.deleted[i] == 0 {
			closeAt(i)
			out = append(out, l)
			continue
		}
		touch(i)
		for _, ins := range p.before[i] {
			out = append(out, ins.payload...)
		}
		if p.deleted[i] == 0 {
			out = append(out, l)
		}
	}
	closeAt(len(p.lines))
	if len(p.bof) == 0 && len(p.eof) == 0 {
		return out, regions
	}
	// BOF and EOF inserts go in last, as in omp: into a text that is one
	// empty line they replace it, and EOF text goes before the empty line
	// that follows a final line break, so the break stays final.
	var bof, eof []string
	for _, ins := range p.bof {
		bof = append(bof, ins.payload...)
	}
	for _, ins := range p.eof {
		eof = append(eof, ins.payload...)
	}
	oldLen := len(p.lines)
	if len(bof) > 0 {
		if len(out) == 1 && out[0] == "" {
			out = out[:0]
			regions = []diff.Region{{OldEnd: oldLen}}
		}
		out = append(bof, out...)
		regions = shiftRegions(regions, len(bof))
	}
	if len(eof) > 0 {
		at := len(out) // where eof goes in out
		switch {
		case len(out) == 1 && out[0] == "":
			out, at = eof, 0
		case len(out) > 1 && out[len(out)-1] == "":
			at = len(out) - 1
			out = append(append(out[:at], eof...), "")
		default:
			out = append(out, eof...)
		}
		regions = tailRegion(regions, at, oldLen, len(out))
	}
	return out, regions
}

// shiftRegions accounts for n lines put before the whole text: they are a
// region of their own at the top, merged with one that starts there.
func shiftRegions(regions []diff.Region, n int) []diff.Region {
	out := []diff.Region{{NewEnd: n}}
	for _, r := range regions {
		r.NewStart += n
		r.NewEnd += n
		if r.OldStart == 0 {
			out[0].OldEnd, out[0].NewEnd = r.OldEnd, r.NewEnd
			continue
		}
		out = append(out, r)
	}
	return out
}

// tailRegion makes everything from line at of the new text (0-based) to
// the end one region, ending at the ends of both texts: the regions that
// end before at keep, the others are merged into it.
func tailRegion(regions []diff.Region, at, oldLen, newLen int) []diff.Region {
	shift := 0 // new minus old line numbers between the kept regions and the tail
	keep := 0
	for _, r := range regions {
		if r.NewEnd > at {
			break
		}
		shift = r.NewEnd - r.OldEnd
		keep++
	}
	start := at
	if keep < len(regions) {
		start = min(start, regions[keep].NewStart)
	}
	tail := diff.Region{OldStart: start - shift, NewStart: start, OldEnd: oldLen, NewEnd: newLen}
	return append(regions[:keep:keep], tail)
}

// touched reports whether original line n (1-based) is deleted or has
// inserts next to it from any op but self.
func (p *plan) touched(n, self int) bool {
	if n < 1 || n > len(p.lines) || p.deleted[n-1] != 0 {
		return true
	}
	for _, k := range []int{n - 1, n} {
		if k >= len(p.lines) {
			continue
		}
		for _, ins := range p.before[k] {
			if ins.op != self {
				return true
			}
		}
	}
	return false
}

// absorbBoundaryDuplicates handles a replacement whose payload repeats the
// untouched line just above or below its range — the model included a
// neighbour in the new text but not in the range. The range is widened
// over that neighbour so it is not doubled. Only lines with a letter or a
// digit count: a repeated "}" is too often legitimate.
func (p *plan) absorbBoundaryDuplicates(ops []Op) {
	for i, op := range ops {
		if op.Kind != Replace || len(op.Payload) < 2 {
			continue
		}
		above, below := op.From.Line-1, op.To.Line+1
		if above >= 1 && !p.touched(above, i) && sameLine(op.Payload[0], p.lines[above-1]) {
			p.deleted[above-1] = i + 1
			// Move the payload up so it replaces the absorbed line too.
			p.moveInsertion(i, op.From.Line-1, above-1)
			p.warnings = append(p.warnings, fmt.Sprintf(
				"line %d: the payload starts with line %d, which is just above the range %s..%s; line %d was replaced too so it is not duplicated.",
				op.Line, above, op.From, op.To, above))
		}
		if below <= len(p.lines) && !p.touched(below, i) && sameLine(op.Payload[len(op.Payload)-1], p.lines[below-1]) {
			p.deleted[below-1] = i + 1
			p.warnings = append(p.warnings, fmt.Sprintf(
				"line %d: the payload ends with line %d, which is just below the range %s..%s; line %d was replaced too so it is not duplicated.",
				op.Line, below, op.From, op.To, below))
		}
	}
}

// moveInsertion moves op's insertion from before[from] to before[to].
func (p *plan) moveInsertion(op, from, to int) {
	list := p.before[from]
	for k, ins := range list {
		if ins.op == op {
			p.before[from] = append(list[:k:k], list[k+1:]...)
			p.before[to] = append(p.before[to], ins)
			return
		}
	}
}

// dropInsertDuplicates trims a pure insert's payload line that repeats
// the anchor line it is attached to or the line on its other side.
func (p *plan) dropInsertDuplicates() {
	fix := func(ins *insertion) {
		if len(ins.payload) < 2 {
			return
		}
		var up, down int // the original lines just above and below the insert
		switch {
		case ins.after > 0:
			up, down = ins.after, ins.after+1
		case ins.before > 0:
			up, down = ins.before-1, ins.before
		default:
			return
		}
		if up >= 1 && up <= len(p.lines) && sameLine(ins.payload[0], p.lines[up-1]) {
			ins.payload = ins.payload[1:]
			p.warnings = append(p.warnings, fmt.Sprintf("dropped the first payload line of an insert: it repeats line %d next to it.", up))
		}
		if len(ins.payload) >= 2 && down >= 1 && down <= len(p.lines) && sameLine(ins.payload[len(ins.payload)-1], p.lines[down-1]) {
			ins.payload = ins.payload[:len(ins.payload)-1]
			p.warnings = append(p.warnings, fmt.Sprintf("dropped the last payload line of an insert: it repeats line %d next to it.", down))
		}
	}
	for i := range p.before {
		for k := range p.before[i] {
			if p.before[i][k].pure {
				fix(&p.before[i][k])
			}
		}
	}
	for k := range p.eof {
		fix(&p.eof[k])
	}
}

// sameLine compares two lines ignoring surrounding white space; lines
// without a letter or digit never count as the same.
func sameLine(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	return a == b && strings.IndexFunc(a, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
