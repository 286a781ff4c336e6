// Package linehash computes the hashline hash of a line that arrives in
// pieces, so that a line too long to show whole can be anchored without
// holding it: the read and search tools show its first characters and feed
// the rest here as they read past it.
//
// The result is the one hashline.LineHash gives for the whole line: every
// '\r' is dropped, invalid UTF-8 is decoded as JavaScript decodes it,
// trailing white space is trimmed, and a line without a letter or digit is
// hashed with its line number as the seed. State is a few hundred bytes
// whatever the length of the line.
package linehash

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/internal/xxh32"
)

// table is the hashline alphabet, by hash index.
var table = hashline.Bigrams()

// Hash is the running hash of one line. The zero value is not usable: start
// with New.
type Hash struct {
	line int
	// plain hashes the line as a line with a letter or digit is hashed,
	// seeded the line as one without is; seeded is dropped once the line
	// turns out to hold a letter or digit.
	plain, seeded xxh32.Digest
	// plainEnd and seededEnd are the states after the last byte that is
	// not trailing white space so far: the hash of the trimmed line.
	plainEnd, seededEnd xxh32.Digest
	alnum               bool
	carry               [utf8.UTFMax]byte // the start of a character split between two writes
	carried             int
	scratch, decoded    []byte
}

// New starts the hash of line number line (1-based).
func New(line int) *Hash {
	h := &Hash{line: line, plain: xxh32.NewDigest(hashline.Seed(line, true)), seeded: xxh32.NewDigest(hashline.Seed(line, false))}
	h.plainEnd, h.seededEnd = h.plain, h.seeded
	return h
}

// Write feeds the next bytes of the line. They may hold '\r' bytes and the
// line's '\n' terminator (both are ignored, as by hashline.LineHash), but
// not a byte-order mark, which the caller drops. It never fails.
func (h *Hash) Write(p []byte) (int, error) {
	n := len(p)
	data := p
	if h.carried > 0 || bytes.IndexByte(p, '\r') >= 0 {
		h.scratch = append(h.scratch[:0], h.carry[:h.carried]...)
		h.carried = 0
		h.scratch = appendWithoutCR(h.scratch, p)
		data = h.scratch
	}
	// Keep back a character cut at the end: whether it is white space is
	// known only once it is whole.
	if start := lastRuneStart(data); start >= 0 && !utf8.FullRune(data[start:]) {
		h.carried = copy(h.carry[:], data[start:])
		data = data[:start]
	}
	h.add(data)
	return n, nil
}

// add hashes text that starts and ends on character boundaries (or on
// ill-formed bytes, which it decodes to U+FFFD first).
func (h *Hash) add(d []byte) {
	if len(d) == 0 {
		return
	}
	if !utf8.Valid(d) {
		h.decoded = hashline.AppendDecoded(h.decoded[:0], view(d))
		d = h.decoded
	}
	if !h.alnum && hashline.HasAlnum(view(d)) {
		h.alnum = true
	}
	end := hashline.TrimmedLen(view(d))
	h.plain.Write(d[:end])
	if !h.alnum {
		h.seeded.Write(d[:end])
	}
	if end > 0 {
		h.plainEnd = h.plain
		if !h.alnum {
			h.seededEnd = h.seeded
		}
	}
	h.plain.Write(d[end:])
	if !h.alnum {
		h.seeded.Write(d[end:])
	}
}

// Sum returns the two-letter hash of the line fed so far, as
// hashline.LineHash(line, text) would for the same text. Call it once the
// whole line is written.
func (h *Hash) Sum() string {
	if h.carried > 0 {
		// An incomplete character at the very end: invalid UTF-8, hashed
		// as its decoded form.
		rest := append([]byte(nil), h.carry[:h.carried]...)
		h.carried = 0
		h.add(rest)
	}
	var v uint32
	if h.alnum {
		v = h.plainEnd.Sum32()
	} else {
		v = h.seededEnd.Sum32()
	}
	return table[v%hashline.BigramCount]
}

// appendWithoutCR appends p to dst without its '\r' bytes.
func appendWithoutCR(dst, p []byte) []byte {
	for {
		i := bytes.IndexByte(p, '\r')
		if i < 0 {
			return append(dst, p...)
		}
		dst = append(dst, p[:i]...)
		p = p[i+1:]
	}
}

// lastRuneStart returns where the last character of p starts when that is
// among its last UTFMax-1 bytes, else -1.
func lastRuneStart(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-(utf8.UTFMax-1); i-- {
		if utf8.RuneStart(p[i]) {
			return i
		}
	}
	return -1
}

// view is b as a string without a copy, for the hashline helpers: it is
// neither kept nor used after b changes.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
