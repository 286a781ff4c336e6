package applypatch

import (
	"slices"
	"testing"
)

func TestHunkVariants(t *testing.T) {
	c := Chunk{
		OldLines: []string{"a", "x", "y", "x", "y", "old", "z"},
		NewLines: []string{"a", "x", "y", "x", "y", "new", "z"},
		LineHint: 3,
	}
	got := hunkVariants(c)
	want := []variant{
		{old: []string{"old"}, new: []string{"new"}}, // trim-common; the rest repeat it or are empty
	}
	if len(got) != len(want) || !slices.Equal(got[0].old, want[0].old) || !slices.Equal(got[0].new, want[0].new) {
		t.Fatalf("hunkVariants = %+v, want %+v", got, want)
	}

	o, n, ok := collapseRepeated([]string{"x", "y", "x", "y", "old"}, []string{"x", "y", "x", "y", "new"})
	if !ok || !slices.Equal(o, []string{"x", "y", "old"}) || !slices.Equal(n, []string{"x", "y", "new"}) {
		t.Errorf("collapseRepeated = %q, %q, %v", o, n, ok)
	}
	o, n, ok = dedupeShared([]string{"}", "}", "a"}, []string{"}", "}", "b"})
	if !ok || !slices.Equal(o, []string{"}", "a"}) || !slices.Equal(n, []string{"}", "b"}) {
		t.Errorf("dedupeShared = %q, %q, %v", o, n, ok)
	}
	if _, _, ok := singleChange([]string{"a", "b"}, []string{"A", "B"}); ok {
		t.Error("singleChange took a hunk changing two lines")
	}
	// Without locator, hint or end-of-file marker the aggressive forms are left out.
	c = Chunk{OldLines: []string{"k", "old"}, NewLines: []string{"k", "new"}}
	for _, v := range hunkVariants(c) {
		if v.aggressive {
			t.Errorf("unplaced hunk got aggressive variant %+v", v)
		}
	}
	if at := nearLocator([]string{"x", "loc", "y", "x", "x"}, " x ", 1, true); at != 4 {
		t.Errorf("nearLocator preferring the second = %d, want 4", at)
	}
	if at := nearLocator([]string{"x", "loc"}, "x", 1, false); at != 0 {
		t.Errorf("nearLocator looking back = %d, want 0", at)
	}
}
