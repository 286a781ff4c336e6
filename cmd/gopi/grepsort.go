package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
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
		sortKey
	}
	items := make([]keyed, len(j.held))
	for i, h := range j.held {
		k := keyed{heldResult: h, sortKey: sortKey{shown: h.relPath()}}
		if h.arg != stdinPath {
			k.shown = displayPath(h.arg, h.relPath(), j.argIsFile(h.arg))
			if kind, ok := j.order.timeKind(); ok {
				// Taken before the search when possible: reading a
				// file moves its access time.
				if t, found := j.times[k.shown]; found {
					k.t, k.ok = t, true
				} else {
					k.t, k.ok = fileTime(k.shown, kind)
				}
			}
		}
		items[i] = k
	}
	j.held = nil
	slices.SortStableFunc(items, func(a, b keyed) int { return j.order.compare(a.sortKey, b.sortKey) })
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

// sortKey is what a file is sorted by: its path as printed and, for the
// time orders, its timestamp (ok false: none could be read).
type sortKey struct {
	shown string
	t     time.Time
	ok    bool
}

// compare orders two files as s asks. Like ripgrep 14, a missing
// timestamp sorts after every present one, and --sortr reverses the whole
// order (missing ones first).
func (s sortChoice) compare(a, b sortKey) int {
	var c int
	if s.key == "path" || s.key == "" {
		c = comparePathComponents(a.shown, b.shown)
	} else {
		switch {
		case a.ok && b.ok:
			c = a.t.Compare(b.t)
		case a.ok:
			c = -1
		case b.ok:
			c = 1
		}
	}
	if s.reverse {
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

// grepSearch is one search of a gopi grep run: a path argument ("" for the
// current directory, stdinPath for standard input), or (planned) the
// files of every argument in the order --sort asked for.
type grepSearch struct {
	arg     string
	planned bool
	files   []grep.FileRef
}

// plan lists the files a search of every path argument would read, each
// by the path it is printed with, sorted as j.order asks; timestamps are
// taken before anything is read (reading a file moves its access time).
// Paths that do not exist are named on stderr (missing reports one). What
// is held is a path and a time per file, not the results: they are printed
// as the search of the sorted list finds them.
func (j *grepJob) plan(ctx context.Context) (files []grep.FileRef, missing bool, err error) {
	kind, timed := j.order.timeKind()
	type planned struct {
		ref grep.FileRef
		key sortKey
	}
	var all []planned
	add := func(shown string, named bool) {
		p := planned{ref: grep.FileRef{Path: shown, Named: named}, key: sortKey{shown: shown}}
		if timed {
			p.key.t, p.key.ok = fileTime(shown, kind)
		}
		all = append(all, p)
	}
	for _, path := range j.paths {
		o := j.pathOptions(path)
		info, err := os.Stat(o.Path)
		if err != nil {
			j.out.Flush()
			fmt.Fprintf(j.errOut, "gopi grep: %s: %s\n", o.Path, errnoText(err))
			missing = true
			continue
		}
		if !info.IsDir() {
			add(path, true)
			continue
		}
		if err := grep.EachFile(ctx, o, func(f string) error {
			add(displayPath(path, f, false), false)
			return nil
		}); err != nil {
			return nil, missing, err
		}
	}
	slices.SortStableFunc(all, func(a, b planned) int { return j.order.compare(a.key, b.key) })
	files = make([]grep.FileRef, len(all))
	for i, p := range all {
		files[i] = p.ref
	}
	return files, missing, nil
}

// timeKind is the timestamp the order sorts by, if any.
func (s sortChoice) timeKind() (timeKind, bool) {
	switch s.key {
	case "modified":
		return timeModified, true
	case "accessed":
		return timeAccessed, true
	case "created":
		return timeCreated, true
	}
	return 0, false
}

// takeTimes records, before anything is read, the sort timestamp of every
// file a search of path with o would read.
func (j *grepJob) takeTimes(ctx context.Context, path string, o grep.Options) error {
	kind, ok := j.order.timeKind()
	if !ok || path == stdinPath {
		return nil
	}
	if j.times == nil {
		j.times = map[string]time.Time{}
	}
	isFile := isRegularFile(path)
	return grep.EachFile(ctx, o, func(f string) error {
		shown := displayPath(path, f, isFile)
		if t, ok := fileTime(shown, kind); ok {
			j.times[shown] = t
		}
		return nil
	})
}
