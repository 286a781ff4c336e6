package glob

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

// FileType selects which kinds of entries Find returns.
type FileType uint8

// File type filters. Symlinks are their own kind: they are never followed,
// so a link to a directory is a Symlink, not a Dir.
const (
	Any     FileType = iota // every entry
	File                    // regular files
	Dir                     // directories
	Symlink                 // symbolic links
)

// String returns the filter's name.
func (t FileType) String() string {
	switch t {
	case Any:
		return "any"
	case File:
		return "file"
	case Dir:
		return "dir"
	case Symlink:
		return "symlink"
	}
	return "FileType(" + strconv.Itoa(int(t)) + ")"
}

func (t FileType) accepts(e fscache.EntryType) bool {
	switch t {
	case File:
		return e == fscache.TypeFile
	case Dir:
		return e == fscache.TypeDir
	case Symlink:
		return e == fscache.TypeSymlink
	}
	return true
}

// Options configures Find.
type Options struct {
	Pattern     string          // glob relative to the root; "" or "**" matches everything
	IgnoreCase  bool            // match Pattern case-insensitively (see CompileFold)
	FileType    FileType        // kind filter; Any by default
	Hidden      bool            // include dot-files and dot-directories
	Gitignore   bool            // honour ignore files
	Cache       bool            // use the shared scan cache (opt-in)
	NodeModules bool            // walk node_modules like any directory; by default it is pruned unless the pattern names it
	MaxResults  int             // stop after this many matches; 0 = unlimited
	SortByMtime bool            // newest first (ties by path), limit applied after sorting
	NoMTime     bool            // the caller needs no Match.MTime (left 0): an uncached Find then skips the per-entry lstat; ignored with SortByMtime
	Follow      bool            // follow symbolic links (see fscache.Options.Follow)
	MaxDepth    int             // paths at most this many levels below root (1 = its own entries); deeper directories are not walked; 0 = no limit
	OnMatch     func(Match)     // optional; called for each match as it is found, in scan order
	Scanner     fscache.Scanner // scan source (its owner's cache); nil walks afresh, storing nothing
}

// Match is one path that matched.
type Match struct {
	Path  string            // slash-separated, relative to Result.Root
	Type  fscache.EntryType // from lstat
	MTime int64             // modification time, Unix milliseconds
}

// Result is the outcome of Find.
type Result struct {
	Matches      []Match       // in scan order, or newest first with SortByMtime
	LimitReached bool          // more matches existed than MaxResults
	Root         string        // canonical absolute search root
	CacheAge     time.Duration // age of the scan used; 0 for a fresh walk
}

// cancelEvery is how many entries are filtered between context checks: a
// check costs an atomic load and a select, filtering an entry ~20ns.
const cancelEvery = 4096

