package hashedit

import (
	"strconv"

	"github.com/gopi-agent/gopi/core/tools/edit/diff"
)

// RecoveryFuzz is the fuzz factor of a recovery merge: how many context
// lines of a change may differ between the snapshot and the current file.
const RecoveryFuzz = 3

// recoveryContext is how many known lines around a change are used to
// place it in the current file.
const recoveryContext = 3

// RecoveredWarning is added to a result produced by Recover.
const RecoveredWarning = "Some anchors were stale: the edit was replayed on the lines you last saw and merged onto the current file. Check the result."

// Snapshot is what the model last saw of a file: some of its lines by
// 1-based number, and its line count when it was seen to the end (0 if
// unknown).
type Snapshot struct {
	Lines      map[int]string
	TotalLines int
}

// Recover retries ops that failed with a MismatchError. They are applied
// to snapshot — the file as the model saw it, where the anchors should
// hold — and the change this makes is merged onto current: each changed
// block, with up to three known lines of context on each side, is placed
// where its removed lines match current exactly and at most RecoveryFuzz
// of its context lines differ. It returns false when the snapshot does not
// cover the edit (an anchor or a deleted line was never seen, or EOF is
// used without a known line count), when the ops do not hold on the
// snapshot either, or when a change cannot be placed; the caller then
// reports the original mismatch.
func Recover(current []string, snap Snapshot, ops []Op, opts Options) (*Result, bool) {
	n := snap.TotalLines
	for l := range snap.Lines {
		n = max(n, l)
	}
	if n == 0 || snap.TotalLines > 0 && n > snap.TotalLines {
		return nil, false
	}
	known := func(l int) bool { _, ok := snap.Lines[l]; return ok }
	for _, op := range ops {
		switch op.Kind {
		case InsertAfter, InsertBefore:
			if op.At.Special == EOF && snap.TotalLines == 0 {
				return nil, false
			}
			if op.At.Special == NoSpecial && !known(op.At.Ref.Line) {
				return nil, false
			}
		default:
			for l := op.From.Line; l <= op.To.Line; l++ {
				if !known(l) {
					return nil, false
				}
			}
		}
	}
	// Unknown lines get placeholder texts that no real line or payload
	// can equal (a NUL byte never occurs in text the model sends), so they
	// never act as context.
	old := make([]string, n)
	for i := range old {
		if t, ok := snap.Lines[i+1]; ok {
			old[i] = t
		} else {
			old[i] = "\x00unseen\x00" + strconv.Itoa(i+1)
		}
	}
	replayed, err := Apply(old, ops, opts)
	if err != nil {
		return nil, false
	}
	hunks := changeHunks(diff.LinesInRegions(old, replayed.Lines, replayed.Regions), func(i int) bool { return known(i + 1) })
	if len(hunks) == 0 {
		return nil, false
	}
	merged, ok := diff.ApplyFuzzy(current, hunks, RecoveryFuzz)
	if !ok {
		return nil, false
	}
	return &Result{Lines: merged, Warnings: append(replayed.Warnings, RecoveredWarning)}, true
}

// changeHunks groups an edit script into hunks made of each block of
// changes plus up to recoveryContext known, unchanged lines on each side.
// Context never crosses an unknown line, and two blocks whose contexts
// would overlap share one hunk.
func changeHunks(edits []diff.Edit, known func(oldIndex int) bool) []diff.Hunk {
	type block struct{ s, e int } // edits[s:e] with context
	var blocks []block
	for i := 0; i < len(edits); {
		if edits[i].Kind == diff.Equal {
			i++
			continue
		}
		e := i
		for e < len(edits) && edits[e].Kind != diff.Equal {
			e++
		}
		s := i
		floor := 0
		if len(blocks) > 0 {
			floor = blocks[len(blocks)-1].e
		}
		for s > floor && i-s < recoveryContext && known(edits[s-1].OldLine) {
			s--
		}
		if len(blocks) > 0 && s == floor && allKnown(edits[floor:i], known) {
			blocks[len(blocks)-1].e = e // contexts meet: one hunk
		} else {
			blocks = append(blocks, block{s, e})
		}
		// Context after the block.
		b := &blocks[len(blocks)-1]
		for b.e < len(edits) && edits[b.e].Kind == diff.Equal && b.e-e < recoveryContext && known(edits[b.e].OldLine) {
			b.e++
		}
		i = e
	}
	hunks := make([]diff.Hunk, 0, len(blocks))
	for _, b := range blocks {
		h := diff.Hunk{Lines: edits[b.s:b.e], OldStart: edits[b.s].OldLine, NewStart: edits[b.s].NewLine}
		for _, e := range h.Lines {
			if e.Kind != diff.Insert {
				h.OldLines++
			}
			if e.Kind != diff.Delete {
				h.NewLines++
			}
		}
		hunks = append(hunks, h)
	}
	return hunks
}

func allKnown(edits []diff.Edit, known func(int) bool) bool {
	for _, e := range edits {
		if e.Kind == diff.Equal && !known(e.OldLine) {
			return false
		}
	}
	return true
}
