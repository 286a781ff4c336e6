package astcli

import (
	"context"
	"fmt"
	"time"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// GrepOptions is one `gopi ast grep`.
type GrepOptions struct {
	Scope       ast.Scope // paths ("." at least), hidden and ignore settings, caches
	Pattern     string
	Lang        string // "" = every file, language from its extension
	Strictness  astgrep.Strictness
	JSON        bool // one JSON object per match and line, with captures
	Context     int  // lines of context before and after each match (text only)
	Offset      int  // matches skipped, after sorting by path and position
	Limit       int  // matches printed at most; 0 = all
	NoPrefilter bool // parse every file, even those without the pattern's tokens
	Stats       bool // totals (and unsupported languages) on Stderr
	Timeout     time.Duration
}

// Grep prints every node matching the pattern, in path then position
// order, as the search streams them, so the results of a whole tree are
// never held in memory at once.
func Grep(ctx context.Context, o GrepOptions, out Output) (int, error) {
	w := out.buffer()
	var onMatch func(ast.Match) error
	if o.JSON {
		var line []byte
		onMatch = func(m ast.Match) error {
			line = appendMatchJSON(line[:0], m)
			_, err := w.Write(line)
			return err
		}
	} else {
		pr := &printer{w: w, before: o.Context, after: o.Context}
		onMatch = func(m ast.Match) error { pr.add(m); return nil }
	}
	res, err := ast.Search(ctx, ast.SearchRequest{
		Scope: o.Scope, Patterns: []string{o.Pattern}, Lang: o.Lang, Strictness: o.Strictness,
		Offset: o.Offset, Limit: o.Limit, Captures: o.JSON, NoPrefilter: o.NoPrefilter, Timeout: o.Timeout,
		OnMatch: onMatch,
	})
	if err != nil {
		w.Flush()
		return ExitError, err
	}
	if err := w.Flush(); err != nil {
		return ExitError, err
	}
	reportIssues(out.Stderr, "ast grep", res.ParseIssues, res.MissingPaths)
	if o.Stats {
		fmt.Fprintf(out.Stderr, "%d matches in %d files; %d files searched\n", res.TotalMatches, res.FilesWithMatches, res.FilesSearched)
		for _, note := range ast.UnsupportedNotes(res.Unsupported) {
			fmt.Fprintln(out.Stderr, note)
		}
	}
	if res.TotalMatches == 0 {
		return ExitNoMatch, nil
	}
	return ExitMatch, nil
}
