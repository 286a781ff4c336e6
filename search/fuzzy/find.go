package fuzzy

import (
	"cmp"
	"container/heap"
	"context"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

// DefaultMaxResults is the result cap when Options.MaxResults is 0.
const DefaultMaxResults = 100

// Options configures Find.
type Options struct {
	Query      string          // characters to find in order; "" lists entries in scan order
	Hidden     bool            // include dot-files and dot-directories
	Gitignore  bool            // honour ignore files
	Cache      bool            // use the shared scan cache (opt-in)
	MaxResults int             // result cap; 0 means DefaultMaxResults
	Scanner    fscache.Scanner // scan source (its owner's cache); nil walks afresh, storing nothing
}

// Match is one scored path.
type Match struct {
	Path      string // slash-separated, relative to Result.Root
	IsDir     bool   // the entry is a directory
	Score     int    // alignment score; higher is better (0 for an empty query)
	Positions []int  // byte offsets in Path of the matched characters
}

// Result is the outcome of Find.
type Result struct {
	Matches      []Match       // best first: score desc, then shorter path, then path
	TotalMatches int           // matches before MaxResults was applied
	Root         string        // canonical absolute search root
	CacheAge     time.Duration // age of the scan used; 0 for a fresh walk
}

const (
	// cancelEvery is how many entries a worker scores between context checks.
	cancelEvery = 4096
	// parallelMin is the entry count from which scoring is split across
	// CPUs; below it the goroutine hand-off costs more than it saves.
	parallelMin = 8192
)

// Find scores every entry under root (files and directories, node_modules
// never walked) against opts.Query and returns the best MaxResults.
func Find(ctx context.Context, root string, opts Options) (*Result, error) {
	dir, err := resolveRoot(opts.Scanner, root)
	if err != nil {
		return nil, err
	}
	limit := opts.MaxResults
	if limit <= 0 {
		limit = DefaultMaxResults
	}
	lookup := fscache.Lookup{Scanner: opts.Scanner, Root: dir, UseCache: opts.Cache, NoStat: true,
		Options: fscache.Options{Hidden: opts.Hidden, Gitignore: opts.Gitignore, SkipNodeModules: true}}
	scan, err := lookup.First(ctx)
	if err != nil {
		return nil, err
	}
	m := NewMatcher(opts.Query)
	if m.Empty() {
		return listing(scan, limit), nil
	}
	res, err := rank(ctx, scan, m, limit)
	if err != nil {
		return nil, err
	}
	if res.TotalMatches == 0 {
		fresh, err := lookup.RecheckEmpty(ctx, scan)
		if err != nil {
			return nil, err
		}
		if fresh != nil {
			if res, err = rank(ctx, fresh, m, limit); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// listing answers an empty query: entries in scan order.
func listing(scan *fscache.Scan, limit int) *Result {
	res := &Result{Root: scan.Root, CacheAge: scan.Age, TotalMatches: len(scan.Entries)}
	for _, e := range scan.Entries[:min(limit, len(scan.Entries))] {
		res.Matches = append(res.Matches, Match{Path: e.Path, IsDir: e.Type == fscache.TypeDir})
	}
	return res
}

// hit is a scored entry: an index into the scan and its score.
type hit struct {
	idx   int32
	score int32
}

// better orders hits best first: score desc, shorter path, then path.
func better(es []fscache.Entry, a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	pa, pb := es[a.idx].Path, es[b.idx].Path
	if len(pa) != len(pb) {
		return len(pa) < len(pb)
	}
	return pa < pb
}

// topK keeps the k best hits in a heap whose root is the worst kept.
type topK struct {
	es   []fscache.Entry
	hits []hit
}

func (t *topK) Len() int           { return len(t.hits) }
func (t *topK) Less(i, j int) bool { return better(t.es, t.hits[j], t.hits[i]) }
func (t *topK) Swap(i, j int)      { t.hits[i], t.hits[j] = t.hits[j], t.hits[i] }
func (t *topK) Push(x any)         { t.hits = append(t.hits, x.(hit)) }
func (t *topK) Pop() any {
	h := t.hits[len(t.hits)-1]
	t.hits = t.hits[:len(t.hits)-1]
	return h
}

// offer adds h if it beats the worst kept hit (or there is room).
func (t *topK) offer(h hit, k int) {
	if len(t.hits) < k {
		heap.Push(t, h)
	} else if better(t.es, h, t.hits[0]) {
		t.hits[0] = h
		heap.Fix(t, 0)
	}
}

// rank scores every entry, in parallel chunks when there are many, keeps
// the best limit per chunk, merges them and computes match positions for
// the survivors only.
func rank(ctx context.Context, scan *fscache.Scan, m *Matcher, limit int) (*Result, error) {
	es := scan.Entries
	workers := 1
	if len(es) >= parallelMin {
		workers = min(runtime.GOMAXPROCS(0), len(es)/(parallelMin/2))
	}
	tops := make([]topK, workers)
	counts := make([]int, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	chunk := (len(es) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, len(es))
		tops[w].es = es
		wg.Go(func() {
			var sc Scratch
			for i := lo; i < hi; i++ {
				if (i-lo)%cancelEvery == cancelEvery-1 {
					if errs[w] = ctx.Err(); errs[w] != nil {
						return
					}
				}
				if s, ok := m.Score(es[i].Path, &sc); ok {
					counts[w]++
					tops[w].offer(hit{idx: int32(i), score: int32(s)}, limit)
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Result{Root: scan.Root, CacheAge: scan.Age}
	var all []hit
	for w := range workers {
		res.TotalMatches += counts[w]
		all = append(all, tops[w].hits...)
	}
	slices.SortFunc(all, func(a, b hit) int {
		if better(es, a, b) {
			return -1
		}
		if better(es, b, a) {
			return 1
		}
		return cmp.Compare(a.idx, b.idx)
	})
	all = all[:min(limit, len(all))]
	res.Matches = make([]Match, len(all))
	for i, h := range all {
		e := &es[h.idx]
		_, pos, _ := m.Positions(e.Path)
		res.Matches[i] = Match{Path: e.Path, IsDir: e.Type == fscache.TypeDir, Score: int(h.score), Positions: pos}
	}
	return res, nil
}
