// Package find is the find tool: it lists files whose paths match globs,
// newest first, over the shared scan cache (search/glob).
//
// Each entry of paths is a file (returned as is), a directory (searched
// with an implicit "**/*") or a glob (see package pathspec). Several
// entries are searched one by one and merged; entries whose base does not
// exist are skipped and reported, unless all are missing. Results are
// files only, honour .gitignore, include hidden files unless told not to,
// and are sorted by modification time, newest first, then cut to limit.
// A search runs at most 5 seconds and never starts at the filesystem root.
package find

import (
	"cmp"
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/pathspec"
	"github.com/gopi-agent/gopi/search/find"
	"github.com/gopi-agent/gopi/search/glob"
	"github.com/gopi-agent/gopi/search/grep"
)

// Defaults and caps.
const (
	DefaultLimit   = 1000                   // paths returned when no limit is given
	Timeout        = 5 * time.Second        // longest a find may run
	updateInterval = 200 * time.Millisecond // minimum gap between progress updates
)

const description = `Find files by path: each entry of paths is a glob ("**/*.go", "src/*.ts", "*_test.go"), a
directory (everything below it) or a file. A glob without a directory is searched recursively from
the working directory. Results are file paths, newest first, respecting .gitignore; hidden files
are included unless hidden is false. Use search instead to match file contents.`

// Tool is the find tool bound to a session.
type Tool struct {
	env     *tool.Env
	timeout time.Duration // longest a find may run; Timeout, shortened by tests
}

// New returns the find tool for env.
func New(env *tool.Env) tool.Tool { return &Tool{env: env, timeout: Timeout} }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "find",
		Label:       "Find",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"paths":  tool.Array(tool.String(""), "Globs, directories or files to search; at least one"),
			"hidden": {Type: "boolean", Description: "Include hidden files and directories (default true)", Default: true},
			"limit":  {Type: "number", Description: "Most paths to return (default 1000)", Default: DefaultLimit},
		}, "paths"),
		Concurrency: tool.Shared,
		ReadOnly:    true,
	}
}

// Details is the structured part of a find result.
type Details struct {
	ScopePath          string           `json:"scopePath"`                    // searched roots, as shown
	FileCount          int              `json:"fileCount"`                    // paths returned
	Files              []string         `json:"files"`                        // the paths returned
	Truncated          bool             `json:"truncated,omitempty"`          // the limit or the byte cap cut the list
	ResultLimitReached bool             `json:"resultLimitReached,omitempty"` // more paths matched than limit
	MissingPaths       []string         `json:"missingPaths,omitempty"`       // skipped entries
	Truncation         *tool.Truncation `json:"truncation,omitempty"`         // byte truncation of the text
}

type args struct {
	Paths  []string `json:"paths"`
	Hidden *bool    `json:"hidden"`
	Limit  *float64 `json:"limit"`
}

// hit is one matched file.
type hit struct {
	path  string // display path
	mtime int64
}

// Execute runs the find.
func (t *Tool) Execute(ctx context.Context, raw tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	var a args
	if err := raw.Decode(&a); err != nil {
		return nil, err
	}
	limit := DefaultLimit
	if a.Limit != nil {
		if math.IsNaN(*a.Limit) || math.IsInf(*a.Limit, 0) || math.Floor(*a.Limit) < 1 {
			return nil, tool.Errorf("Limit must be a positive number")
		}
		limit = int(min(math.Floor(*a.Limit), float64(math.MaxInt32)))
	}
	hidden := a.Hidden == nil || *a.Hidden
	if len(a.Paths) == 0 {
		return nil, tool.Errorf("`paths` must contain non-empty globs or paths")
	}
	for _, p := range a.Paths {
		if pathspec.Normalize(p) == "" {
			return nil, tool.Errorf("`paths` must contain non-empty globs or paths")
		}
	}
	specs, err := pathspec.Parse(t.env, a.Paths)
	if err != nil {
		return nil, err
	}
	present, missing := pathspec.Partition(specs)
	if len(specs) == 1 && len(missing) == 1 {
		return nil, tool.Errorf("Path not found: %s", specs[0].Input)
	}
	if len(present) == 0 {
		return nil, tool.Errorf("Path not found: %s", strings.Join(missing, ", "))
	}
	for _, s := range present {
		if s.Base == "/" {
			return nil, tool.Errorf("Searching from root directory '/' is not allowed")
		}
		if s.Glob != "" && !s.Info.IsDir() {
			return nil, tool.Errorf("Path is not a directory: %s", t.env.DisplayPath(s.Base))
		}
	}

	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	prog := &progress{onUpdate: onUpdate}
	var hits []hit
	limitReached := false
	seen := map[string]bool{}
	for _, s := range present {
		found, more, err := t.findOne(ctx, s, hidden, limit, prog)
		if err != nil {
			return nil, err
		}
		limitReached = limitReached || more
		for _, h := range found {
			if !seen[h.path] {
				seen[h.path] = true
				hits = append(hits, h)
			}
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.mtime, a.mtime); c != 0 {
			return c
		}
		return cmp.Compare(a.path, b.path)
	})
	if len(hits) > limit {
		hits, limitReached = hits[:limit], true
	}

	d := &Details{ScopePath: t.scope(present), MissingPaths: missing, ResultLimitReached: limitReached, Files: []string{}}
	for _, h := range hits {
		d.Files = append(d.Files, h.path)
	}
	d.FileCount = len(d.Files)
	var text string
	if len(hits) == 0 {
		text = "No files found matching pattern"
	} else {
		tr := tool.TruncateHead(strings.Join(d.Files, "\n"), tool.Limits{MaxLines: tool.NoLineLimit})
		text = tr.Content
		if tr.Truncated {
			d.Truncation = &tr
			d.Files = d.Files[:tr.OutputLines]
			d.FileCount = len(d.Files)
			text += "\n\n[Output cut at " + tool.FormatSize(tool.DefaultMaxBytes) + "; " +
				"narrow the globs to see the rest.]"
		}
		if limitReached {
			text += "\n\n[Result limit of " + itoa(limit) + " paths reached; narrow the globs or raise limit.]"
		}
	}
	d.Truncated = limitReached || d.Truncation != nil
	if note := pathspec.SkippedNote(missing); note != "" {
		text += "\n" + note
	}
	return tool.TextResult(text, d), nil
}

