package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// A build turns (file, trigram) pairs into posting lists in two steps,
// both spread over the workers, with no loop that touches every pair on
// one goroutine (the build's old bottleneck: an append per pair into one
// table of lists, 40 % of its time, on one core).
//
//  1. Runs (this file). The files are cut into chunks of consecutive
//     ids that workers take in turn. A worker reads a chunk's files,
//     collects their pairs as trigram<<32 | (id − base) in id order,
//     sorts them by trigram with a stable radix sort (so each trigram's
//     ids stay ascending) and encodes the result as a run: per trigram,
//     ascending, its first and last id and the gaps between. A run ends
//     at the end of a chunk or when the worker's share of the pair budget
//     is full. Runs are kept in memory while small, then appended to a
//     temporary file beside the index (unlinked at once), so a tree of
//     any size builds in bounded memory.
//  2. Segments (segment.go). Trigram space is cut into runParts
//     partitions by a trigram's top bits; each run records where each
//     partition's entries start. Mergers take groups of partitions, read
//     each run's part of the group, and concatenate each trigram's lists
//     in run order (runs of one segment cover disjoint, ascending id
//     ranges): the posting list of the whole segment, in trigram order,
//     for the one goroutine that writes SQLite.

// runPartBits: trigram space is cut into 1<<runPartBits partitions by a
// trigram's top bits; a merger's table for one partition (its low bits)
// stays in the first-level cache.
const (
	runPartBits = 12
	runParts    = 1 << runPartBits
	runLowMask  = 1<<(24-runPartBits) - 1
)

// pairBudget is how many bytes of pairs the workers hold at once, all
// together (each holds as much again to sort into); it bounds a run.
const pairBudget = 16 << 20

// runMemBytes: runs are kept in memory up to this many bytes in all,
// then written to the spill file (a refresh of a few files never
// touches the disk for them).
const runMemBytes = 16 << 20

// run is the postings of some files with ids in [base, base+span): every
// id of a later run of the same build is larger.
//
// Entries, in trigram order: uvarint trigram − the previous entry's (or,
// at a partition's first entry, − the partition's first trigram),
// uvarint first id − base, uvarint length of the gaps, the gaps between
// the ids (appendPosting's encoding), then uvarint last − first id.
type run struct {
	base  int64
	parts []uint32 // byte offset of each partition's first entry; runParts+1 of them
	data  []byte   // the entries, when held in memory
	off   int64    // where the entries start in the spill file, when not
	size  int
}

// partSize is the bytes of partition p's entries in r.
func (r *run) partSize(p int) int { return int(r.parts[p+1] - r.parts[p]) }

// runStore holds a build's runs: in memory up to spill bytes, then in an
// unlinked temporary file in dir. Safe for concurrent add.
type runStore struct {
	dir   string
	spill int

	mu      sync.Mutex
	runs    []*run
	mem     int
	file    *os.File
	removal string // the file's name, when it could not be unlinked while open
	end     int64
}

func newRunStore(o *Options) *runStore {
	spill := runMemBytes
	if o.spillBytes > 0 {
		spill = o.spillBytes
	}
	return &runStore{dir: o.Dir, spill: spill}
}

// add stores r's entries (copied: the caller keeps enc).
func (s *runStore) add(r *run, enc []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.size = len(enc)
	if s.mem+len(enc) <= s.spill {
		r.data = append([]byte(nil), enc...)
		s.mem += len(enc)
		s.runs = append(s.runs, r)
		return nil
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.dir, "runs.tmp*")
		if err != nil {
			return fmt.Errorf("create the build's temporary file: %w", err)
		}
		s.file = f
		if os.Remove(f.Name()) != nil {
			s.removal = f.Name() // removed when closed
		}
	}
	if _, err := s.file.WriteAt(enc, s.end); err != nil {
		return fmt.Errorf("write the build's temporary file: %w", err)
	}
	r.off = s.end
	s.end += int64(len(enc))
	s.runs = append(s.runs, r)
	return nil
}

// section appends r's entries of partitions [p0, p1) to dst.
func (s *runStore) section(r *run, p0, p1 int, dst []byte) ([]byte, error) {
	lo, hi := r.parts[p0], r.parts[p1]
	if r.data != nil {
		return append(dst, r.data[lo:hi]...), nil
	}
	n := len(dst)
	dst = append(dst, make([]byte, hi-lo)...)
	if _, err := s.file.ReadAt(dst[n:], r.off+int64(lo)); err != nil {
		return dst, fmt.Errorf("read the build's temporary file: %w", err)
	}
	return dst, nil
}

// close releases the spill file.
func (s *runStore) close() {
	if s.file != nil {
		s.file.Close()
		if s.removal != "" {
			os.Remove(s.removal)
		}
		s.file = nil
	}
}

