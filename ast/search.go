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
	// OnMatch, when set, receives the matches of the requested page in
	// order (path, then position) while the search runs, on the calling
	// goroutine, instead of SearchResult.Matches: a file's matches are
	// handed over as soon as every earlier file is done, so the results
	// of a whole tree are never held at once. An error stops the search
	// and is returned.
	OnMatch func(Match) error
	// Rewrite, when not nil, is a rewrite template for Patterns ("" deletes
	// the match): every Match then carries the edit it would make
	// (Match.Edit), for previews such as `gopi ast run -r --json`.
	// Nothing is written.
	Rewrite *string
	// rules, when set (by Scan), are searched instead of Patterns; with
	// edits, the fix of each (a Rewrite, or the rule document's) is
	// computed into Match.Edit.
	rules []astgrep.Rule
	edits bool
}

// Match is one match, with its file.
type Match struct {
	Path       string // display path
	Abs        string
	Lang       string
	Pattern    string // the pattern that matched (a rule document's: the rule's id)
	Start, End astgrep.Pos
	Text       string
	Lines      string // the whole source lines of the match
	Captures   []astgrep.Capture
	Edit       *astgrep.Edit // the rewrite of the match, when the request asked for one
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
	rules := req.rules
	seen := map[string]bool{}
	for _, p := range req.Patterns {
		p = strings.TrimSpace(p)
		if !seen[p] {
			seen[p] = true
			r := astgrep.Rule{Pattern: p}
			if req.Rewrite != nil {
				r.Rewrite, r.HasRewrite = *req.Rewrite, true
			}
			rules = append(rules, r)
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
	pl.narrow(ctx, req.Strictness, req.NoPrefilter, maxSize(req.MaxFileSize))
	opts := astgrep.Options{Captures: req.Captures, NoPrefilter: req.NoPrefilter, MaxFileSize: maxSize(req.MaxFileSize), Cache: req.ParseCache.Native(),
		Edits: req.Rewrite != nil || req.edits}
	out := &SearchResult{FilesSearched: pl.searched(), MissingPaths: pl.missing, Languages: pl.langs, Unsupported: pl.unsupported}
	issues := pl.issues
	offset := max(req.Offset, 0)
	// take handles the n-th match (0-based, in order): skipped before the
	// page, kept or handed to OnMatch inside it, only counted after it.
	take := func(m Match) error {
		n := out.TotalMatches
		out.TotalMatches++
		switch {
		case n < offset:
			return nil
		case req.Limit > 0 && n-offset >= req.Limit:
			out.LimitReached = true
			return nil
		case req.OnMatch != nil:
			return req.OnMatch(m)
		}
		out.Matches = append(out.Matches, m)
		return nil
	}
	err = streamNative(ctx, pl.cands, pl.matcherOf, opts, req.Timeout, func(i int, r astgrep.FileResult) error {
		c, m := pl.cands[i], pl.matchers[i]
		if is, ok := fileIssue(c, r); ok {
			issues = append(issues, is)
		}
		if len(r.Matches) > 0 {
			out.FilesWithMatches++
		}
		// The native side sorts a file's matches by position; candidates
		// come sorted by path.
		for _, nm := range r.Matches {
			err := take(Match{
				Path: c.display, Abs: c.abs, Lang: m.Lang(), Pattern: m.Rules()[nm.Rule].Pattern,
				Start: nm.Start, End: nm.End, Text: nm.Text, Lines: nm.Lines, Captures: nm.Captures, Edit: nm.Edit,
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
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
