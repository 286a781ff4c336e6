package index

import (
	"context"
	"unicode/utf8"
)

// View is an open index answering for one walk: the files a walk of a
// directory lists, all of them (Files) or those that may hold some text
// (Query, Holding). It reads one snapshot of the index; files changed
// since they were indexed are always among the answers (their text is
// checked by whoever reads them). Made by Finder.View.
type View struct {
	ix    *Index
	scope Scope
}

// MaxIndexedSize is the size above which files are not indexed (they are
// always among the answers, read directly).
func (v *View) MaxIndexedSize() int64 { return v.ix.o.maxFileSize() }

// Watched reports whether a watcher vouched for the index when the View
// was opened (no file of the tree was stat'ed).
func (v *View) Watched() bool { return v.ix.watched }

// Close releases the index.
func (v *View) Close() error { return v.ix.Close() }

// Files lists every file the walk lists, relative to the directory of the
// View, slash-separated, in the walk's order.
func (v *View) Files(ctx context.Context) ([]string, error) {
	return v.ix.Candidates(ctx, allQuery(), v.scope)
}

// Query lists, in the walk's order, the files that may satisfy q.
func (v *View) Query(ctx context.Context, q *Query) ([]string, error) {
	return v.ix.Candidates(ctx, q, v.scope)
}

// Holding lists, in the walk's order, the files that may hold every text
// of at least one of the sets (see TextQuery).
func (v *View) Holding(ctx context.Context, sets [][]string) ([]string, error) {
	return v.ix.Candidates(ctx, TextQuery(sets), v.scope)
}

// TextQuery is the query of the files holding, for at least one of the
// sets, every text of it (as bytes, case-sensitively). A set with no text
// of three bytes or more holds for every file, as does no set at all:
// the query is then "all". A text with U+FFFD (what a lossy conversion
// leaves) is not used.
func TextQuery(sets [][]string) *Query {
	if len(sets) == 0 {
		return allQuery()
	}
	q := noneQuery()
	for _, set := range sets {
		a := allQuery()
		for _, text := range set {
			if containsRuneError(text) {
				continue
			}
			for i := 0; i+3 <= len(text); i++ {
				a = and(a, triQuery(trigramOf(text[i:i+3])))
			}
		}
		q = or(q, a)
	}
	return q
}

func containsRuneError(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError {
			return true
		}
	}
	return false
}
