package index

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"sync"
)

// mergeGroupBytes is about how many bytes of run entries one merge job
// reads (a partition is never split, so a job may read more).
const mergeGroupBytes = 4 << 20

// segmentRow is one row of the postings table: a trigram's ids.
type segmentRow struct {
	tri Trigram
	ids []byte
}

// segments cuts runs (in id order) into the segments a build writes:
// consecutive runs holding up to limit bytes of entries each.
func segments(runs []*run, limit int) [][]*run {
	var out [][]*run
	size := 0
	for i, r := range runs {
		if len(out) == 0 || size > 0 && size+r.size > limit {
			out = append(out, runs[i:i])
			size = 0
		}
		out[len(out)-1] = append(out[len(out)-1], r)
		size += r.size
	}
	return out
}

// writeSegment merges runs (ascending, disjoint id ranges) into segment
// seg: mergers build the rows of groups of partitions in parallel, and
// the calling goroutine queues them on w in trigram order.
func writeSegment(ctx context.Context, w *postingsWriter, store *runStore, runs []*run, seg, workers int) error {
	groups := mergeGroups(runs)
	if len(groups) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	type result struct {
		rows []segmentRow
		err  error
	}
	results := make([]chan result, len(groups))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	// tokens bounds the groups merged ahead of the writer (their rows
	// are memory).
	tokens := make(chan struct{}, workers+1)
	jobs := make(chan int)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		for i := range groups {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range min(workers, len(groups)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMerger(store, runs)
			for i := range jobs {
				rows, err := m.merge(groups[i][0], groups[i][1])
				results[i] <- result{rows, err}
			}
		}()
	}
	for i := range groups {
		var res result
		select {
		case res = <-results[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if res.err != nil {
			return res.err
		}
		for _, row := range res.rows {
			if err := w.add(seg, row.tri, row.ids); err != nil {
				return err
			}
		}
		<-tokens
	}
	return nil
}

// mergeGroups cuts the partitions holding entries into consecutive
// ranges [p0, p1) of about mergeGroupBytes of entries.
func mergeGroups(runs []*run) [][2]int {
	var groups [][2]int
	start, size := -1, 0
	for p := range runParts {
		n := 0
		for _, r := range runs {
			n += r.partSize(p)
		}
		if n == 0 {
			continue
		}
		if start >= 0 && size+n > mergeGroupBytes {
			groups = append(groups, [2]int{start, p})
			start = -1
		}
		if start < 0 {
			start, size = p, 0
		}
		size += n
	}
	if start >= 0 {
		groups = append(groups, [2]int{start, runParts})
	}
	return groups
}

// merger builds the rows of groups of partitions; one per goroutine.
type merger struct {
	store *runStore
	runs  []*run
	in    []byte
	cur   []int // per run: where its next partition's entries start in in
	// Per low trigram bits, within the partition being merged: bytes
	// needed, then the row's start in the partition's buffer; the write
	// position; the last id written.
	need    []int
	pos     []int
	last    []int64
	touched []int
	ents    []mergeEntry // the partition's entries
}

func newMerger(store *runStore, runs []*run) *merger {
	n := runLowMask + 1
	return &merger{store: store, runs: runs, cur: make([]int, len(runs)), need: make([]int, n), pos: make([]int, n), last: make([]int64, n)}
}

// merge returns the rows of partitions [p0, p1), in trigram order.
func (m *merger) merge(p0, p1 int) ([]segmentRow, error) {
	m.in = m.in[:0]
	for i, r := range m.runs {
		m.cur[i] = len(m.in)
		var err error
		if m.in, err = m.store.section(r, p0, p1, m.in); err != nil {
			return nil, err
		}
	}
	var rows []segmentRow
	for p := p0; p < p1; p++ {
		var err error
		if rows, err = m.partition(p, rows); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// mergeEntry is one run entry of the partition being merged, decoded:
// its low trigram bits, its first and last ids, and where its gaps lie
// in the merger's input.
type mergeEntry struct {
	low         int32
	n           int32 // bytes of gaps
	gaps        int
	first, last int64
}

// partition appends the rows of partition p to rows: one pass decodes
// its entries and sizes each trigram's list, a second writes them (each
// run's list after the one before, its first id as a gap from the
// previous run's last).
func (m *merger) partition(p int, rows []segmentRow) ([]segmentRow, error) {
	m.touched = m.touched[:0]
	var err error
	m.ents, err = m.entries(p, m.ents[:0])
	m.advance(p)
	if err != nil || len(m.ents) == 0 {
		return rows, err
	}
	for i := range m.ents {
		e := &m.ents[i]
		if m.need[e.low] == 0 {
			m.touched = append(m.touched, int(e.low))
		}
		m.need[e.low] += uvarintLen(uint64(e.first)) + int(e.n) // the gap from the last id is smaller
	}
	slices.Sort(m.touched)
	size := 0
	for _, low := range m.touched {
		n := m.need[low]
		m.need[low], m.pos[low] = size, size
		size += n
	}
	buf := make([]byte, size)
	for i := range m.ents {
		e := &m.ents[i]
		at := m.pos[e.low]
		at += binary.PutUvarint(buf[at:], uint64(e.first-m.last[e.low]))
		at += copy(buf[at:], m.in[e.gaps:e.gaps+int(e.n)])
		m.pos[e.low], m.last[e.low] = at, e.last
	}
	for _, low := range m.touched {
		rows = append(rows, segmentRow{tri: Trigram(p<<(24-runPartBits) | low), ids: buf[m.need[low]:m.pos[low]:m.pos[low]]})
		m.need[low], m.last[low] = 0, 0
	}
	return rows, nil
}

// advance moves every run's cursor past partition p.
func (m *merger) advance(p int) {
	for i, r := range m.runs {
		m.cur[i] += r.partSize(p)
	}
}

// entries appends the entries of partition p to ents, decoded, in run
// order.
func (m *merger) entries(p int, ents []mergeEntry) ([]mergeEntry, error) {
	start := uint64(p) << (24 - runPartBits)
	for i, r := range m.runs {
		at := m.cur[i]
		end := at + r.partSize(p)
		t := start
		for at < end {
			d := runDecoder{b: m.in[at:end]}
			t += d.uvarint()
			first, n := d.uvarint(), d.uvarint()
			if d.bad || n > uint64(len(d.b)) || t-start > runLowMask {
				return ents, errBadRun
			}
			gaps := end - len(d.b)
			d.b = d.b[n:]
			span := d.uvarint()
			if d.bad {
				return ents, errBadRun
			}
			ents = append(ents, mergeEntry{low: int32(t - start), gaps: gaps, n: int32(n), first: r.base + int64(first), last: r.base + int64(first+span)})
			at = end - len(d.b)
		}
	}
	return ents, nil
}

var errBadRun = errors.New("index: a run of the build decodes badly")

// runDecoder reads uvarints from run entries.
type runDecoder struct {
	b   []byte
	bad bool
}

func (d *runDecoder) uvarint() uint64 {
	if len(d.b) > 0 && d.b[0] < 0x80 {
		v := uint64(d.b[0])
		d.b = d.b[1:]
		return v
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}
