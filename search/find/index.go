package find

import (
	"context"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/glob"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index"
)

// fromIndex lists the matches of a walk of root from the persistent
// index (Options.Index), in the walk's order; ok is false when the index
// cannot give the walk's answer exactly, and the caller walks. The index
// records regular files only, so it answers only a search for files (-t f
// or -t x) that does not follow links and honours the ignore files (as
// the index's walk does).
func (f *Finder) fromIndex(ctx context.Context, root string) (matches []glob.Match, ok bool, err error) {
	o := &f.o
	if o.Index == nil || o.Fuzzy || o.Follow || !o.Gitignore || f.fileType != glob.File {
		return nil, false, nil
	}
	compile := glob.Compile
	if f.ignoreCase {
		compile = glob.CompileFold
	}
	pat, err := compile(f.glob)
	if err != nil {
		return nil, false, nil // the walk reports it
	}
	matches, ok, err = IndexedFiles(ctx, o.Index, root, pat, grep.Scope{Hidden: o.Hidden, Gitignore: true, NodeModules: true}, o.JSON || o.Newest)
	if ok && o.Newest {
		glob.SortNewest(matches)
	}
	return matches, ok, err
}

// IndexedFiles lists, in the walk's order, the regular files below root
// whose relative path pat matches, as a walk with scope s (hidden files,
// node_modules; ignore files honoured) lists them, from the index ix
// finds for root. ok is false when there is none that answers exactly
// (none, stale, another walk) or when no watcher vouches for it and the
// finder does not ask for it anyway (index.Finder.ListUnwatched,
// Refresh): the caller walks. With mtimes each file
// found is stat'ed now for its modification time (never taken from the
// index); a file that is no longer regular makes ok false. err is set
// only when ix was asked to refresh the index first and that failed.
func IndexedFiles(ctx context.Context, ix *index.Finder, root string, pat *glob.Pattern, s grep.Scope, mtimes bool) (matches []glob.Match, ok bool, err error) {
	v, ok, err := ix.View(ctx, root, s)
	if !ok {
		return nil, false, err
	}
	defer v.Close()
	if !v.Watched() && !ix.Refresh && !ix.ListUnwatched {
		// Opening stat'ed every indexed file: listing them costs more
		// than the walk would (index.Finder.ListUnwatched).
		return nil, false, nil
	}
	files, err := v.Files(ctx)
	if err != nil {
		return nil, false, nil
	}
	for _, p := range files {
		if !pat.Match(p) {
			continue
		}
		m := glob.Match{Path: p, Type: fscache.TypeFile}
		if mtimes {
			info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil || !info.Mode().IsRegular() {
				return nil, false, nil // changed under us: let the walk say
			}
			m.MTime = info.ModTime().UnixMilli()
		}
		matches = append(matches, m)
	}
	return matches, true, nil
}
