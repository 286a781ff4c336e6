// Package xxh32 is the 32-bit xxHash (XXH32) of Yann Collet's
// specification: the hash omp's line anchors are built on (Bun's
// Bun.hash.xxHash32), so gopi's anchors can be the same letters.
//
// Sum hashes a string in one call without allocating, for the hot path that
// anchors every line of a file; Digest hashes input that arrives in pieces
// and is a plain value, so a copy is a snapshot of the state (the streaming
// line hasher keeps the state at the last non-blank byte that way).
package xxh32

import "math/bits"

// The five primes of the specification.
const (
	prime1 uint32 = 2654435761
	prime2 uint32 = 2246822519
	prime3 uint32 = 3266489917
	prime4 uint32 = 668265263
	prime5 uint32 = 374761393
)

// stripe is the size of the block the four lanes consume at a time.
const stripe = 16

// Sum returns XXH32 of the bytes of s with the given seed.
func Sum(s string, seed uint32) uint32 {
	h, _ := SumASCII(s, seed)
	return h
}

// SumASCII is Sum that also reports whether every byte of s is ASCII,
// found in the same pass: a caller that must treat other text specially
// (check it is valid UTF-8, say) skips a second pass over the common case.
func SumASCII(s string, seed uint32) (sum uint32, ascii bool) {
	n := len(s)
	var h, high uint32
	i := 0
	if n >= stripe {
		v1 := seed + prime1 + prime2
		v2 := seed + prime2
		v3 := seed
		v4 := seed - prime1
		for ; i <= n-stripe; i += stripe {
			w1, w2, w3, w4 := le32(s[i:]), le32(s[i+4:]), le32(s[i+8:]), le32(s[i+12:])
			high |= w1 | w2 | w3 | w4
			v1 = round(v1, w1)
			v2 = round(v2, w2)
			v3 = round(v3, w3)
			v4 = round(v4, w4)
		}
		h = merge(v1, v2, v3, v4)
	} else {
		h = seed + prime5
	}
	h += uint32(n)
	for ; i <= n-4; i += 4 {
		w := le32(s[i:])
		high |= w
		h = bits.RotateLeft32(h+w*prime3, 17) * prime4
	}
	for ; i < n; i++ {
		high |= uint32(s[i])
		h = bits.RotateLeft32(h+uint32(s[i])*prime5, 11) * prime1
	}
	return avalanche(h), high&0x80808080 == 0
}

// round mixes one 4-byte word into a lane.
func round(acc, in uint32) uint32 {
	return bits.RotateLeft32(acc+in*prime2, 13) * prime1
}

// merge folds the four lanes into one value.
func merge(v1, v2, v3, v4 uint32) uint32 {
	return bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
}

// finish mixes in the tail (fewer than 16 bytes) and avalanches.
func finish(h uint32, tail string) uint32 {
	for len(tail) >= 4 {
		h = bits.RotateLeft32(h+le32(tail)*prime3, 17) * prime4
		tail = tail[4:]
	}
	for i := 0; i < len(tail); i++ {
		h = bits.RotateLeft32(h+uint32(tail[i])*prime5, 11) * prime1
	}
	return avalanche(h)
}

// avalanche spreads every input bit over the whole value.
func avalanche(h uint32) uint32 {
	h ^= h >> 15
	h *= prime2
	h ^= h >> 13
	h *= prime3
	h ^= h >> 16
	return h
}

// le32 reads a little-endian word from the first four bytes of s.
func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
