package bpe

// Cache remembers the tokens of pieces, so text that repeats a word pays
// for its lookup or merge once. It has two direct-mapped tables (a
// collision just evicts):
//
//   - short pieces (up to eight bytes, nine in ten pieces) with their token
//     count and first token, compared as one integer: a hit skips the
//     vocabulary's hash table, whose megabytes do not stay in the CPU caches
//     the way the few thousand distinct pieces of a text do;
//   - longer pieces and pieces that needed merging, with their tokens.
//
// The cache copies what it keeps (into an arena that starts over when full),
// so it holds no reference to the caller's text and stays warm from one call
// to the next. It belongs to one encoding, and to one goroutine at a time.
type Cache struct {
	short   [shortSize]shortEntry
	entries [cacheSize]cacheEntry
	arena   []byte   // the bytes of the pieces in entries
	ids     []uint32 // their tokens
}

// NewCache returns an empty cache. Use it with one Vocab only.
func NewCache() *Cache { return new(Cache) }

// Table sizes (powers of two) and the limits at which the arena starts over:
// room for the distinct pieces of a large source file, a bounded footprint
// (about 1.3 MB of tables, up to 2 MB of arena and tokens).
const (
	shortBits = 14
	shortSize = 1 << shortBits
	cacheBits = 16
	cacheSize = 1 << cacheBits

	maxArena     = 1 << 20
	maxCachedIDs = 1 << 18
)

// shortEntry caches a piece of at most eight bytes.
type shortEntry struct {
	key   uint64 // the piece's bytes, little-endian
	n     uint16 // the piece's length; 0 marks an empty entry
	count uint16 // its number of tokens
	first uint32 // its first token (its only one when count is 1)
}

// cacheEntry caches a longer or merged piece: arena[at:at+size] with tokens
// ids[off:off+n]; n == 0 marks an empty entry.
type cacheEntry struct {
	at, size uint32
	off, n   uint32
}

// Reset empties the cache.
func (c *Cache) Reset() {
	clear(c.short[:])
	c.resetLong()
}

// resetLong empties the table of long pieces and its arena.
func (c *Cache) resetLong() {
	clear(c.entries[:])
	c.arena = c.arena[:0]
	c.ids = c.ids[:0]
}

// slot returns the entry a long or merged piece maps to.
func (c *Cache) slot(piece string) *cacheEntry {
	h := load(piece) ^ uint64(len(piece))<<58
	if len(piece) > 8 {
		h ^= le64(piece[len(piece)-8:]) * 0x9E3779B97F4A7C15
	}
	return &c.entries[(h*0xD6E8FEB86659FD93)>>(64-cacheBits)]
}

// has reports whether e holds piece.
func (c *Cache) has(e *cacheEntry, piece string) bool {
	return e.n != 0 && int(e.size) == len(piece) && string(c.arena[e.at:e.at+e.size]) == piece
}

// store fills e with piece and the tokens appended to c.ids from off on.
// The caller reserved room with reserve first.
func (c *Cache) store(e *cacheEntry, piece string, off int) {
	at := len(c.arena)
	c.arena = append(c.arena, piece...)
	*e = cacheEntry{at: uint32(at), size: uint32(len(piece)), off: uint32(off), n: uint32(len(c.ids) - off)}
}

// reserve starts the long table over when its arena or tokens have grown
// past their limits (evicted entries leave their bytes behind), and returns
// where the next tokens go.
func (c *Cache) reserve() int {
	if len(c.arena) >= maxArena || len(c.ids) >= maxCachedIDs {
		c.resetLong()
	}
	return len(c.ids)
}

// shortSlot returns the short entry of a piece of 1..8 bytes and its key.
func (c *Cache) shortSlot(piece string) (*shortEntry, uint64) {
	key := load(piece)
	return &c.short[shortIndex(key, len(piece))], key
}

func shortIndex(key uint64, n int) uint64 {
	return ((key ^ uint64(n)<<61) * 0x9E3779B97F4A7C15) >> (64 - shortBits)
}

