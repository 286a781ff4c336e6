package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/search/grep"
)

// Finder answers a grep search from the index of its directory when one
// is there and fits the search; it is what `gopi grep` is given. The
// zero Walk is not the CLI's: set it.
type Finder struct {
	// DirFor is where the index of the tree at root lives (from core/config).
	DirFor func(root string) string
	// Walk is the walk the CLI's indexes are built with.
	Walk Walk
	// Refresh: bring the index up to date (building it when missing)
	// before using it, instead of walking when it is missing or stale
	// (gopi grep --index).
	Refresh bool
	// Watch: the first search of an indexed tree starts a watcher (Watch)
	// that keeps its index fresh until Close, unless one runs already (an
	// agent session's finder).
	Watch bool
	// ListUnwatched: whole listings (View.Files, gopi find) read the
	// index even when no watcher vouches for it. Without a watcher, opening
	// the index stats every indexed file, which costs more than walking a
	// tree to list it (a narrowing query pays for it, a listing does not),
	// so listings walk unless this or Refresh is set; tests set it to
	// compare the index's listing with the walk's.
	ListUnwatched bool

	mu sync.Mutex
	// watching: the roots whose watcher this finder started, true while
	// it runs or stopped for good; false once it stopped because another
	// process watched the tree (ErrWatched), so that a later search,
	// when that process has ended, starts one again.
	watching map[string]bool
	ctx      context.Context // the watchers' (ended by stop)
	stop     context.CancelFunc
	wg       sync.WaitGroup
}

// startWatch starts the watcher of o's index in the background, once per
// root (again when the last one left it to another process); it ends at
// Close (or at once when another process watches).
func (f *Finder) startWatch(o Options) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.watching[o.Root] {
		return
	}
	if f.watching == nil {
		f.watching = map[string]bool{}
		var ctx context.Context
		ctx, f.stop = context.WithCancel(context.Background())
		f.ctx = ctx
	}
	if f.ctx.Err() != nil {
		return // closed
	}
	f.watching[o.Root] = true
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		// An error (watches used up, the tree moved) leaves the queries
		// to check the tree with stat, as without a watcher.
		if err := Watch(f.ctx, o, nil); errors.Is(err, ErrWatched) {
			f.mu.Lock()
			f.watching[o.Root] = false
			f.mu.Unlock()
		}
	}()
}

// Close stops the watchers the finder started and waits for them. A nil
// Finder has none.
func (f *Finder) Close() {
	if f == nil {
		return
	}
	f.mu.Lock()
	stop := f.stop
	f.mu.Unlock()
	if stop != nil {
		stop()
	}
	f.wg.Wait()
}

// StandardWalk is the walk gopi's indexes are built with: what
// `gopi grep --hidden` reads (ignore files honoured, hidden files and
// node_modules kept); narrower searches take a subset (Scope).
func StandardWalk() Walk { return Walk{Hidden: true, Gitignore: true, NodeModules: true} }

// NewFinder is a Finder of the indexes built with StandardWalk, kept
// where dirFor says.
func NewFinder(dirFor func(root string) string) *Finder {
	return &Finder{DirFor: dirFor, Walk: StandardWalk()}
}

// Options are the index options of the tree at dir.
func (f *Finder) Options(dir string) (Options, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return Options{}, err
	}
	// A tree reached through a symbolic link is the same tree: the index
	// is keyed by the real path, so it is found (and not built again)
	// whichever way the tree is named. The paths a search prints are
	// relative to the directory given, so they keep the name used.
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return Options{Root: root, Dir: f.DirFor(root), Walk: f.Walk}, nil
}

// Candidates returns the files (relative slash paths, in the walk's
// order) of a search of the directory dir for m with scope s that may
// hold a match; ok is false when the index cannot answer it (none, stale,
// another walk or filters, a pattern without a plan): the caller walks.
// err is set only when --index asked for a refresh that failed.
func (f *Finder) Candidates(ctx context.Context, dir string, m grep.Matcher, s grep.Scope) (files []string, ok bool, err error) {
	if m.Invert {
		return nil, false, nil
	}
	q, planned := Plan(grep.EscapeLiteralBraces(m.Pattern), m.IgnoreCase)
	if !planned {
		return nil, false, nil
	}
	v, ok, err := f.View(ctx, dir, s)
	if !ok {
		return nil, false, err
	}
	defer v.Close()
	if files, err = v.Query(ctx, q); err != nil {
		return nil, false, nil
	}
	return files, true, nil
}

