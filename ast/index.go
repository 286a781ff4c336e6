package ast

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/search/glob"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index"
)

// indexScan is a directory scan answered by the persistent index
// (Scope.Index). Its View stays open until the plan is done, so that the
// candidates can then be narrowed, per language, to the files whose text
// holds the literal tokens of the language's rules.
type indexScan struct {
	view    *index.View
	holding map[*astgrep.Matcher]map[string]bool // per matcher: the relative paths that may match; a nil set rules nothing out
}

// scanIndex lists the files of a scan of root from the index; ok is
// false when the index cannot answer exactly what the walk would list
// (none, stale, another walk), and the caller walks. err is set only when
// Scope.Index was asked to refresh the index first and that failed.
func scanIndex(ctx context.Context, sc Scope, given, root string, g *glob.Pattern, skipNodeModules bool) (files []candidate, is *indexScan, ok bool, err error) {
	if sc.Index == nil || sc.NoGitignore {
		return nil, nil, false, nil
	}
	v, ok, err := sc.Index.View(ctx, root, grep.Scope{Hidden: !sc.NoHidden, Gitignore: true, NodeModules: !skipNodeModules})
	if !ok {
		return nil, nil, false, err
	}
	rels, err := v.Files(ctx)
	if err != nil {
		v.Close()
		return nil, nil, false, nil
	}
	is = &indexScan{view: v, holding: map[*astgrep.Matcher]map[string]bool{}}
	prefix := filepath.ToSlash(filepath.Clean(given))
	for _, rel := range rels {
		if g != nil && !g.Match(rel) {
			continue
		}
		display := rel
		if prefix != "." {
			display = path.Join(prefix, rel)
		}
		files = append(files, candidate{
			display: display,
			abs:     root + string(filepath.Separator) + filepath.FromSlash(rel),
			size:    -1, // not read from the index: stat'ed if searched (narrow)
			lang:    InferLanguage(rel),
			rel:     rel,
			ix:      is,
		})
	}
	return files, is, true, nil
}

// mayHold reports whether candidate c, found by an index scan, may hold
// a match of m: false only when the index shows that the file lacks, for
// every rule, one of the rule's literal tokens (the native prefilter's
// literals, the same test a walk makes when it reads the file).
func (is *indexScan) mayHold(ctx context.Context, m *astgrep.Matcher, rel string) bool {
	set, done := is.holding[m]
	if !done {
		set = is.holdingOf(ctx, m)
		is.holding[m] = set
	}
	return set == nil || set[rel]
}

// holdingOf is the set of relative paths the index says may hold some
// rule's literals; nil when it cannot tell.
func (is *indexScan) holdingOf(ctx context.Context, m *astgrep.Matcher) map[string]bool {
	sets, ok := literalSets(m)
	if !ok {
		return nil
	}
	q := index.TextQuery(sets)
	if q.Op == index.OpAll {
		return nil
	}
	files, err := is.view.Query(ctx, q)
	if err != nil {
		return nil
	}
	set := make(map[string]bool, len(files))
	for _, f := range files {
		set[f] = true
	}
	return set
}

// literalSets returns, per rule of m, texts every match of the rule
// holds, from the literal tokens the native matcher filters files with
// (astgrep.Matcher.Describe). Describe joins them with ',' and marks
// identifiers with a trailing `\b`: each piece of the split, without that
// mark, is a substring of a token, so a file lacking one lacks the token
// and the walk's prefilter would skip it too. ok is false when some rule
// is not described (the index then narrows nothing).
func literalSets(m *astgrep.Matcher) ([][]string, bool) {
	infos, err := m.Describe()
	if err != nil {
		return nil, false
	}
	n := len(m.Rules())
	sets := make([][]string, n)
	seen := make([]bool, n)
	for _, in := range infos {
		if in.Rule < 0 || in.Rule >= n {
			return nil, false
		}
		if seen[in.Rule] {
			continue // another parse of the same rule: the same literals
		}
		seen[in.Rule] = true
		for _, lit := range in.Literals {
			sets[in.Rule] = append(sets[in.Rule], strings.TrimSuffix(lit, `\b`))
		}
	}
	for _, s := range seen {
		if !s {
			return nil, false
		}
	}
	return sets, true
}

// prefilters reports whether the native matcher filters files by their
// literal tokens at strictness s (the levels where every match holds
// them), and whether the request lets it.
func prefilters(s astgrep.Strictness, noPrefilter bool) bool {
	return !noPrefilter && s <= astgrep.Relaxed
}

// narrow marks the candidates found by index scans that the index rules
// out (ruledOut): they count as searched, as on a walk, where the
// prefilter skips them without a parse, but are not read. A file larger
// than maxSize (0: no limit) is never ruled out, since the walk reports
// it as too large whatever it holds: when the index holds the text of
// files that large, the files it would rule out are stat'ed first. The
// files left are stat'ed for their size (the batching uses it).
func (p *plan) narrow(ctx context.Context, strict astgrep.Strictness, noPrefilter bool, maxSize int64) {
	usePrefilter := prefilters(strict, noPrefilter)
	tooLarge := func(c *candidate) bool {
		if maxSize <= 0 || c.ix.view.MaxIndexedSize() <= maxSize {
			return false // every file the index can rule out is within the limit
		}
		info, err := os.Stat(c.abs)
		return err != nil || info.Size() > maxSize
	}
	for i := range p.cands {
		c := &p.cands[i]
		m := p.matchers[i]
		if c.ix == nil || m == nil {
			continue
		}
		if usePrefilter && !c.ix.mayHold(ctx, m, c.rel) && !tooLarge(c) {
			if p.ruledOut == nil {
				p.ruledOut = make([]bool, len(p.cands))
			}
			p.ruledOut[i] = true
			continue
		}
		if info, err := os.Stat(c.abs); err == nil {
			c.size = info.Size()
		} else {
			c.size = 0
		}
	}
}

// matcherOf is the matcher candidate i is read with: nil when it is not
// searched or the index ruled it out.
func (p *plan) matcherOf(i int) *astgrep.Matcher {
	if p.ruledOut != nil && p.ruledOut[i] {
		return nil
	}
	return p.matchers[i]
}