// lowBytes[n] keeps the low n bytes of a word.
var lowBytes = [9]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, ^uint64(0)}

// CountPieces returns the number of tokens of the pieces text[start:ends[0]],
// text[ends[0]:ends[1]], … Knowing the whole text, it reads a short piece's
// key as one 8-byte load masked to its length whenever eight bytes remain,
// and checks the short table inline; the rest goes through CountCached.
func (v *Vocab) CountPieces(text string, start int, ends []int, c *Cache) int {
	total, i := 0, start
	short := &c.short
	for _, j := range ends {
		n := j - i
		if n == 1 { // every byte is a token
			total++
			i = j
			continue
		}
		if uint(n-1) < 8 && i+8 <= len(text) {
			key := le64At(text, i) & (^uint64(0) >> ((64 - 8*uint(n)) & 63))
			e := &short[shortIndex(key, n)]
			if e.key == key && int(e.n) == n {
				total += int(e.count)
				i = j
				continue
			}
		}
		total += v.CountCached(text[i:j], c)
		i = j
	}
	return total
}

// CountCached is Count with a cache.
func (v *Vocab) CountCached(piece string, c *Cache) int {
	if len(piece) <= 8 {
		e, key := c.shortSlot(piece)
		if e.key == key && int(e.n) == len(piece) {
			return int(e.count)
		}
		r, ok := v.Lookup(piece)
		if !ok {
			ids := v.mergedCached(piece, c)
			r = int(ids[0])
			*e = shortEntry{key: key, n: uint16(len(piece)), count: uint16(len(ids)), first: uint32(r)}
			return len(ids)
		}
		*e = shortEntry{key: key, n: uint16(len(piece)), count: 1, first: uint32(r)}
		return 1
	}
	if len(piece) > MaxMergeWindow {
		// Too big to cache (and never repeated): count it directly.
		return v.Count(piece)
	}
	return len(v.longCached(piece, c))
}

// longCached returns the tokens of a piece longer than eight bytes, which
// may be a single token: those are cached too, saving the slot and token
// bytes a lookup touches.
func (v *Vocab) longCached(piece string, c *Cache) []uint32 {
	e := c.slot(piece)
	if c.has(e, piece) {
		return c.ids[e.off : e.off+e.n]
	}
	if r, ok := v.Lookup(piece); ok {
		off := c.reserve()
		c.ids = append(c.ids, uint32(r))
		c.store(e, piece, off)
		return c.ids[off : off+1]
	}
	return v.mergedCached(piece, c)
}

// mergedCached returns the tokens of a piece that is not a single token.
func (v *Vocab) mergedCached(piece string, c *Cache) []uint32 {
	e := c.slot(piece)
	if !c.has(e, piece) {
		off := c.reserve()
		c.ids = v.appendMerged(c.ids, piece)
		c.store(e, piece, off)
	}
	return c.ids[e.off : e.off+e.n]
}

// AppendCached is Append with a cache.
func (v *Vocab) AppendCached(dst []int, piece string, c *Cache) []int {
	if len(piece) <= 8 {
		e, key := c.shortSlot(piece)
		if e.key == key && int(e.n) == len(piece) && e.count == 1 {
			return append(dst, int(e.first))
		}
		if r, ok := v.Lookup(piece); ok {
			*e = shortEntry{key: key, n: uint16(len(piece)), count: 1, first: uint32(r)}
			return append(dst, r)
		}
		for _, r := range v.mergedCached(piece, c) {
			dst = append(dst, int(r))
		}
		return dst
	}
	if len(piece) > MaxMergeWindow {
		return v.Append(dst, piece) // too big to cache
	}
	for _, r := range v.longCached(piece, c) {
		dst = append(dst, int(r))
	}
	return dst
}

// appendMerged appends the merged tokens of piece to dst.
func (v *Vocab) appendMerged(dst []uint32, piece string) []uint32 {
	if len(piece) <= smallPiece {
		var st small
		n := st.merge(v, piece)
		return append(dst, st.tok[:n]...)
	}
	v.mergeLarge(piece, func(r uint32) { dst = append(dst, r) })
	return dst
}
