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
// Layout (little-endian): a 64-byte header, then five sections, each
// starting at a multiple of indexAlign from the start of the index:
//
//	header   magic "GOPIBIX1", then uint32 token count, slot count,
//	         filter words and the length of the token file it indexes
//	byteRank 256 × uint32
//	pairRank 65536 × uint32
//	filter   filter words × uint64
//	slots    slot count × 16 bytes (key uint64, rank+1 uint32, length uint32)
//	starts   token count × uint32 (vocab.Table.Start)
//
// The index is only valid with the token file it was built from; a test
// rebuilds it from that file and compares every byte.
const indexMagic = "GOPIBIX1"

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
	tokens, slots, filterWords, dataLen               int
	byteRank, pairRank, filter, slotsAt, starts, size int
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
	l.starts = next(tokens * 4)
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
	for i, s := range v.table.Start {
		le.PutUint32(out[l.starts+4*i:], s)
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
	v := &Vocab{
		table:    &vocab.Table{Data: data, Start: viewU32(index[l.starts:], l.tokens)},
		slots:    viewSlots(index[l.slotsAt:], l.slots),
		pairRank: viewU32(index[l.pairRank:], 1<<16),
		filter:   viewU64(index[l.filter:], l.filterWords),
	}
	copy(v.byteRank[:], viewU32(index[l.byteRank:], 256))
	return v, nil
}

// readHeader checks an index's header and size and returns its layout.
func readHeader(index string) (indexLayout, error) {
	if len(index) < indexAlign || index[:len(indexMagic)] != indexMagic {
		return indexLayout{}, errors.New("bpe: not a GOPIBIX1 index")
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

// viewU32 returns the first n little-endian uint32s of s, in place when it
// can.
func viewU32(s string, n int) []uint32 {
	if n == 0 {
		return nil
	}
	if inPlace(s, 4) {
		return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.StringData(s[:4*n]))), n)
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = le32(s[4*i:])
	}
	return out
}

// viewU64 is viewU32 for uint64s.
func viewU64(s string, n int) []uint64 {
	if n == 0 {
		return nil
	}
	if inPlace(s, 8) {
		return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.StringData(s[:8*n]))), n)
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = le64(s[8*i:])
	}
	return out
}

// viewSlots is viewU32 for hash table slots.
func viewSlots(s string, n int) []slot {
	if inPlace(s, unsafe.Alignof(slot{})) {
		return unsafe.Slice((*slot)(unsafe.Pointer(unsafe.StringData(s[:16*n]))), n)
	}
	out := make([]slot, n)
	for i := range out {
		at := s[16*i:]
		out[i] = slot{key: le64(at), rank: le32(at[8:]), n: le32(at[12:])}
	}
	return out
}
