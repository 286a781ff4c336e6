package index

import (
	"slices"
	"testing"
)

// A refresh fills the array of the list its watcher's copy replaced,
// never the copy's own: the copy stays as committed while the next
// refresh builds its list.
func TestListCacheSpareNeverTheCopy(t *testing.T) {
	c := &listCache{}
	if s := c.spare(3); len(s) != 0 || cap(s) < 3 {
		t.Fatalf("spare of an empty cache: len %d cap %d", len(s), cap(s))
	}
	a := []fileRecord{{id: 1, path: "a"}, {id: 2, path: "b"}, {id: 3, path: "c"}}
	c.keep("g1", a, nil)
	b := append(c.spare(3), a[0], fileRecord{id: 4, path: "d"})
	c.keep("g2", b, nil)
	for round := range 4 {
		s := c.spare(len(c.files))
		if cap(s) > 0 && &s[:1][0] == &c.files[:1][0] {
			t.Fatalf("round %d: spare shares the copy's array", round)
		}
		before := slices.Clone(c.files)
		s = append(s, fileRecord{id: int64(10 + round), path: "x"})
		if !slices.Equal(before, c.files) {
			t.Fatalf("round %d: filling the spare changed the copy", round)
		}
		c.keep("g", s, nil)
	}
	if s := (*listCache)(nil).spare(2); cap(s) < 2 {
		t.Fatalf("spare of no cache: cap %d", cap(s))
	}
}
