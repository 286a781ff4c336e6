// Package diff compares line sequences and renders and applies unified
// diff hunks.
//
// Lines uses Myers' O((N+M)·D) greedy algorithm after stripping the common
// prefix and suffix, which keeps the usual case — a small edit in a large
// file — linear. When what remains is large (scattered edits across a big
// file), it is first cut at lines that occur once on each side (the
// patience idea), so each Myers run only sees the text between two such
// lines; the script is then near-minimal rather than minimal. Backtracking
// keeps one frontier per edit step, so memory grows with D²; past
// MaxEditDistance differing lines the middle section is reported as one
// block of deletions followed by insertions, which is still a correct (if
// not minimal) script.
//
// Hunks groups a script into unified-diff hunks with context lines,
// Unified renders them with file headers, and ApplyFuzzy applies hunks to
// a text that may have drifted from the one they were made against,
// tolerating a bounded number of differing context lines (the fuzz
// factor).
package diff

// Kind is what an Edit does.
type Kind byte

// Edit kinds, spelled as their unified-diff line prefixes.
const (
	Equal  Kind = ' '
	Delete Kind = '-'
	Insert Kind = '+'
)

// Edit is one line of an edit script. OldLine and NewLine are 0-based
// positions in the old and new sequences; for an Insert OldLine is the
// old position the line goes before, for a Delete NewLine is the new
// position the line would have had.
type Edit struct {
	Kind    Kind
	Text    string
	OldLine int
	NewLine int
}

// MaxEditDistance bounds the work of Lines; see the package comment.
const MaxEditDistance = 2000

// Lines returns an edit script turning a into b: Equal, Delete and Insert
// lines in order, deletions of a changed block before its insertions.
func Lines(a, b []string) []Edit {
	return appendRange(make([]Edit, 0, max(len(a), len(b))+8), a, b, 0, 0)
}

// splitThreshold is the size (lines on both sides) above which a range is
// first split at lines that occur exactly once on each side.
const splitThreshold = 2048

// appendRange diffs a and b (which start at oldOff, newOff): the common
// prefix and suffix are Equal, the middle goes to appendMiddle.
func appendRange(edits []Edit, a, b []string, oldOff, newOff int) []Edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for i := range pre {
		edits = append(edits, Edit{Equal, a[i], oldOff + i, newOff + i})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)+len(mb) > splitThreshold {
		edits = appendSplit(edits, ma, mb, oldOff+pre, newOff+pre)
	} else {
		edits = appendMiddle(edits, ma, mb, oldOff+pre, newOff+pre)
	}
	for k := range suf {
		i, j := len(a)-suf+k, len(b)-suf+k
		edits = append(edits, Edit{Equal, a[i], oldOff + i, newOff + j})
	}
	return edits
}

// appendSplit diffs a large range by pairing the lines that occur exactly
// once in a and once in b, keeping the longest run of such pairs in
// increasing order on both sides (patience sorting), and diffing the
// pieces between them. This keeps scattered small edits in a big file
// near-linear; without unique lines it falls back to appendMiddle.
func appendSplit(edits []Edit, a, b []string, oldOff, newOff int) []Edit {
	type occ struct{ na, nb, ia, ib int32 }
	idx := make(map[string]int32, len(a))
	var occs []occ
	get := func(l string) *occ {
		k, ok := idx[l]
		if !ok {
			k = int32(len(occs))
			idx[l] = k
			occs = append(occs, occ{})
		}
		return &occs[k]
	}
	for i, l := range a {
		o := get(l)
		o.na++
		o.ia = int32(i)
	}
	for j, l := range b {
		o := get(l)
		o.nb++
		o.ib = int32(j)
	}
	var pairs [][2]int32
	for i, l := range a {
		if o := occs[idx[l]]; o.na == 1 && o.nb == 1 {
			pairs = append(pairs, [2]int32{int32(i), o.ib})
		}
	}
	anchors := longestIncreasing(pairs)
	if len(anchors) == 0 {
		return appendMiddle(edits, a, b, oldOff, newOff)
	}
	pi, pj := 0, 0
	for _, p := range anchors {
		i, j := int(p[0]), int(p[1])
		edits = appendRange(edits, a[pi:i], b[pj:j], oldOff+pi, newOff+pj)
		edits = append(edits, Edit{Equal, a[i], oldOff + i, newOff + j})
		pi, pj = i+1, j+1
	}
	return appendRange(edits, a[pi:], b[pj:], oldOff+pi, newOff+pj)
}