// Find lists the entries under root whose relative path matches
// opts.Pattern. root may be relative to the working directory; errors for
// a missing or non-directory root come from fscache.ResolveSearchPath.
//
// node_modules is walked only when the pattern mentions it or
// opts.NodeModules is set. With
// SortByMtime every match is collected and sorted before MaxResults is
// applied, so OnMatch then sees all matches, not just the returned ones.
func Find(ctx context.Context, root string, opts Options) (*Result, error) {
	compile := Compile
	if opts.IgnoreCase {
		compile = CompileFold
	}
	pat, err := compile(opts.Pattern)
	if err != nil {
		return nil, err
	}
	dir, err := resolveRoot(opts.Scanner, root)
	if err != nil {
		return nil, err
	}
	lookup := fscache.Lookup{Scanner: opts.Scanner, Root: dir, UseCache: opts.Cache, NoStat: opts.NoMTime && !opts.SortByMtime, Options: fscache.Options{
		Hidden:          opts.Hidden,
		Gitignore:       opts.Gitignore,
		SkipNodeModules: !opts.NodeModules && !pat.MentionsNodeModules(),
		Follow:          opts.Follow,
		MaxDepth:        opts.MaxDepth,
	}}
	if opts.SortByMtime && !opts.Cache {
		return collectNewest(ctx, lookup, dir, pat, &opts)
	}
	scan, err := lookup.First(ctx)
	if err != nil {
		return nil, err
	}
	res, err := filter(ctx, scan, pat, &opts)
	if err != nil {
		return nil, err
	}
	if len(res.Matches) == 0 {
		fresh, err := lookup.RecheckEmpty(ctx, scan)
		if err != nil {
			return nil, err
		}
		if fresh != nil {
			if res, err = filter(ctx, fresh, pat, &opts); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// errEnough stops Each's walk once fn asked for no more.
var errEnough = errors.New("glob: enough matches")

// Each is Find handing every match to fn as the walk finds it, in scan
// order, without collecting them: the first path of a walk of a large
// tree arrives at once and memory does not grow with the tree. Without
// opts.Cache the walk streams (entries arrive while it goes on). fn
// returns false to stop; a non-nil error from fn stops and is returned.
// opts.SortByMtime, MaxResults and OnMatch are not used (a caller that
// needs an order collects with Find).
func Each(ctx context.Context, root string, opts Options, fn func(Match) (more bool, err error)) error {
	compile := Compile
	if opts.IgnoreCase {
		compile = CompileFold
	}
	pat, err := compile(opts.Pattern)
	if err != nil {
		return err
	}
	dir, err := resolveRoot(opts.Scanner, root)
	if err != nil {
		return err
	}
	lookup := fscache.Lookup{Scanner: opts.Scanner, Root: dir, UseCache: opts.Cache, NoStat: opts.NoMTime, Options: fscache.Options{
		Hidden:          opts.Hidden,
		Gitignore:       opts.Gitignore,
		SkipNodeModules: !opts.NodeModules && !pat.MentionsNodeModules(),
		Follow:          opts.Follow,
		MaxDepth:        opts.MaxDepth,
	}}
	_, err = lookup.Stream(ctx, func(e fscache.Entry) error {
		if !opts.FileType.accepts(e.Type) || !pat.Match(e.Path) {
			return nil
		}
		more, err := fn(Match{Path: e.Path, Type: e.Type, MTime: e.MTime})
		if err == nil && !more {
			err = errEnough
		}
		return err
	}, nil)
	if errors.Is(err, errEnough) {
		return nil
	}
	return err
}

// collectNewest is an uncached Find with SortByMtime: the matches are
// collected as the walk streams its entries and then sorted, so what is
// held is the matches, not every entry of the tree (a scan of / held
// every path of the disk to sort a few).
func collectNewest(ctx context.Context, lookup fscache.Lookup, dir string, pat *Pattern, opts *Options) (*Result, error) {
	res := &Result{Root: dir}
	if _, err := lookup.Stream(ctx, func(e fscache.Entry) error {
		if !opts.FileType.accepts(e.Type) || !pat.Match(e.Path) {
			return nil
		}
		m := Match{Path: e.Path, Type: e.Type, MTime: e.MTime}
		res.Matches = append(res.Matches, m)
		if opts.OnMatch != nil {
			opts.OnMatch(m)
		}
		return nil
	}, nil); err != nil {
		return nil, err
	}
	sortNewest(res, opts.MaxResults)
	return res, nil
}

// sortNewest orders res's matches newest first (ties by path) and applies
// the limit.
func sortNewest(res *Result, limit int) {
	SortNewest(res.Matches)
	if limit > 0 && len(res.Matches) > limit {
		res.Matches = res.Matches[:limit]
		res.LimitReached = true
	}
}

// SortNewest orders matches newest first, ties by path: the order of
// Options.SortByMtime.
func SortNewest(ms []Match) {
	slices.SortFunc(ms, func(a, b Match) int {
		if c := cmp.Compare(b.MTime, a.MTime); c != 0 {
			return c
		}
		return cmp.Compare(a.Path, b.Path)
	})
}

// filter applies the pattern, type filter, limit and ordering to one scan.
func filter(ctx context.Context, scan *fscache.Scan, pat *Pattern, opts *Options) (*Result, error) {
	res := &Result{Root: scan.Root, CacheAge: scan.Age}
	limit := opts.MaxResults
	if opts.SortByMtime {
		limit = 0 // collect everything, cut after sorting
	}
	for i := range scan.Entries {
		if i%cancelEvery == cancelEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		e := &scan.Entries[i]
		if !opts.FileType.accepts(e.Type) || !pat.Match(e.Path) {
			continue
		}
		if limit > 0 && len(res.Matches) == limit {
			res.LimitReached = true
			break
		}
		m := Match{Path: e.Path, Type: e.Type, MTime: e.MTime}
		res.Matches = append(res.Matches, m)
		if opts.OnMatch != nil {
			opts.OnMatch(m)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.SortByMtime {
		sortNewest(res, opts.MaxResults)
	}
	return res, nil
}
