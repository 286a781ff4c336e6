package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/search/grep"
)

// sortChoice is the order asked for with --sort or --sortr; the zero value
// is path order, which the engine delivers as it searches.
type sortChoice struct {
	key     string // "path", "modified", "accessed", "created" or "none"; "" = path
	reverse bool
}

// holds reports whether results must be collected and sorted at the end:
// every order but ascending path order (or none) needs all of them first.
func (s sortChoice) holds() bool {
	switch s.key {
	case "", "path":
		return s.reverse
	case "none":
		return false
	}
	return true
}

// sortFlag is the pflag.Value of --sort (reverse false) and --sortr
// (reverse true): both set one choice, so the last one given wins.
type sortFlag struct {
	choice  *sortChoice
	reverse bool
}

func (f sortFlag) String() string { return "" }
func (f sortFlag) Type() string   { return "string" }
func (f sortFlag) Set(v string) error {
	switch v {
	case "path", "modified", "accessed", "created", "none":
	default:
		return fmt.Errorf("unknown sort key %q: use path, modified, accessed, created or none", v)
	}
	*f.choice = sortChoice{key: v, reverse: f.reverse}
	return nil
}

// heldResult is one file's results (or, with --files, one file) kept for
// sorting: arg is the path argument the file was found under.
type heldResult struct {
	arg    string
	result *grep.FileResult // nil with --files
	file   string           // --files: the path below arg
}

// relPath is the held file's path below its argument.
func (h heldResult) relPath() string {
	if h.result != nil {
		return h.result.Path
	}
	return h.file
}

// printHeld sorts the held results as j.order asks and prints them. Like
// ripgrep, the sort is stable (files with equal keys stay in path order)
// and files whose timestamp cannot be read come last.
func (j *grepJob) printHeld() error {
	if len(j.held) == 0 {
		return nil
	}
	type keyed struct {
		heldResult
		shown string
		t     time.Time
		ok    bool
	}
	items := make([]keyed, len(j.held))
	for i, h := range j.held {
		k := keyed{heldResult: h, shown: displayPath(h.arg, h.relPath(), isRegularFile(h.arg))}
		switch j.order.key {
		case "modified":
			k.t, k.ok = fileTime(k.shown, timeModified)
		case "accessed":
			k.t, k.ok = fileTime(k.shown, timeAccessed)
		case "created":
			k.t, k.ok = fileTime(k.shown, timeCreated)
		}
		items[i] = k
	}
	j.held = nil
	byPath := j.order.key == "path" || j.order.key == ""
	slices.SortStableFunc(items, func(a, b keyed) int {
		if byPath {
			c := comparePathComponents(a.shown, b.shown)
			if j.order.reverse {
				c = -c
			}
			return c
		}
		switch {
		case a.ok != b.ok: // a missing timestamp sorts last, in either direction
			if a.ok {
				return -1
			}
			return 1
		case !a.ok:
			return 0
		}
		c := a.t.Compare(b.t)
		if j.order.reverse {
			c = -c
		}
		return c
	})
	end := byte('\n')
	if j.null {
		end = 0
	}
	for _, it := range items {
		if it.result == nil {
			j.out.WriteString(it.shown)
			if err := j.out.WriteByte(end); err != nil {
				return err
			}
			continue
		}
		if err := j.print(it.arg, it.result); err != nil {
			return err
		}
	}
	return nil
}

// comparePathComponents orders two slash-separated paths component by
// component, the order of a walk ("a/b" before "a.b").
func comparePathComponents(a, b string) int {
	for a != "" && b != "" {
		var ca, cb string
		ca, a, _ = strings.Cut(a, "/")
		cb, b, _ = strings.Cut(b, "/")
		if c := cmp.Compare(ca, cb); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}
