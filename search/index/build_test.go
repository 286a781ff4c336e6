package index

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// largerTree is testTree with a few hundred more files of mixed words,
// some non-ASCII and some long, so a build cuts them into many chunks.
func largerTree(t *testing.T) string {
	t.Helper()
	root := testTree(t)
	rng := rand.New(rand.NewPCG(41, 1))
	words := []string{"alpha_value", "beta", "gamma_ray", "δέλτα", "epsilon", "zeta\tcolumn", "eta", "theta()", "{iota}", "kappa;", "日本語", "lambda"}
	for i := range 300 {
		var b strings.Builder
		n := rng.IntN(200)
		if i%50 == 0 {
			n = 5000
		}
		for range n {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(8) == 0 {
				fmt.Fprintf(&b, "_%x", rng.Uint32()) // rare trigrams
			}
			b.WriteByte(" \n"[rng.IntN(2)])
		}
		writeFile(t, root, fmt.Sprintf("many/d%d/f%03d.txt", i%7, i), b.String())
	}
	return root
}

// postingsOf reads an index's postings as each trigram's ids, whatever
// its segments.
func postingsOf(t *testing.T, o Options) map[Trigram][]int64 {
	t.Helper()
	db, err := openDB(o.dbPath(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT tri, ids FROM postings ORDER BY tri, seg`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[Trigram][]int64{}
	for rows.Next() {
		var tri int64
		var b []byte
		if err := rows.Scan(&tri, &b); err != nil {
			t.Fatal(err)
		}
		ids, err := decodePostings(nil, b)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) == 0 || !slices.IsSorted(ids) {
			t.Fatalf("trigram %06x: ids %v, want ascending and some", tri, ids)
		}
		if cur, ok := out[Trigram(tri)]; ok {
			ids = union(cur, ids)
		}
		out[Trigram(tri)] = ids
	}
	return out
}

// rowsOf is an index's postings table as it is stored.
func rowsOf(t *testing.T, o Options) []string {
	t.Helper()
	db, err := openDB(o.dbPath(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT seg, tri, hex(ids) FROM postings ORDER BY tri, seg`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var seg, tri int64
		var ids string
		if err := rows.Scan(&seg, &tri, &ids); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d %06x %s", seg, tri, ids))
	}
	return out
}

// referencePostings indexes the tree the slow, obvious way: every file
// read in id order on one goroutine, each of its trigrams appended to
// that trigram's list (postingLists, as refreshes into the delta do).
func referencePostings(t *testing.T, o Options) map[Trigram][]int64 {
	t.Helper()
	paths, _, err := listFiles(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	o.Workers = 1
	lists := newPostingLists()
	if err := indexFiles(context.Background(), &o, paths, 1, func(f *indexedFile) error {
		if f.indexed {
			lists.add(f.id, f.tris)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	out := map[Trigram][]int64{}
	for _, l := range lists.lists {
		ids, err := decodePostings(nil, l.buf)
		if err != nil {
			t.Fatal(err)
		}
		out[l.tri] = ids
	}
	return out
}

// The parallel build (runs sorted by workers, merged by partition)
// writes the index a single worker writes, row for row, with the
// postings of the obvious per-file build; so do builds whose runs spill
// to the temporary file or are cut into many segments.
func TestParallelBuildMatchesReference(t *testing.T) {
	root := largerTree(t)
	want := referencePostings(t, testOptions(t, root))
	if len(want) < 1000 {
		t.Fatalf("reference: %d trigrams, a poor test", len(want))
	}
	single := testOptions(t, root)
	single.Workers = 1
	mustBuild(t, single)
	singleRows := rowsOf(t, single)
	files, _, err := readLists(context.Background(), mustOpenDB(t, single))
	if err != nil {
		t.Fatal(err)
	}
	for name, tweak := range map[string]func(o *Options){
		"one worker":          func(o *Options) { o.Workers = 1 },
		"four workers":        func(o *Options) { o.Workers = 4 },
		"spilled runs":        func(o *Options) { o.Workers = 3; o.spillBytes = 512 },
		"many small segments": func(o *Options) { o.Workers = 2; o.flushBytes = 300 },
	} {
		t.Run(name, func(t *testing.T) {
			o := testOptions(t, root)
			tweak(&o)
			mustBuild(t, o)
			got := postingsOf(t, o)
			if !maps.EqualFunc(got, want, slices.Equal) {
				for tri, ids := range want {
					if !slices.Equal(got[tri], ids) {
						t.Fatalf("trigram %06x: ids %v, the reference %v", tri, got[tri], ids)
					}
				}
				t.Fatalf("%d trigrams, the reference %d", len(got), len(want))
			}
			if o.flushBytes == 0 {
				if rows := rowsOf(t, o); !slices.Equal(rows, singleRows) {
					t.Errorf("%d rows differ from the single worker's %d", len(rows), len(singleRows))
				}
			} else if st, _ := ReadStatus(context.Background(), o); st.Segments < 3 {
				t.Errorf("%d segments, want several", st.Segments)
			}
			got2, _, err := readLists(context.Background(), mustOpenDB(t, o))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got2, files) {
				t.Errorf("the file list differs from the single worker's")
			}
			checkSame(t, name, o)
		})
	}
}

func mustOpenDB(t *testing.T, o Options) querier {
	t.Helper()
	db, err := openDB(o.dbPath(), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// mergeTexts indexes texts (file ids 1…) as a build does, with a run
// ending after each file whose index is in cuts, and returns the merged
// segment's postings.
func mergeTexts(t testing.TB, texts [][]byte, cuts map[int]bool) map[Trigram][]int64 {
	store := &runStore{spill: 1 << 30}
	b := &runBuilder{store: store, set: newTrigramSet(), max: 1 << 30}
	for i, text := range texts {
		id := int64(i + 1)
		if len(b.pairs) == 0 {
			b.base = id
		}
		for _, tri := range b.set.add(text) {
			b.pairs = append(b.pairs, uint64(tri)<<32|uint64(id-b.base))
			b.hist.count(tri)
		}
		if cuts[i] || i == len(texts)-1 {
			if err := b.flush(len(b.pairs)); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := map[Trigram][]int64{}
	if len(store.runs) == 0 {
		return out
	}
	rows, err := newMerger(store, store.runs).merge(0, runParts)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if i > 0 && rows[i-1].tri >= r.tri {
			t.Fatalf("rows out of order: %06x after %06x", r.tri, rows[i-1].tri)
		}
		ids, err := decodePostings(nil, r.ids)
		if err != nil {
			t.Fatal(err)
		}
		out[r.tri] = ids
	}
	return out
}

// FuzzRunMerge: runs sorted, encoded and merged give each trigram the
// ids of the texts holding it (the membership oracle), ascending.
func FuzzRunMerge(f *testing.F) {
	f.Add([]byte("alpha beta\x00gamma alpha\x00\x00beta\x00"), uint64(0b101))
	f.Add([]byte("\xff\xfe\xfdabc\x00abcabc\x00ab\x00\x00日本語\x00"), uint64(1))
	f.Add([]byte(strings.Repeat("the quick brown fox\x00", 40)), uint64(0xf0f0f0))
	// A run entry whose gaps take 128 bytes or more (their length is a
	// second byte), with gaps of two bytes among them.
	f.Add([]byte(strings.Repeat("abc\x00", 300)+strings.Repeat("abc"+strings.Repeat("\x00", 200), 3)), uint64(0))
	f.Fuzz(func(t *testing.T, data []byte, cutBits uint64) {
		texts := [][]byte{}
		for part := range strings.SplitSeq(string(data), "\x00") {
			texts = append(texts, []byte(part))
		}
		cuts := map[int]bool{}
		for i := range 64 {
			cuts[i] = cutBits>>i&1 == 1
		}
		got := mergeTexts(t, texts, cuts)
		want := map[Trigram][]int64{}
		for i, text := range texts {
			has := trigramsOfText(text)
			for j := 0; j+3 <= len(text); j++ {
				tri := trigramOf(string(text[j : j+3]))
				if has(tri) && !slices.Contains(want[tri], int64(i+1)) {
					want[tri] = append(want[tri], int64(i+1))
				}
			}
		}
		if !maps.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("merged postings\n%v\nwant\n%v", got, want)
		}
	})
}

// addPairs finds the trigrams add finds, in the same order, counts them,
// and leaves the set empty for the next text (also after an add, whose
// bits stay set until the set's next use).
func TestAddPairsMatchesAdd(t *testing.T) {
	ref, set := newTrigramSet(), newTrigramSet()
	texts := []string{"", "ab", "abc", "abcabcabc", "the cat sat on the mat", "\xff\xfe\x00 binary-ish \x80\x81\x82", "abc"}
	var h pairHist
	pairs := []uint64{7} // kept as they are
	for i, text := range texts {
		if i == 3 {
			set.add([]byte("zzzz the")) // bits an add leaves set
		}
		want := slices.Clone(ref.add([]byte(text)))
		n := len(pairs)
		pairs = set.addPairs([]byte(text), pairs, uint64(i), &h)
		var got []Trigram
		for _, p := range pairs[n:] {
			if p&0xffffffff != uint64(i) {
				t.Fatalf("%q: pair %x has the wrong id", text, p)
			}
			got = append(got, Trigram(p>>32))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: trigrams %x, add finds %x", text, got, want)
		}
	}
	if pairs[0] != 7 {
		t.Fatal("the pairs before were changed")
	}
	total := 0
	for _, c := range h[1] {
		total += int(c)
	}
	if total != len(pairs)-1 {
		t.Fatalf("%d counted, %d pairs", total, len(pairs)-1)
	}
}