// longestIncreasing returns a longest subsequence of pairs (already
// increasing in their first element) whose second elements increase.
func longestIncreasing(pairs [][2]int32) [][2]int32 {
	var tails []int // tails[k]: index in pairs of the smallest tail of a run of length k+1
	prev := make([]int, len(pairs))
	for n, p := range pairs {
		lo, hi := 0, len(tails)
		for lo < hi {
			mid := (lo + hi) / 2
			if pairs[tails[mid]][1] < p[1] {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		prev[n] = -1
		if lo > 0 {
			prev[n] = tails[lo-1]
		}
		if lo == len(tails) {
			tails = append(tails, n)
		} else {
			tails[lo] = n
		}
	}
	if len(tails) == 0 {
		return nil
	}
	out := make([][2]int32, len(tails))
	for k, n := len(tails)-1, tails[len(tails)-1]; k >= 0; k, n = k-1, prev[n] {
		out[k] = pairs[n]
	}
	return out
}

// appendMiddle diffs a and b (which start at oldOff, newOff) with Myers'
// algorithm and appends the script.
func appendMiddle(edits []Edit, a, b []string, oldOff, newOff int) []Edit {
	n0 := len(edits)
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return appendBlock(edits, a, b, oldOff, newOff)
	}
	ids := map[string]int{}
	intern := func(ls []string) []int {
		out := make([]int, len(ls))
		for i, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	x, y := intern(a), intern(b)
	maxD := min(n+m, MaxEditDistance)
	off := maxD + 2
	v := make([]int, 2*maxD+5)
	// trace[d] is the frontier before step d over diagonals -(d+1)..d+1,
	// indexed by k+d+1.
	var trace [][]int
	found := false
	for d := 0; d <= maxD && !found; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || (k != d && v[k-1+off] < v[k+1+off]) {
				i = v[k+1+off] // from the diagonal above: an insertion
			} else {
				i = v[k-1+off] + 1 // from the diagonal below: a deletion
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i, j = i+1, j+1
			}
			v[k+off] = i
			if i >= n && j >= m {
				found = true
				break
			}
		}
	}
	if !found {
		return appendBlock(edits, a, b, oldOff, newOff)
	}
	var rev []Edit
	i, j := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		fr := trace[d]
		at := func(k int) int { return fr[k+d+1] }
		k := i - j
		pk := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		}
		pi := at(pk)
		pj := pi - pk
		for i > pi && j > pj {
			i, j = i-1, j-1
			rev = append(rev, Edit{Equal, a[i], oldOff + i, newOff + j})
		}
		if d == 0 {
			break
		}
		if i == pi {
			j--
			rev = append(rev, Edit{Insert, b[j], oldOff + i, newOff + j})
		} else {
			i--
			rev = append(rev, Edit{Delete, a[i], oldOff + i, newOff + j})
		}
	}
	for k := len(rev) - 1; k >= 0; k-- {
		edits = append(edits, rev[k])
	}
	reorderBlocks(edits[n0:]) // only what this call appended
	return edits
}

// appendBlock appends "delete all of a, insert all of b".
func appendBlock(edits []Edit, a, b []string, oldOff, newOff int) []Edit {
	for i, l := range a {
		edits = append(edits, Edit{Delete, l, oldOff + i, newOff})
	}
	for j, l := range b {
		edits = append(edits, Edit{Insert, l, oldOff + len(a), newOff + j})
	}
	return edits
}

// reorderBlocks puts, within every run of non-Equal edits, the deletions
// before the insertions, fixing up the positions they carry.
func reorderBlocks(edits []Edit) []Edit {
	for s := 0; s < len(edits); {
		if edits[s].Kind == Equal {
			s++
			continue
		}
		e := s
		for e < len(edits) && edits[e].Kind != Equal {
			e++
		}
		oldStart, newStart := edits[s].OldLine, edits[s].NewLine
		var dels, ins []Edit
		for _, ed := range edits[s:e] {
			if ed.Kind == Delete {
				dels = append(dels, ed)
			} else {
				ins = append(ins, ed)
			}
		}
		k := s
		for i, ed := range dels {
			edits[k] = Edit{Delete, ed.Text, oldStart + i, newStart}
			k++
		}
		for j, ed := range ins {
			edits[k] = Edit{Insert, ed.Text, oldStart + len(dels), newStart + j}
			k++
		}
		s = e
	}
	return edits
}

// Region pairs a stretch of the old sequence with the stretch of the new
// one that replaced it (half-open, 0-based). Outside its regions, the new
// sequence must equal the old one line for line.
type Region struct {
	OldStart, OldEnd int
	NewStart, NewEnd int
}

// LinesInRegions is Lines for a change whose extent is known: only the
// regions are diffed, everything between them is Equal. Regions must be
// in order and not overlap. It makes the script of a few edits in a big
// file cost time proportional to the edits, not the file.
func LinesInRegions(a, b []string, regions []Region) []Edit {
	edits := make([]Edit, 0, max(len(a), len(b))+8)
	i, j := 0, 0
	for _, r := range regions {
		// Clamp, so that a region reaching past the end (a final empty line
		// taken as the line terminator) cannot index out of range; the tail
		// is diffed in full below anyway.
		r.OldStart, r.OldEnd = min(max(r.OldStart, i), len(a)), min(max(r.OldEnd, r.OldStart, i), len(a))
		r.NewStart, r.NewEnd = min(max(r.NewStart, j), len(b)), min(max(r.NewEnd, r.NewStart, j), len(b))
		for ; i < r.OldStart && j < r.NewStart; i, j = i+1, j+1 {
			edits = append(edits, Edit{Equal, a[i], i, j})
		}
		edits = appendRange(edits, a[i:r.OldEnd], b[j:r.NewEnd], i, j)
		i, j = r.OldEnd, r.NewEnd
	}
	for ; i < len(a) && j < len(b); i, j = i+1, j+1 {
		edits = append(edits, Edit{Equal, a[i], i, j})
	}
	return appendRange(edits, a[i:], b[j:], i, j)
}
