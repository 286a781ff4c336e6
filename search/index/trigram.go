package index

import (
	"encoding/binary"
	"errors"
)

// trigramSet collects the distinct trigrams of one text: a bitmap of all
// 2^24 trigrams (2 MiB, one per build worker) and the list of those set,
// which also clears it for the next file.
type trigramSet struct {
	bits []uint64
	list []Trigram
}

func newTrigramSet() *trigramSet { return &trigramSet{bits: make([]uint64, 1<<24/64)} }

// add records every trigram of text and returns them in the order they
// first occur (a posting list takes them in any order: sorting them was
// a sixth of a build); the slice is valid until the next call.
func (s *trigramSet) add(text []byte) []Trigram {
	for _, t := range s.list {
		s.bits[t>>6] &^= 1 << (t & 63)
	}
	s.list = s.list[:0]
	if len(text) < 3 {
		return s.list
	}
	t := Trigram(text[0])<<8 | Trigram(text[1])
	for _, b := range text[2:] {
		t = (t<<8 | Trigram(b)) & 0xffffff
		if w, m := t>>6, uint64(1)<<(t&63); s.bits[w]&m == 0 {
			s.bits[w] |= m
			s.list = append(s.list, t)
		}
	}
	return s.list
}

// addPairs is add for a build's runs: it appends t<<32 | local to pairs
// for each distinct trigram t of text, in the order they first occur,
// counts each in h, and leaves the set empty.
func (s *trigramSet) addPairs(text []byte, pairs []uint64, local uint64, h *pairHist) []uint64 {
	s.add(nil) // bits left by add
	if len(text) < 3 {
		return pairs
	}
	n := len(pairs)
	bits := s.bits[:1<<24/64]
	t := Trigram(text[0])<<8 | Trigram(text[1])
	rest := text[2:]
	i := 0
	// Two bytes a turn (a few percent less CPU than one).
	for ; i+2 <= len(rest); i += 2 {
		b := rest[i : i+2 : i+2]
		t = (t<<8 | Trigram(b[0])) & 0xffffff
		if w, m := t>>6, uint64(1)<<(t&63); bits[w]&m == 0 {
			bits[w] |= m
			pairs = append(pairs, uint64(t)<<32|local)
		}
		t = (t<<8 | Trigram(b[1])) & 0xffffff
		if w, m := t>>6, uint64(1)<<(t&63); bits[w]&m == 0 {
			bits[w] |= m
			pairs = append(pairs, uint64(t)<<32|local)
		}
	}
	if i < len(rest) {
		t = (t<<8 | Trigram(rest[i])) & 0xffffff
		if w, m := t>>6, uint64(1)<<(t&63); bits[w]&m == 0 {
			bits[w] |= m
			pairs = append(pairs, uint64(t)<<32|local)
		}
	}
	// Counted here, not above: the loop above runs per byte, and kept
	// small it took a tenth less CPU.
	for _, p := range pairs[n:] {
		t := Trigram(p >> 32)
		bits[t>>6] &^= 1 << (t & 63)
		h.count(t)
	}
	return pairs
}

// trigramsOfText is a membership test over the trigrams of text (tests
// and the planner's fuzz target use it as the oracle).
func trigramsOfText(text []byte) func(Trigram) bool {
	set := map[Trigram]bool{}
	for i := 0; i+3 <= len(text); i++ {
		set[trigramOf(string(text[i:i+3]))] = true
	}
	return func(t Trigram) bool { return set[t] }
}

// A posting list is the ascending file ids holding one trigram, stored
// as unsigned varints of the gaps (the first id as is).

func appendPosting(dst []byte, prev, id int64) []byte {
	return binary.AppendUvarint(dst, uint64(id-prev))
}

var errBadPosting = errors.New("index: malformed posting list")

// decodePostings appends the ids of a posting list to dst.
func decodePostings(dst []int64, b []byte) ([]int64, error) {
	var id int64
	for len(b) > 0 {
		gap, n := binary.Uvarint(b)
		if n <= 0 {
			return dst, errBadPosting
		}
		id += int64(gap)
		dst = append(dst, id)
		b = b[n:]
	}
	return dst, nil
}
