package bpe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"github.com/gopi-agent/gopi/tokens/internal/vocab"
)

// The index form of a Vocab is everything New computes, written out once at
// build time (`go generate ./tokens/...`) and embedded, so that a process
// opens an encoding without building anything: Open points the Vocab's
// tables at the embedded bytes and reads them in place, the pages coming in
// from the binary only as lookups touch them. Building the o200k_base table
// costs tens of milliseconds of CPU and 5 MB of fresh memory on every start;
// opening it costs a header check.
//
// Layout (little-endian): a 64-byte header, then four sections, each
// starting at a multiple of indexAlign from the start of the index:
//
//	header   magic "GOPIBIX2", then uint32 token count, slot count,
//	         filter words and the length of the token file it indexes
//	byteRank 256 × uint32
//	pairRank 65536 × uint32
//	filter   filter words × uint64
//	slots    slot count × 16 bytes (key uint64, rank+1 uint32, length uint32)
//
// The token offsets (vocab.Table.Start) are not stored: vocab.Parse
// derives them from the token file in one pass of well under a
// millisecond, and leaving them out keeps the o200k_base index under 5 MB
// (version 1 stored them).
//
// The index is only valid with the token file it was built from; a test
// rebuilds it from that file and compares every byte.
const indexMagic = "GOPIBIX2"

// indexAlign is the alignment of each section; the embedded string the
// index is read from must be aligned to 8 bytes for the in-place view (it
// is copied otherwise).
const indexAlign = 64

// maxIndexCount bounds every count of an index header, so that its layout
// cannot overflow an int even on 32-bit machines.
const maxIndexCount = 1 << 24

// slot must be 16 bytes with no padding for the in-place view.
var _ [16]byte = [unsafe.Sizeof(slot{})]byte{}

// indexLayout is where each section of an index lies.
type indexLayout struct {
	tokens, slots, filterWords, dataLen       int
	byteRank, pairRank, filter, slotsAt, size int
}

func layoutFor(tokens, slots, filterWords, dataLen int) indexLayout {
	l := indexLayout{tokens: tokens, slots: slots, filterWords: filterWords, dataLen: dataLen}
	at := indexAlign
	next := func(size int) int {
		start := at
		at = (at + size + indexAlign - 1) / indexAlign * indexAlign
		return start
	}
	l.byteRank = next(256 * 4)
	l.pairRank = next(1 << 16 * 4)
	l.filter = next(filterWords * 8)
	l.slotsAt = next(slots * int(unsafe.Sizeof(slot{})))
	l.size = at
	return l
}

// AppendIndex appends v's index form to dst.
func (v *Vocab) AppendIndex(dst []byte) []byte {
	l := layoutFor(len(v.table.Start), len(v.slots), len(v.filter), len(v.table.Data))
	base := len(dst)
	dst = append(dst, make([]byte, l.size)...)
	out := dst[base:]
	le := binary.LittleEndian
	copy(out, indexMagic)
	for i, n := range []int{l.tokens, l.slots, l.filterWords, l.dataLen} {
		le.PutUint32(out[len(indexMagic)+4*i:], uint32(n))
	}
	for i, r := range v.byteRank {
		le.PutUint32(out[l.byteRank+4*i:], r)
	}
	for i, r := range v.pairRank {
		le.PutUint32(out[l.pairRank+4*i:], r)
	}
	for i, w := range v.filter {
		le.PutUint64(out[l.filter+8*i:], w)
	}
	for i, s := range v.slots {
		at := l.slotsAt + 16*i
		le.PutUint64(out[at:], s.key)
		le.PutUint32(out[at+8:], s.rank)
		le.PutUint32(out[at+12:], s.n)
	}
	return dst
}

// Open returns the Vocab of the token file data (vocab's compact form)
// from its index form, built by AppendIndex from the same file. On a
// little-endian machine the tables are read in place from index, which
// must then stay unchanged as long as the Vocab is used (embedded data
// does); elsewhere they are decoded into fresh memory.
func Open(data, index string) (*Vocab, error) {
	l, err := readHeader(index)
	if err != nil {
		return nil, err
	}
	if l.dataLen != len(data) {
		return nil, fmt.Errorf("bpe: the index is for a token file of %d bytes, not %d", l.dataLen, len(data))
	}
	if l.slots == 0 || l.slots&(l.slots-1) != 0 || l.filterWords != 1<<filterBits/64 {
		return nil, fmt.Errorf("bpe: index sizes %d slots, %d filter words are not this version's", l.slots, l.filterWords)
	}
	table, err := vocab.Parse(data)
	if err != nil {
		return nil, err
	}
	if len(table.Start) != l.tokens {
		return nil, fmt.Errorf("bpe: the index is for %d tokens, the token file has %d", l.tokens, len(table.Start))
	}
	v := &Vocab{
		table:    table,
		slots:    view(index[l.slotsAt:], l.slots, decodeSlot),
		pairRank: view(index[l.pairRank:], 1<<16, le32),
		filter:   view(index[l.filter:], l.filterWords, le64),
	}
	copy(v.byteRank[:], view(index[l.byteRank:], 256, le32))
	return v, nil
}

// readHeader checks an index's header and size and returns its layout.
func readHeader(index string) (indexLayout, error) {
	if len(index) < indexAlign || index[:len(indexMagic)] != indexMagic {
		return indexLayout{}, errors.New("bpe: not a " + indexMagic + " index (run go generate ./tokens/...)")
	}
	var n [4]int
	for i := range n {
		n[i] = int(le32(index[len(indexMagic)+4*i:]))
		if n[i] > maxIndexCount {
			return indexLayout{}, fmt.Errorf("bpe: index header count %d is out of range", n[i])
		}
	}
	l := layoutFor(n[0], n[1], n[2], n[3])
	if l.size != len(index) {
		return indexLayout{}, fmt.Errorf("bpe: index of %d bytes, its header describes %d", len(index), l.size)
	}
	return l, nil
}

// littleEndian is whether this machine stores integers as the index does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// inPlace reports whether s can be viewed as elements aligned to align:
// the machine is little-endian and s starts aligned.
func inPlace(s string, align uintptr) bool {
	return littleEndian && len(s) > 0 && uintptr(unsafe.Pointer(unsafe.StringData(s)))%align == 0
}

// view returns the first n elements of s, little-endian and each
// unsafe.Sizeof(T) bytes long: in place when the machine and s's alignment
// allow, else decoded by decode into fresh memory.
func view[T any](s string, n int, decode func(string) T) []T {
	if n == 0 {
		return nil
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	if inPlace(s, unsafe.Alignof(zero)) {
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.StringData(s[:size*n]))), n)
	}
	out := make([]T, n)
	for i := range out {
		out[i] = decode(s[size*i:])
	}
	return out
}

// decodeSlot reads one hash table slot as AppendIndex writes it.
func decodeSlot(s string) slot { return slot{key: le64(s), rank: le32(s[8:]), n: le32(s[12:])} }
