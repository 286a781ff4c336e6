package ast

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// DefaultMaxFileSize is the largest file searched (bigger ones become
// parse issues): generated files beyond this are rarely worth the parse.
const DefaultMaxFileSize = 16 << 20

// SearchRequest is one structural search.
type SearchRequest struct {
	Scope
	Patterns    []string // at least one; duplicates are searched once
	Lang        string   // canonical name or alias; "" = infer per file
	Strictness  astgrep.Strictness
	Offset      int   // matches skipped after sorting
	Limit       int   // matches returned at most; <= 0 = all
	Captures    bool  // collect metavariable captures
	NoPrefilter bool  // parse every file (for tests and comparisons)
	MaxFileSize int64 // 0 = DefaultMaxFileSize; < 0 = no limit
	Timeout     time.Duration
}

// Match is one match, with its file.
type Match struct {
	Path       string // display path
	Abs        string
	Lang       string
	Pattern    string
	Start, End astgrep.Pos
	Text       string
	Lines      string // the whole source lines of the match
	Captures   []astgrep.Capture
}

// SearchResult is the outcome of a search.
type SearchResult struct {
	Matches          []Match // the requested page, sorted by path then position
	TotalMatches     int     // before offset/limit
	FilesWithMatches int
	FilesSearched    int // candidate files of a searchable language
	LimitReached     bool
	ParseIssues      []ParseIssue // deduplicated, sorted by path
	MissingPaths     []string     // path entries that did not exist (others did)
	Languages        []string     // languages searched
	// Unsupported counts files left out because their language's grammar
	// is not built in, by canonical language name.
	Unsupported map[string]int
}

// Search runs a structural search.
func Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	var rules []astgrep.Rule
	seen := map[string]bool{}
	for _, p := range req.Patterns {
		p = strings.TrimSpace(p)
		if !seen[p] {
			seen[p] = true
			rules = append(rules, astgrep.Rule{Pattern: p})
		}
	}
	if len(rules) == 0 {
		rules = append(rules, astgrep.Rule{})
	}
	pl, err := prepare(ctx, req.Scope, req.Lang, rules, req.Strictness, false)
	if err != nil {
		return nil, err
	}
	defer pl.close()
	opts := astgrep.Options{Captures: req.Captures, NoPrefilter: req.NoPrefilter, MaxFileSize: maxSize(req.MaxFileSize)}
	results, err := pl.search(ctx, opts, req.Timeout)
	if err != nil {
		return nil, err
	}
	out := &SearchResult{FilesSearched: pl.searched(), MissingPaths: pl.missing, Languages: pl.langs, Unsupported: pl.unsupported}
	issues := pl.issues
	var all []Match
	for f := range pl.outcomes(results, &issues) {
		c, m, r := f.cand, f.matcher, f.result
		if len(r.Matches) > 0 {
			out.FilesWithMatches++
		}
		for _, nm := range r.Matches {
			all = append(all, Match{
				Path: c.display, Abs: c.abs, Lang: m.Lang(), Pattern: m.Rules()[nm.Rule].Pattern,
				Start: nm.Start, End: nm.End, Text: nm.Text, Lines: nm.Lines, Captures: nm.Captures,
			})
		}
	}
	slices.SortStableFunc(all, func(a, b Match) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Start.Offset != b.Start.Offset {
			return a.Start.Offset - b.Start.Offset
		}
		return a.End.Offset - b.End.Offset
	})
	out.TotalMatches = len(all)
	lo := min(max(req.Offset, 0), len(all))
	hi := len(all)
	// Compared as a count left rather than lo+Limit, which overflows for
	// a huge Limit.
	if req.Limit > 0 && req.Limit < hi-lo {
		hi = lo + req.Limit
		out.LimitReached = true
	}
	out.Matches = all[lo:hi]
	out.ParseIssues = dedupeIssues(issues)
	return out, nil
}

func maxSize(v int64) int64 {
	switch {
	case v == 0:
		return DefaultMaxFileSize
	case v < 0:
		return 0
	}
	return v
}

// dedupeIssues sorts issues (language-wide first) and drops repeats.
func dedupeIssues(in []ParseIssue) []ParseIssue {
	slices.SortStableFunc(in, func(a, b ParseIssue) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.Compact(in)
}