// findOne searches one entry and returns its matches (display paths).
func (t *Tool) findOne(ctx context.Context, s *pathspec.Spec, hidden bool, limit int, prog *progress) ([]hit, bool, error) {
	if s.Glob == "" && !s.Info.IsDir() {
		return []hit{{path: t.env.DisplayPath(s.Base), mtime: s.Info.ModTime().UnixMilli()}}, false, nil
	}
	pattern := s.Glob
	if pattern == "" {
		pattern = "**/*"
	}
	if hits, more, ok := t.fromIndex(ctx, s, pattern, hidden, limit, prog); ok {
		return hits, more, nil
	}
	res, err := glob.Find(ctx, s.Base, glob.Options{
		Pattern:     pattern,
		FileType:    glob.File,
		Hidden:      hidden,
		Gitignore:   true,
		Cache:       true,
		Scanner:     t.env.Caches.Scanner(),
		MaxResults:  limit,
		SortByMtime: true,
		OnMatch: func(m glob.Match) {
			prog.add(t.env.DisplayPath(filepath.Join(s.Base, filepath.FromSlash(m.Path))))
		},
	})
	if err != nil {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return nil, false, tool.Errorf("find timed out after 5s")
		case errors.Is(err, context.Canceled):
			return nil, false, tool.ErrAborted
		}
		var se *glob.SyntaxError
		if errors.As(err, &se) {
			return nil, false, tool.Errorf("Invalid glob %q: %v", s.Input, err)
		}
		return nil, false, err
	}
	out := make([]hit, len(res.Matches))
	for i, m := range res.Matches {
		// Join with the base as given: Root is canonical and may differ by symlinks.
		out[i] = hit{path: t.env.DisplayPath(filepath.Join(s.Base, filepath.FromSlash(m.Path))), mtime: m.MTime}
	}
	return out, res.LimitReached, nil
}

// fromIndex is findOne answered from the persistent index of the tree
// (the session's index finder), when one answers exactly what the walk
// would list; ok is false otherwise and the caller walks. Each file found
// is stat'ed for its modification time, as the walk does.
func (t *Tool) fromIndex(ctx context.Context, s *pathspec.Spec, pattern string, hidden bool, limit int, prog *progress) (hits []hit, limitReached, ok bool) {
	ix := t.env.Caches.IndexFinder()
	if ix == nil {
		return nil, false, false
	}
	pat, err := glob.Compile(pattern)
	if err != nil {
		return nil, false, false // the walk reports it
	}
	ms, ok, err := find.IndexedFiles(ctx, ix, s.Base, pat, grep.Scope{Hidden: hidden, Gitignore: true, NodeModules: pat.MentionsNodeModules()}, true)
	if !ok || err != nil {
		return nil, false, false
	}
	display := func(m glob.Match) string { return t.env.DisplayPath(filepath.Join(s.Base, filepath.FromSlash(m.Path))) }
	for _, m := range ms {
		prog.add(display(m))
	}
	glob.SortNewest(ms)
	if limit > 0 && len(ms) > limit {
		ms, limitReached = ms[:limit], true
	}
	hits = make([]hit, len(ms))
	for i, m := range ms {
		hits[i] = hit{path: display(m), mtime: m.MTime}
	}
	return hits, limitReached, true
}

// scope renders the searched roots.
func (t *Tool) scope(specs []*pathspec.Spec) string {
	parts := make([]string, len(specs))
	for i, s := range specs {
		p := t.env.DisplayPath(s.Base)
		if s.Glob != "" {
			p = strings.TrimSuffix(p, "/") + "/" + s.Glob
			p = strings.TrimPrefix(p, "./")
		}
		parts[i] = p
	}
	return strings.Join(parts, ", ")
}

// progress sends throttled snapshots of the paths found so far.
type progress struct {
	onUpdate tool.UpdateFunc

	mu    sync.Mutex
	found []string
	last  time.Time
}

func (p *progress) add(path string) {
	if p.onUpdate == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.found = append(p.found, path)
	if now := time.Now(); now.Sub(p.last) >= updateInterval {
		p.last = now
		p.onUpdate(tool.TextResult(strings.Join(p.found, "\n"), nil))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