// fileOutcome is what reading one listed file found.
type fileOutcome struct {
	st      fileState
	ok      bool // false: the file vanished (or is no longer a regular file)
	indexed bool // its text is in the postings
}

// buildRuns reads paths[i] (id firstID+i) on the workers into runs in
// store, and returns what it found of each file.
func buildRuns(ctx context.Context, o *Options, paths []string, firstID int64, store *runStore) ([]fileOutcome, error) {
	workers := o.workers()
	out := make([]fileOutcome, len(paths))
	chunk := chunkFiles(len(paths), workers)
	chunks := (len(paths) + chunk - 1) / chunk
	maxPairs := max(pairBudget/8/workers, 1<<16)
	if o.flushBytes > 0 {
		maxPairs = max(o.flushBytes, 1) // tests: many small runs
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Room for a run and the file that overfills it, mostly: a
			// slice grown by append would take a quarter more each time.
			b := &runBuilder{o: o, store: store, set: newTrigramSet(), max: maxPairs, pairs: make([]uint64, 0, maxPairs+maxPairs/4)}
			for c := int(next.Add(1) - 1); c < chunks; c = int(next.Add(1) - 1) {
				lo, hi := c*chunk, min((c+1)*chunk, len(paths))
				if err := b.chunk(ctx, paths[lo:hi], firstID+int64(lo), out[lo:hi]); err != nil {
					errs[w] = err
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, ctx.Err()
}

// workers is how many goroutines read files.
func (o *Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// chunkFiles is how many consecutive files a worker takes at once: up
// to 1024 (a run rarely spans more), fewer on a small tree so that
// every worker gets some.
func chunkFiles(n, workers int) int {
	return min(1024, max(16, n/(4*workers)+1))
}

// runBuilder is one worker's state: its reader, trigram set, the pairs of
// the run being collected and the buffers it sorts and encodes them in.
type runBuilder struct {
	o     *Options
	store *runStore
	set   *trigramSet
	r     fileReader
	max   int // pairs per run

	base  int64
	pairs []uint64 // trigram<<32 | id − base, ids ascending
	hist  pairHist
	tmp   []uint64
	enc   []byte
	parts []uint32
}

// chunk reads the files of ids [first, first+len(paths)) into runs,
// recording each one's outcome. A file read whole has its pairs
// appended as its trigrams are found (addPairs), without a list of them
// in between; the run is cut after the fact when the file overfills it.
func (b *runBuilder) chunk(ctx context.Context, paths []string, first int64, out []fileOutcome) error {
	for i, rel := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		id := first + int64(i)
		st, ok, text, large := b.r.read(b.o, rel)
		switch {
		case large:
			var tris []Trigram
			abs := filepath.Join(b.o.Root, filepath.FromSlash(rel))
			st, tris, out[i].indexed = readLarge(abs, st, b.set)
			if out[i].indexed {
				if len(b.pairs) > 0 && len(b.pairs)+len(tris) > b.max {
					if err := b.flush(len(b.pairs)); err != nil {
						return err
					}
				}
				b.start(id)
				local := uint64(id - b.base)
				for _, t := range tris {
					b.pairs = append(b.pairs, uint64(t)<<32|local)
					b.hist.count(t)
				}
			}
		case indexable(text):
			out[i].indexed = true
			b.start(id)
			n := len(b.pairs)
			b.pairs = b.set.addPairs(text, b.pairs, uint64(id-b.base), &b.hist)
			if n > 0 && len(b.pairs) > b.max {
				if err := b.flush(n); err != nil { // the run before this file
					return err
				}
			}
		}
		out[i].st, out[i].ok = st, ok
	}
	// A run never spans two chunks: another worker's run may lie between.
	return b.flush(len(b.pairs))
}

// start makes id the run's base when the run is empty.
func (b *runBuilder) start(id int64) {
	if len(b.pairs) == 0 {
		b.base = id
	}
}

// flush sorts and encodes the first n pairs collected into a run and
// stores it. The pairs after them (one file's, with the same id) start
// the next run, which that id is the base of.
func (b *runBuilder) flush(n int) error {
	if n == 0 {
		return nil
	}
	rest := b.pairs[n:]
	for _, p := range rest {
		b.hist.uncount(Trigram(p >> 32))
	}
	if cap(b.tmp) < n {
		b.tmp = make([]uint64, cap(b.pairs))
	}
	sorted := sortPairs(b.pairs[:n], b.tmp[:n], &b.hist)
	if b.parts == nil {
		b.parts = make([]uint32, runParts+1)
	}
	b.enc = encodeRun(b.enc[:0], sorted, b.parts)
	r := &run{base: b.base, parts: append([]uint32(nil), b.parts...)}
	b.pairs = b.pairs[:copy(b.pairs, rest)]
	if len(rest) > 0 {
		b.base += int64(rest[0] & 0xffffffff)
		for i, p := range b.pairs {
			b.pairs[i] = p &^ 0xffffffff
			b.hist.count(Trigram(p >> 32))
		}
	}
	return b.store.add(r, b.enc)
}

// pairHist counts the pairs of a run by the low and the high 12 bits of
// their trigram: the two digits sortPairs sorts by, counted as the pairs
// are collected (which saves sortPairs a pass over them). The counts are
// 32 bits (a run holds far fewer pairs): the two tables then fit the
// first-level cache beside the pairs being scattered, and the sort took
// a fifth less CPU than with int counts.
type pairHist [2][1 << 12]uint32

func (h *pairHist) count(t Trigram) {
	h[0][t&(1<<12-1)]++
	h[1][t>>12]++
}

// uncount takes back a count.
func (h *pairHist) uncount(t Trigram) {
	h[0][t&(1<<12-1)]--
	h[1][t>>12]--
}

// sortPairs sorts pairs by trigram (bits 32–55) keeping equal trigrams
// in their order: two counting passes of 12 bits (the counts of h, which
// it consumes) between pairs and tmp (as long). It returns whichever
// holds the result.
func sortPairs(pairs, tmp []uint64, h *pairHist) []uint64 {
	src, dst := pairs, tmp[:len(pairs)]
	for pass := range 2 {
		c := &h[pass]
		shift := 32 + 12*pass
		var sum uint32
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		scatter(dst, src, c, shift)
		src, dst = dst, src
	}
	clear(h[:])
	return src
}

// scatter moves each pair of src to dst at the offset c holds for its
// 12-bit digit at shift, and advances the offset. Four pairs a turn:
// the loop took a quarter less CPU than one a turn.
func scatter(dst, src []uint64, c *[1 << 12]uint32, shift int) {
	i := 0
	for ; i+4 <= len(src); i += 4 {
		s := src[i : i+4 : i+4]
		p0, p1, p2, p3 := s[0], s[1], s[2], s[3]
		k := p0 >> shift & (1<<12 - 1)
		dst[c[k]] = p0
		c[k]++
		k = p1 >> shift & (1<<12 - 1)
		dst[c[k]] = p1
		c[k]++
		k = p2 >> shift & (1<<12 - 1)
		dst[c[k]] = p2
		c[k]++
		k = p3 >> shift & (1<<12 - 1)
		dst[c[k]] = p3
		c[k]++
	}
	for ; i < len(src); i++ {
		k := src[i] >> shift & (1<<12 - 1)
		dst[c[k]] = src[i]
		c[k]++
	}
}

// encodeRun appends the run entries of sorted pairs to enc and sets
// parts to where each partition's entries start (see run). It reads each
// pair once: a trigram's gaps are written as they are found, after one
// byte left for their length, and moved along in the rare case the
// length needs more.
func encodeRun(enc []byte, sorted []uint64, parts []uint32) []byte {
	p := 0 // the next partition whose start is to be set
	var prev uint64
	for i := 0; i < len(sorted); {
		t := sorted[i] >> 32
		if part := int(t >> (24 - runPartBits)); part >= p {
			for ; p <= part; p++ {
				parts[p] = uint32(len(enc))
			}
			prev = uint64(part) << (24 - runPartBits)
		}
		first := sorted[i] & 0xffffffff
		enc = appendUvarint(enc, t-prev)
		enc = appendUvarint(enc, first)
		at := len(enc)
		enc = append(enc, 0)
		last := first
		j := i + 1
		for ; j < len(sorted) && sorted[j]>>32 == t; j++ {
			id := sorted[j] & 0xffffffff
			enc = appendUvarint(enc, id-last)
			last = id
		}
		if n := len(enc) - at - 1; n < 0x80 {
			enc[at] = byte(n)
		} else {
			k := uvarintLen(uint64(n))
			enc = append(enc, make([]byte, k-1)...)
			copy(enc[at+k:], enc[at+1:at+1+n])
			binary.PutUvarint(enc[at:], uint64(n))
		}
		enc = appendUvarint(enc, last-first)
		prev = t
		i = j
	}
	for ; p <= runParts; p++ {
		parts[p] = uint32(len(enc))
	}
	return enc
}

// appendUvarint is binary.AppendUvarint with the one-byte case inline.
func appendUvarint(b []byte, v uint64) []byte {
	if v < 0x80 {
		return append(b, byte(v))
	}
	return binary.AppendUvarint(b, v)
}

// uvarintLen is the length of v's uvarint encoding.
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }
