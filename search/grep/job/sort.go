package job

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/grep/printer"
)

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
func (j *job) printHeld() error {
	if len(j.held) == 0 {
		return nil
	}
	type keyed struct {
		heldResult
		printer.SortKey
	}
	items := make([]keyed, len(j.held))
	for i, h := range j.held {
		k := keyed{heldResult: h, SortKey: printer.SortKey{Shown: h.relPath()}}
		if h.arg != StdinPath {
			k.Shown = printer.DisplayPath(h.arg, h.relPath(), j.argIsFile(h.arg))
			if kind, ok := orderTime(j.order); ok {
				// Taken before the search when possible: reading a
				// file moves its access time.
				if t, found := j.times[k.Shown]; found {
					k.Time, k.HasTime = t, true
				} else {
					k.Time, k.HasTime = fileTime(k.Shown, kind)
				}
			}
		}
		items[i] = k
	}
	j.held = nil
	slices.SortStableFunc(items, func(a, b keyed) int { return j.order.Compare(a.SortKey, b.SortKey) })
	for _, it := range items {
		if it.result == nil {
			j.out.WriteString(it.Shown)
			if err := j.out.WriteByte(j.printer.PathEnd()); err != nil {
				return err
			}
			continue
		}
		if err := j.printer.File(j.shown(it.arg, it.result.Path), it.result); err != nil {
			return err
		}
	}
	return nil
}

// pathSearch is one search of a gopi grep run: a path argument ("" for the
// current directory, StdinPath for standard input), or (planned) the
// files of every argument in the order --sort asked for.
type pathSearch struct {
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
func (j *job) plan(ctx context.Context) (files []grep.FileRef, missing bool, err error) {
	kind, timed := orderTime(j.order)
	type planned struct {
		ref grep.FileRef
		key printer.SortKey
	}
	var all []planned
	add := func(shown string, named bool) {
		p := planned{ref: grep.FileRef{Path: shown, Named: named}, key: printer.SortKey{Shown: shown}}
		if timed {
			p.key.Time, p.key.HasTime = fileTime(shown, kind)
		}
		all = append(all, p)
	}
	for _, path := range j.paths {
		o := j.pathOptions(path)
		info, err := searchable(o.Path)
		if err != nil {
			j.out.Flush()
			fmt.Fprintf(j.errOut, "gopi grep: %s: %s\n", o.Path, ErrnoText(err))
			missing = true
			continue
		}
		if !info.IsDir() {
			add(path, true)
			continue
		}
		if err := grep.EachListed(ctx, o, func(f string, denied bool) error {
			if denied { // a directory the walk could not list: named, as ripgrep does
				j.reportDenied(printer.DisplayPath(path, f, false))
				missing = true
				return nil
			}
			add(printer.DisplayPath(path, f, false), false)
			return nil
		}); err != nil {
			return nil, missing, err
		}
	}
	slices.SortStableFunc(all, func(a, b planned) int { return j.order.Compare(a.key, b.key) })
	files = make([]grep.FileRef, len(all))
	for i, p := range all {
		files[i] = p.ref
	}
	return files, missing, nil
}

// orderTime is the timestamp o sorts by, if any.
func orderTime(o printer.Order) (timeKind, bool) {
	switch o.Key {
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
func (j *job) takeTimes(ctx context.Context, path string, o grep.Options) error {
	kind, ok := orderTime(j.order)
	if !ok || path == StdinPath {
		return nil
	}
	if j.times == nil {
		j.times = map[string]time.Time{}
	}
	isFile := isRegularFile(path)
	return grep.EachFile(ctx, o, func(f string) error {
		shown := printer.DisplayPath(path, f, isFile)
		if t, ok := fileTime(shown, kind); ok {
			j.times[shown] = t
		}
		return nil
	})
}