// View opens the index that answers for a walk of the directory dir with
// scope s; ok is false when none can (no index, a stale one, another
// walk, filters it cannot apply): the caller walks. err is set only when
// Refresh asked for a refresh that failed. Close the View after use.
func (f *Finder) View(ctx context.Context, dir string, s grep.Scope) (v *View, ok bool, err error) {
	if !f.fits(s) {
		return nil, false, nil
	}
	o, prefix, err := f.locate(dir)
	if err != nil {
		return nil, false, nil
	}
	if prefix != "" && !subtreeFits(prefix, s) {
		return nil, false, nil
	}
	ix, err := Open(ctx, o)
	if f.Refresh && (errors.Is(err, ErrStale) || errors.Is(err, ErrNoIndex)) {
		if _, err := Refresh(ctx, o); err != nil {
			return nil, false, err
		}
		ix, err = Open(ctx, o)
	}
	if f.Watch && (err == nil || errors.Is(err, ErrStale)) {
		f.startWatch(o)
	}
	if err != nil {
		return nil, false, nil
	}
	if ix.deniedBelow(prefix) {
		ix.Close()
		return nil, false, nil // the walk reports the unreadable directory
	}
	filter, err := grep.PathFilter(grep.Options{Scope: s})
	if err != nil {
		ix.Close()
		return nil, false, nil // the walk reports the bad glob or type
	}
	// grep walks node_modules when the glob names it.
	pruned := !s.NodeModules && !strings.Contains(s.Glob, "node_modules")
	return &View{ix: ix, scope: Scope{NoHidden: !s.Hidden, NoNodeModules: pruned, Keep: filter, Prefix: prefix}}, true, nil
}

// locate finds the index of dir: its own, or that of the nearest
// ancestor with one, with dir's path below that root; with none, dir's
// own (which Refresh builds). Refresh keeps to an ancestor's index too:
// a second index of a subtree would duplicate the first.
func (f *Finder) locate(dir string) (o Options, prefix string, err error) {
	if o, err = f.Options(dir); err != nil {
		return o, "", err
	}
	for root := o.Root; ; {
		if _, err := os.Stat(filepath.Join(f.DirFor(root), "index.db")); err == nil {
			rel, err := filepath.Rel(root, o.Root)
			if err != nil {
				return o, "", err
			}
			if rel == "." {
				rel = ""
			}
			return Options{Root: root, Dir: f.DirFor(root), Walk: f.Walk}, filepath.ToSlash(rel), nil
		}
		parent := filepath.Dir(root)
		if parent == root {
			return o, "", nil
		}
		root = parent
	}
}

// subtreeFits: a walk rooted at the directory prefix lists what the
// tree's walk lists below it, unless the directory is one the tree's
// walk leaves out (a hidden one, or one in node_modules, which a walk
// rooted there enters all the same).
func subtreeFits(prefix string, s grep.Scope) bool {
	for _, part := range strings.Split(prefix, "/") {
		if (strings.HasPrefix(part, ".") && !s.Hidden) || (part == "node_modules" && !s.NodeModules) {
			return false
		}
	}
	return true
}

// fits: the scope walks as the index did or less (hidden files or
// node_modules left out, a glob, file types, a depth: filters of the
// listed paths), with nothing the index cannot apply (-g overrides, whose
// whitelists reach files the walk leaves out; a size limit; links).
func (f *Finder) fits(s grep.Scope) bool {
	return (!s.Hidden || f.Walk.Hidden) && s.Gitignore == f.Walk.Gitignore && (!s.NodeModules || f.Walk.NodeModules) &&
		len(s.Overrides) == 0 && s.MaxFileSize == 0 && !s.Follow && s.Files == nil
}
