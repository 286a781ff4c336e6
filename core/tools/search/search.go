// Package search is the search tool: regex search of file contents over
// the grep engine (search/grep), with results anchored for editing.
//
// Entries of paths are files, directories or globs (package pathspec) or
// artifact:// references. One entry is one engine call, which applies skip
// and the 500-match preselection itself; several entries are searched one
// by one and merged in path order, skip applied to the merged list.
// Entries whose base is missing are skipped and reported unless all are.
//
// Of the preselected matches at most 100 are shown: the first 100 of a
// single file, or for a wider search a round-robin over files (every
// file's first match, then every file's second, …) so one file cannot fill
// the page. Matches are printed as `*<ref>|line`, context lines (1 before,
// 3 after by default) as ` <ref>|line`, grouped under `# <path>` headings
// when several files can match; the ref is the hashline anchor in hashline
// edit mode and the line number otherwise. Every line shown whole from an
// editable file is recorded in the session's read cache.
package search

import (
	"context"
	"math"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// Caps.
const (
	VisibleLimit   = 100              // matches shown per call
	PreselectLimit = VisibleLimit * 5 // matches taken from the engine per call
)

// description is the model-facing description; refHashline or
// refLineNumber completes it for the session's display mode.
const description = `Search file contents with a regular expression (Rust regex syntax). paths lists files,
directories or globs ("src", "**/*.go", "src/*.ts"); hidden files are searched, .gitignore is
respected unless gitignore is false. Matching lines come as "*REF|line", context lines as
" REF|line", grouped under "# path"; REF is `

const (
	refHashline    = `the line's anchor, which edit takes as it is.`
	refLineNumber  = `the line number.`
	descriptionEnd = ` At most 100 matches are shown, spread
across files; pass skip to page. Escape literal braces and parentheses (e.g. "interface\{\}"); a
pattern matches across lines only if it contains \n or a newline.`
)

// Tool is the search tool bound to a session.
type Tool struct{ env *tool.Env }

// New returns the search tool for env.
func New(env *tool.Env) tool.Tool { return &Tool{env: env} }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "search",
		Label:       "Search",
		Description: t.description(),
		Parameters: tool.Object(map[string]*tool.Schema{
			"pattern":   tool.String("Regular expression to search for"),
			"paths":     tool.Array(tool.String(""), "Files, directories or globs to search; at least one"),
			"i":         {Type: "boolean", Description: "Case-insensitive matching (default false)", Default: false},
			"gitignore": {Type: "boolean", Description: "Respect .gitignore files (default true)", Default: true},
			"skip":      {Type: "number", Description: "Matches to skip, for paging (default 0)", Default: 0},
		}, "pattern", "paths"),
		Concurrency: tool.Shared,
		ReadOnly:    true,
	}
}

// description completes the description for the rows this session shows.
func (t *Tool) description() string {
	ref := refLineNumber
	if t.env.DisplayMode(false, false) == tool.DisplayHashline {
		ref = refHashline
	}
	return description + ref + descriptionEnd
}

// Details is the structured part of a search result.
type Details struct {
	ScopePath          string           `json:"scopePath"`                    // searched roots, as shown
	MatchCount         int              `json:"matchCount"`                   // matches shown
	FileCount          int              `json:"fileCount"`                    // files with shown matches
	Files              []string         `json:"files"`                        // those files, in output order
	FileMatches        []FileMatches    `json:"fileMatches"`                  // shown matches per file
	MatchLimitReached  bool             `json:"matchLimitReached,omitempty"`  // more matches than the 100 shown
	ResultLimitReached bool             `json:"resultLimitReached,omitempty"` // the 500-match preselection was cut
	LinesTruncated     bool             `json:"linesTruncated,omitempty"`     // some lines were cut to 1024 characters
	Truncated          bool             `json:"truncated,omitempty"`          // the text hit the byte cap
	Truncation         *tool.Truncation `json:"truncation,omitempty"`         // byte truncation of the text
	MissingPaths       []string         `json:"missingPaths,omitempty"`       // skipped entries
}

// FileMatches counts the shown matches of one file.
type FileMatches struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

type args struct {
	Pattern   string   `json:"pattern"`
	Paths     []string `json:"paths"`
	I         bool     `json:"i"`
	Gitignore *bool    `json:"gitignore"`
	Skip      *float64 `json:"skip"`
}

// Execute runs the search.
func (t *Tool) Execute(ctx context.Context, raw tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a args
	if err := raw.Decode(&a); err != nil {
		return nil, err
	}
	pattern := strings.TrimSpace(a.Pattern)
	if pattern == "" {
		return nil, tool.Errorf("Pattern must not be empty")
	}
	skip := 0
	if a.Skip != nil {
		if math.IsNaN(*a.Skip) || math.IsInf(*a.Skip, 0) || *a.Skip < 0 {
			return nil, tool.Errorf("Skip must be a non-negative number")
		}
		skip = int(min(math.Floor(*a.Skip), math.MaxInt32))
	}
	targets, missing, err := t.resolveTargets(a.Paths)
	if err != nil {
		return nil, err
	}
	q := query{
		pattern:   pattern,
		ignore:    a.I,
		gitignore: a.Gitignore == nil || *a.Gitignore,
		before:    max(t.env.Settings.SearchContextBefore, 0),
		after:     max(t.env.Settings.SearchContextAfter, 0),
		skip:      skip,
	}
	found, err := t.run(ctx, q, targets)
	if err != nil {
		return nil, err
	}
	return t.render(found, targets, missing), nil
}
