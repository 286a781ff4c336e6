// Package bpe encodes pieces of text with a byte-pair vocabulary the way
// tiktoken does: start from single bytes and repeatedly merge the adjacent
// pair whose concatenation has the lowest rank (the leftmost on ties) until
// no adjacent pair is in the vocabulary. A token's rank is its id.
//
// The vocabulary lookup is an open-addressing hash table of 16-byte slots
// that carry the token's first eight bytes, so the common short tokens are
// found and confirmed without touching the token bytes, behind a one-bit
// filter that answers most misses from L2; two-byte pairs, the first step of
// every merge, come from a direct table. Building all of it for o200k_base
// takes a few milliseconds. Pieces up to smallPiece bytes merge in fixed
// arrays on the stack (quadratic but tiny); longer ones use a heap over a
// linked list, so a megabyte-long word costs n·log n, not n². A Cache in
// front of it all remembers the pieces a caller has seen.
package bpe

import (
	"math/bits"

	"github.com/gopi-agent/gopi/tokens/internal/vocab"
)

// slot is one entry of the hash table.
type slot struct {
	key  uint64 // the token's first (up to) eight bytes, little-endian, zero-padded
	rank uint32 // rank+1; 0 marks an empty slot
	n    uint32 // the token's length
}

// Vocab is a byte-pair vocabulary indexed for lookup. It is immutable and
// safe for concurrent use.
type Vocab struct {
	table    *vocab.Table
	slots    []slot
	byteRank [256]uint32
	pairRank []uint32 // by the two bytes b0 | b1<<8: the token's rank, or none
	filter   []uint64 // one bit per hash value: a clear bit proves absence
}

// filterBits is log2 of the filter's size in bits: 2^21 bits (256 KB) hold
// 200,000 tokens with a false-positive rate under 10%, and stay in L2 where
// the slots do not. Most lookups made while merging are misses.
const filterBits = 21

// New indexes a vocabulary. Every single byte must be a token.
func New(t *vocab.Table) (*Vocab, error) {
	n := len(t.Start)
	size := 1 << bits.Len(uint(n)) // load factor 0.38–0.76; the filter answers most misses
	v := &Vocab{table: t, slots: make([]slot, size)}
	v.filter = make([]uint64, 1<<filterBits/64)
	for r := range n {
		v.insert(t.Token(r), uint32(r))
	}
	for b := range 256 {
		r, ok := v.Lookup(string([]byte{byte(b)}))
		if !ok {
			return nil, errMissingByte(b)
		}
		v.byteRank[b] = uint32(r)
	}
	v.pairRank = make([]uint32, 1<<16)
	for i := range v.pairRank {
		v.pairRank[i] = none
	}
	for r := range n {
		if t.Len(r) == 2 {
			tok := t.Token(r)
			v.pairRank[le16(tok)] = uint32(r)
		}
	}
	return v, nil
}

type errMissingByte int

func (e errMissingByte) Error() string {
	return "bpe: the vocabulary lacks the single byte " + string("0123456789abcdef"[e>>4]) + string("0123456789abcdef"[e&15])
}

// Len returns the number of tokens.
func (v *Vocab) Len() int { return len(v.table.Start) }

// Token returns the bytes of a token.
func (v *Vocab) Token(rank int) string { return v.table.Token(rank) }

func (v *Vocab) insert(tok string, rank uint32) {
	key := load(tok)
	h := mix(key, tok)
	v.filter[h>>(64-filterBits)/64] |= 1 << (h >> (64 - filterBits) % 64)
	i := h & uint64(len(v.slots)-1)
	for v.slots[i].rank != 0 {
		i = (i + 1) & uint64(len(v.slots)-1)
	}
	v.slots[i] = slot{key: key, rank: rank + 1, n: uint32(len(tok))}
}

// mix hashes the first eight bytes, the last eight and the length. Its top
// bits index the filter, its low bits the slots.
func mix(key uint64, s string) uint64 {
	h := key ^ uint64(len(s))<<59
	if len(s) > 8 {
		h ^= bits.RotateLeft64(le64(s[len(s)-8:]), 31) * 0x9E3779B97F4A7C15
	}
	h *= 0xD6E8FEB86659FD93
	return h ^ h>>29
}

// Lookup returns the rank of s, if s is a token.
func (v *Vocab) Lookup(s string) (int, bool) {
	if len(s) == 0 {
		return 0, false
	}
	key := load(s)
	h := mix(key, s)
	if v.filter[h>>(64-filterBits)/64]&(1<<(h>>(64-filterBits)%64)) == 0 {
		return 0, false
	}
	mask := uint64(len(v.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &v.slots[i]
		if sl.rank == 0 {
			return 0, false
		}
		if sl.key == key && int(sl.n) == len(s) {
			r := int(sl.rank - 1)
			if len(s) <= 8 || v.table.Token(r)[8:] == s[8:] {
				return r, true
			}
		}
	}
}

// load packs the first min(8, len(s)) bytes of s, little-endian, with
// overlapping loads instead of a byte loop.
func load(s string) uint64 {
	switch n := len(s); {
	case n >= 8:
		return le64(s)
	case n >= 4:
		return uint64(le32(s)) | uint64(le32(s[n-4:]))<<(8*(n-4))
	case n >= 2:
		return uint64(le16(s)) | uint64(le16(s[n-2:]))<<(8*(n-2))
	case n == 1:
		return uint64(s[0])
	}
	return 0
}

// le64, le32 and le16 read little-endian integers from the start of s; the
// compiler turns each into a single load.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func le16(s string) uint16 {
	_ = s[1]
	return uint16(s[0]) | uint16(s[1])<<8
}
