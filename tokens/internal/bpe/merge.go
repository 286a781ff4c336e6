package bpe

import (
	"container/heap"
	"math"
)

// smallPiece is the longest piece merged in fixed arrays.
const smallPiece = 128

// none marks a pair whose concatenation is not a token.
const none = math.MaxUint32

// Append appends the tokens of piece to dst. A piece that is itself a token
// is one lookup.
func (v *Vocab) Append(dst []int, piece string) []int {
	if r, ok := v.Lookup(piece); ok {
		return append(dst, r)
	}
	if len(piece) <= smallPiece {
		var st small
		n := st.merge(v, piece)
		for _, r := range st.tok[:n] {
			dst = append(dst, int(r))
		}
		return dst
	}
	v.mergeLarge(piece, func(r uint32) { dst = append(dst, int(r)) })
	return dst
}

// Count returns the number of tokens of piece.
func (v *Vocab) Count(piece string) int {
	if _, ok := v.Lookup(piece); ok {
		return 1
	}
	return v.CountMerged(piece)
}

// CountMerged returns the number of tokens of a piece known not to be a
// single token.
func (v *Vocab) CountMerged(piece string) int {
	if len(piece) <= smallPiece {
		var st small
		return st.merge(v, piece)
	}
	n := 0
	v.mergeLarge(piece, func(uint32) { n++ })
	return n
}

// small is the merge state of a short piece: part i spans
// piece[start[i]:start[i+1]], is token tok[i], and merging it with part i+1
// would give the token pair[i] (none if that is not a token).
type small struct {
	start [smallPiece + 1]uint8
	tok   [smallPiece]uint32
	pair  [smallPiece]uint32
}

// merge runs the merges and returns the number of parts left; their tokens
// are st.tok[:n]. This is tiktoken's loop: find the lowest pair (leftmost on
// ties), merge it, re-rank its two neighbours.
func (st *small) merge(v *Vocab, piece string) int {
	n := len(piece)
	for i := 0; i < n; i++ {
		st.start[i] = uint8(i)
		st.tok[i] = v.byteRank[piece[i]]
	}
	// start[n] = n would overflow uint8 at n = 256; smallPiece keeps n ≤ 128.
	st.start[n] = uint8(n)
	for i := 0; i+1 < n; i++ {
		st.pair[i] = v.pairRank[le16(piece[i:])]
	}
	if n > 0 {
		st.pair[n-1] = none
	}
	for n > 1 {
		best, at := uint32(none), -1
		for i, p := range st.pair[:n-1] {
			if p < best {
				best, at = p, i
			}
		}
		if at < 0 {
			break
		}
		// Part at+1 joins part at.
		st.tok[at] = best
		copy(st.start[at+1:n], st.start[at+2:n+1])
		copy(st.tok[at+1:n-1], st.tok[at+2:n])
		copy(st.pair[at+1:n-1], st.pair[at+2:n])
		n--
		st.pair[at] = none
		if at+1 < n {
			st.pair[at] = v.rank(piece[st.start[at]:st.start[at+2]])
		}
		if at > 0 {
			st.pair[at-1] = v.rank(piece[st.start[at-1]:st.start[at+1]])
		}
	}
	return n
}

// rank is Lookup for merge candidates, returning none when s is no token.
func (v *Vocab) rank(s string) uint32 {
	if r, ok := v.Lookup(s); ok {
		return uint32(r)
	}
	return none
}

// mergeLarge merges a long piece with a heap of candidate pairs over a
// doubly linked list of parts and calls emit with each final token in
// order. Heap entries go stale when a neighbour merges; an entry is current
// when its part is alive and still pairs with the same rank and partner.
//
// A piece longer than MaxMergeWindow (only degenerate text has one, such as
// megabytes of one repeated character) is merged in overlapping windows of
// that many bytes, keeping from each the tokens that end at least
// mergeMargin bytes before its end, so time stays linear and memory
// bounded. Merges are local in practice (the test checks runs of repeated
// characters against the whole-piece merge), but BPE does not promise it:
// for a giant piece the count could in principle differ from tiktoken's.
func (v *Vocab) mergeLarge(piece string, emit func(uint32)) {
	used := v.leadingWindows(piece, emit)
	v.mergeWindow(piece[used:], emit)
}

