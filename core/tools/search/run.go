package search

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/search/glob"
	"github.com/gopi-agent/gopi/search/grep"
)

// query is a validated search.
type query struct {
	pattern       string
	ignore        bool
	gitignore     bool
	before, after int
	skip          int
}

// hit is one engine match with the file it belongs to.
type hit struct {
	abs       string // absolute file path
	immutable bool
	grep.Match
}

// found is the preselection of a search.
type found struct {
	hits       []hit // path order, then line order
	limitCut   bool  // the preselection limit cut the results
	singleFile bool  // one target, and it is a file: no headings, no round-robin
}

// run searches every target and merges the results.
func (t *Tool) run(ctx context.Context, q query, targets []target) (*found, error) {
	f := &found{singleFile: len(targets) == 1 && !targets[0].Info.IsDir()}
	if len(targets) == 1 {
		hits, cut, err := t.searchOne(ctx, q, targets[0], q.skip, PreselectLimit)
		if err != nil {
			return nil, err
		}
		f.hits, f.limitCut = hits, cut
		return f, nil
	}
	seen := map[string]bool{}
	for _, tg := range targets {
		hits, cut, err := t.searchOne(ctx, q, tg, 0, q.skip+PreselectLimit)
		if err != nil {
			return nil, err
		}
		f.limitCut = f.limitCut || cut
		for _, h := range hits {
			key := h.abs + "\x00" + itoa(h.Line)
			if !seen[key] {
				seen[key] = true
				f.hits = append(f.hits, h)
			}
		}
	}
	slices.SortStableFunc(f.hits, func(a, b hit) int {
		if c := cmp.Compare(a.abs, b.abs); c != 0 {
			return c
		}
		return cmp.Compare(a.Line, b.Line)
	})
	f.hits = f.hits[min(q.skip, len(f.hits)):]
	if len(f.hits) > PreselectLimit {
		f.hits, f.limitCut = f.hits[:PreselectLimit], true
	}
	return f, nil
}

// searchOne runs the engine on one target.
func (t *Tool) searchOne(ctx context.Context, q query, tg target, offset, limit int) ([]hit, bool, error) {
	opts := grep.DefaultOptions(q.pattern, tg.Base)
	opts.Glob = tg.Glob
	opts.IgnoreCase = q.ignore
	opts.Gitignore = q.gitignore
	opts.Hidden = true
	opts.Cache = false
	opts.ContentCache = t.env.Caches.ContentCache()
	opts.ContextBefore, opts.ContextAfter = q.before, q.after
	opts.MaxColumns = tool.DefaultMaxColumn
	opts.Offset, opts.Limit = offset, limit
	opts.Mode = grep.ModeContent
	indexed := false
	if f := t.env.Caches.IndexFinder(); f != nil && tg.Info.IsDir() {
		// A tree with a search index: only the files it says can match
		// are read (the same hits as the walk).
		rel, ok, err := f.Candidates(ctx, tg.Base, opts.Matcher, opts.Scope)
		if err == nil && ok {
			indexed = true
			opts.Files = make([]grep.FileRef, len(rel))
			for i, r := range rel {
				opts.Files[i] = grep.FileRef{Path: filepath.Join(tg.Base, filepath.FromSlash(r))}
			}
		}
	}
	res, err := grep.Search(ctx, opts)
	if err != nil {
		var se *glob.SyntaxError
		switch {
		case errors.Is(err, context.Canceled):
			return nil, false, tool.ErrAborted
		case errors.As(err, &se):
			return nil, false, tool.Errorf("Invalid glob in %q: %v", tg.Input, err)
		}
		return nil, false, &tool.Error{Msg: err.Error(), Err: err}
	}
	dir := tg.Info.IsDir()
	hits := make([]hit, len(res.Matches))
	for i, m := range res.Matches {
		abs := tg.Base
		switch {
		case indexed: // the files were named by their absolute paths
			abs = m.Path
		case dir:
			abs = filepath.Join(tg.Base, filepath.FromSlash(m.Path))
		}
		hits[i] = hit{abs: abs, immutable: tg.immutable, Match: m}
	}
	return hits, res.LimitReached, nil
}

// roundRobin picks at most n hits, taking each file's first hit, then each
// file's second, and so on; the picks keep path-then-line order.
func roundRobin(hits []hit, n int) []hit {
	if len(hits) <= n {
		return hits
	}
	type span struct{ start, end int }
	var files []span
	for i := range hits {
		if i == 0 || hits[i].abs != hits[i-1].abs {
			files = append(files, span{i, i})
		}
		files[len(files)-1].end = i + 1
	}
	keep := make([]bool, len(hits))
	picked := 0
	for round := 0; picked < n; round++ {
		progressed := false
		for _, f := range files {
			if f.start+round < f.end && picked < n {
				keep[f.start+round] = true
				picked++
				progressed = true
			}
		}
		if !progressed {
			break
		}
	}
	out := make([]hit, 0, n)
	for i, h := range hits {
		if keep[i] {
			out = append(out, h)
		}
	}
	return out
}
