package index

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// The delta merged by a refresh (dropped ids removed from the lists that
// hold them, new ids appended without decoding the rest) is the delta a
// plain decode, filter, union and encode gives.
func TestDeltaMergedAsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	encode := func(ids []int64) []byte {
		var b []byte
		var last int64
		for _, id := range ids {
			b = appendPosting(b, last, id)
			last = id
		}
		return b
	}
	for round := range 200 {
		// The old delta: ids below 500 on a few trigrams.
		old := map[Trigram][]int64{}
		for range r.IntN(20) {
			tri := Trigram(r.IntN(40))
			for range 1 + r.IntN(30) {
				old[tri] = append(old[tri], int64(1+r.IntN(500)))
			}
		}
		d := &delta{}
		for _, tri := range slices.Sorted(maps.Keys(old)) {
			ids := slices.Compact(slices.Sorted(slices.Values(old[tri])))
			old[tri] = ids
			d.tris = append(d.tris, tri)
			d.lists = append(d.lists, encode(ids))
		}
		var dropped []int64
		for id := int64(1); id < 500; id++ {
			if r.IntN(8) == 0 {
				dropped = append(dropped, id)
			}
		}
		// New files: ids from 500 on (some rounds reuse lower ids, as a
		// refresh after the highest-numbered file was removed may).
		first := int64(500)
		if round%5 == 0 {
			first = 480
		}
		add, reference := &smallLists{}, newPostingLists()
		want := map[Trigram][]int64{}
		for tri, ids := range old {
			for _, id := range ids {
				if _, gone := slices.BinarySearch(dropped, id); !gone {
					want[tri] = append(want[tri], id)
				}
			}
		}
		for id := first; id < first+int64(r.IntN(10)); id++ {
			var tris []Trigram
			for range 1 + r.IntN(15) {
				tris = append(tris, Trigram(r.IntN(60)))
			}
			tris = slices.Compact(slices.Sorted(slices.Values(tris)))
			add.add(id, tris)
			reference.add(id, tris)
			for _, tri := range tris {
				want[tri] = union(append([]int64{}, want[tri]...), []int64{id})
			}
		}
		addLists := add.sorted()
		if want := reference.sorted(); !reflect.DeepEqual(addLists, want) {
			t.Fatalf("round %d: the refresh's lists\n%v\nthe build's\n%v", round, addLists, want)
		}
		m, err := d.merged(dropped, addLists)
		if err != nil {
			t.Fatal(err)
		}
		got := map[Trigram][]int64{}
		if !slices.IsSorted(m.tris) {
			t.Fatalf("round %d: trigrams out of order", round)
		}
		for i, tri := range m.tris {
			ids, err := decodePostings(nil, m.lists[i])
			if err != nil {
				t.Fatal(err)
			}
			got[tri] = ids
		}
		for tri, ids := range want {
			if len(ids) == 0 {
				delete(want, tri)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: merged\n%v\nwant\n%v", round, got, want)
		}
	}
}