// leadingWindows emits the tokens of piece's windows but the last (see
// mergeLarge) and returns how many bytes they cover: the rest of the
// piece, however long, cannot change them.
func (v *Vocab) leadingWindows(piece string, emit func(uint32)) int {
	var toks, kept []uint32
	used, cut := 0, 0
	prev := "" // the last window merged; a run of one character repeats it
	for len(piece)-used > MaxMergeWindow {
		window := piece[used : used+MaxMergeWindow]
		if window != prev {
			toks = toks[:0]
			v.mergeWindow(window, func(r uint32) { toks = append(toks, r) })
			// Keep the tokens that end well before the window's end,
			// where the text after the window cannot change the merges;
			// the next window starts where they stop.
			kept, cut = kept[:0], 0
			for _, r := range toks {
				n := len(v.Token(int(r)))
				if cut+n > MaxMergeWindow-mergeMargin {
					break
				}
				kept = append(kept, r)
				cut += n
			}
			prev = window
		}
		for _, r := range kept {
			emit(r)
		}
		used += cut
	}
	return used
}

// CountLeading counts the tokens of the leading windows of a piece longer
// than MaxMergeWindow, which no text after it can change, and returns how
// many bytes they cover; the rest continues the piece (with more text, for
// a reader counting a piece that has not ended yet).
func (v *Vocab) CountLeading(piece string) (count, used int) {
	used = v.leadingWindows(piece, func(uint32) { count++ })
	return count, used
}

// MaxMergeWindow is the longest stretch of a piece merged at once (see
// mergeLarge).
const MaxMergeWindow = 1 << 16

// mergeMargin is how far from a window's end tokens are left to the next
// window.
const mergeMargin = 4096

// mergeWindow runs the merges of one piece (or window) with a heap.
func (v *Vocab) mergeWindow(piece string, emit func(uint32)) {
	n := len(piece)
	p := &largeState{
		start: make([]int32, n+1),
		next:  make([]int32, n),
		prev:  make([]int32, n),
		tok:   make([]uint32, n),
		pair:  make([]uint32, n),
		alive: make([]bool, n),
	}
	for i := 0; i < n; i++ {
		p.start[i] = int32(i)
		p.next[i] = int32(i + 1)
		p.prev[i] = int32(i - 1)
		p.tok[i] = v.byteRank[piece[i]]
		p.alive[i] = true
		p.pair[i] = none
	}
	p.start[n] = int32(n)
	// end returns the end offset of part i (the start of its successor).
	end := func(i int32) int32 { return p.start[p.next[i]] }
	for i := 0; i+1 < n; i++ {
		if r := v.pairRank[le16(piece[i:])]; r != none {
			p.pair[i] = r
			p.h = append(p.h, candidate{rank: r, at: int32(i)})
		}
	}
	heap.Init(&p.h)
	for p.h.Len() > 0 {
		c := heap.Pop(&p.h).(candidate)
		i := c.at
		if !p.alive[i] || p.pair[i] != c.rank {
			continue // stale
		}
		j := p.next[i]
		// Merge j into i.
		p.tok[i] = c.rank
		p.alive[j] = false
		p.next[i] = p.next[j]
		if int(p.next[j]) < n {
			p.prev[p.next[j]] = i
		}
		p.pair[i] = none
		if int(p.next[i]) < n {
			if r := v.rank(piece[p.start[i]:end(p.next[i])]); r != none {
				p.pair[i] = r
				heap.Push(&p.h, candidate{rank: r, at: i})
			}
		}
		if k := p.prev[i]; k >= 0 {
			p.pair[k] = none
			if r := v.rank(piece[p.start[k]:end(i)]); r != none {
				p.pair[k] = r
				heap.Push(&p.h, candidate{rank: r, at: k})
			}
		}
	}
	for i := int32(0); int(i) < n; i = p.next[i] {
		emit(p.tok[i])
	}
}

// largeState is the merge state of mergeLarge, indexed by the offset where a
// part started as a single byte.
type largeState struct {
	start []int32 // start[i] = i; start[n] = n, so start[next[i]] is part i's end
	next  []int32
	prev  []int32
	tok   []uint32
	pair  []uint32 // rank of part i merged with its successor, or none
	alive []bool
	h     candidates
}

// candidate is a mergeable pair: part at with its successor.
type candidate struct {
	rank uint32
	at   int32
}

// candidates is a min-heap by rank, then position (leftmost first).
type candidates []candidate

func (h candidates) Len() int { return len(h) }
func (h candidates) Less(i, j int) bool {
	return h[i].rank < h[j].rank || h[i].rank == h[j].rank && h[i].at < h[j].at
}
func (h candidates) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *candidates) Push(x any)   { *h = append(*h, x.(candidate)) }
func (h *candidates) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
