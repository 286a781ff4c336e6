package printer

import (
	"cmp"
	"strings"
	"time"
)

// Order is the order of files asked for with --sort or --sortr; the zero
// value is path order, which the engine delivers as it searches.
type Order struct {
	Key     string // "path", "modified", "accessed", "created" or "none"; "" = path
	Reverse bool
}

// Holds reports whether results must be collected and sorted at the end:
// every order but ascending path order (or none) needs all of them first.
func (o Order) Holds() bool {
	switch o.Key {
	case "", "path":
		return o.Reverse
	case "none":
		return false
	}
	return true
}

// Timed reports whether the order sorts by a timestamp (Key names it).
func (o Order) Timed() bool {
	switch o.Key {
	case "modified", "accessed", "created":
		return true
	}
	return false
}

// SortKey is what a file is sorted by: its path as printed and, for the
// time orders, its timestamp (HasTime false: none could be read).
type SortKey struct {
	Shown   string
	Time    time.Time
	HasTime bool
}

// Compare orders two files as o asks. Like ripgrep 14, a missing
// timestamp sorts after every present one, and --sortr reverses the whole
// order (missing ones first). Sorted stably, files with equal keys stay in
// path order.
func (o Order) Compare(a, b SortKey) int {
	var c int
	if o.Key == "path" || o.Key == "" {
		c = comparePathComponents(a.Shown, b.Shown)
	} else {
		switch {
		case a.HasTime && b.HasTime:
			c = a.Time.Compare(b.Time)
		case a.HasTime:
			c = -1
		case b.HasTime:
			c = 1
		}
	}
	if o.Reverse {
		c = -c
	}
	return c
}

// comparePathComponents orders two slash-separated paths component by
// component, the order of a walk ("a/b" before "a.b"). Empty components
// and "." after the first are skipped, as Rust's Path ordering does
// ("c//z" and "c/./z" are "c/z").
func comparePathComponents(a, b string) int {
	ca, cb := pathComponents(a), pathComponents(b)
	for i := 0; i < len(ca) && i < len(cb); i++ {
		if c := cmp.Compare(ca[i], cb[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(ca), len(cb))
}

// pathComponents splits p at '/', leaving out empty components and "."
// components other than the first.
func pathComponents(p string) []string {
	var out []string
	for i, c := range strings.Split(p, "/") {
		if c == "" || (c == "." && i > 0) {
			continue
		}
		out = append(out, c)
	}
	return out
}
