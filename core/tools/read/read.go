// Package read is the read tool: one path string selects a local file (a
// window of its lines, anchored for editing), a directory (a shallow tree),
// an archive or one of its members, a SQLite database (tables, a schema, a
// row, a page of rows, a read-only query), a Jupyter notebook (as cell
// text), or an internal resource such as artifact://<id>, with an optional
// line selector suffix (:N, :A-B, :A+C, :raw).
//
// Targets are dispatched through an ordered handler list — host URIs,
// internal URLs, archives, SQLite databases, then local paths (notebooks
// among them); a handler that finds the target is not its kind after all
// passes it on. Later handlers (web URLs, images, documents) slot in ahead
// of the local one.
//
// File text is streamed in 8 KiB chunks: only the shown window is kept in
// memory while every line is counted. A line too long to show whole (over
// 50 KiB) is not held either: its first 8 KiB are kept for the cut display
// and its anchor is hashed as it is read (package linehash). Bounded
// selections get one line of context before and three after on the
// bounded sides; open-ended reads show read.defaultLimit lines (at most
// 3000); the text returned is capped at 50 KiB. Reads past the end answer
// with a hint instead of an error. Every window shown from a local file is
// recorded in the session's read cache, the base for recovering stale
// hashline edits: the whole window with the line count when it reaches the
// end, or, when it holds a cut line, only the lines shown whole.
//
// A long source file read without a selector is shown as a structural
// summary instead of its first page (summary.go): function bodies are
// elided, found by package native/outline.
package read

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Context lines added around an explicit selection, on bounded sides only.
const (
	leadingContext  = 1
	trailingContext = 3
)

// bytesPerLineBudget sizes the streaming budget: max(50 KiB, lines × 512).
const bytesPerLineBudget = 512

// descriptionHead and descriptionTail frame the line-prefix sentence,
// which depends on the session's display mode (see description).
const descriptionHead = `Read a file or list a directory. The path may end with a line selector:
  path:50       from line 50 on
  path:50-80    lines 50 to 80
  path:50+20    20 lines starting at line 50
  path:raw      verbatim text without line prefixes (combinable, e.g. path:50-80:raw)
Lines are 1-indexed.`

const descriptionTail = ` Long files are shown in pages; follow the hint at the end to continue.
Explicit ranges include one line before and three after as context. A directory shows a tree two
levels deep, newest entries first, with sizes and ages. "~" is your home directory; "/" alone is the
working directory. artifact://<id> reads the full output a truncated tool result was saved to;
agent://<id> the full answer of a task subagent; skill://<name> a skill listed in the system prompt
(skill://<name>/<file> a file beside it) and rule://<name> a listed rule. An http(s):// or www. URL is fetched: web pages come
back as markdown under a URL/Content-Type/Method/Notes header, 300 lines at most; url:N pages on
without fetching again. Images (PNG, JPEG, GIF, WebP) are attached for you to look at; PDF, Word,
Excel, PowerPoint, EPUB and RTF files are converted to text.
Archives (.zip, .tar, .tar.gz, .tgz): a.zip lists members, a.zip:dir/f.py reads one (with selectors,
e.g. a.zip:dir/f.py:10-20). SQLite (.db, .sqlite, .sqlite3, .db3): app.db lists tables, app.db:TABLE
shows its schema and first rows, app.db:TABLE:KEY one row by primary key,
app.db:TABLE?where=EXPR&order=COL:desc&limit=N&offset=N a page, app.db?q=SELECT … a read-only query.
Jupyter notebooks (.ipynb) read as "# %% [code] cell:N" text; edit that text to change the cells (outputs
and metadata are kept).
A long Go, Python, JavaScript, TypeScript or Rust file read without a selector comes as a structural
summary: function bodies are shown as "..." lines, everything else keeps its prefix; read it with :raw
or a line range for the verbatim text.`

// description is the model-facing description for the prefix lines carry
// in mode m: edit anchors, line numbers, or nothing.
func description(m tool.DisplayMode) string {
	switch m {
	case tool.DisplayHashline:
		return descriptionHead + ` Each line comes as ANCHOR|TEXT, e.g. "41th|    return x": the anchor
(line number plus two letters) names that line in edit operations; copy it exactly, without the bar
and the text.` + descriptionTail
	case tool.DisplayLineNumbers:
		return descriptionHead + ` Each line comes as NUMBER|TEXT, e.g. "41|    return x"; the number and
the bar are not part of the file.` + descriptionTail
	}
	return descriptionHead + descriptionTail
}

// Tool is the read tool bound to a session.
type Tool struct {
	env   *tool.Env
	pages *Pages           // web pages read, for paging
	now   func() time.Time // clock for directory ages
	caps  caps             // bounds on what is expanded, converted and fetched
}

// New returns the read tool for env keeping web pages in pages, the
// session's (nil: the tool keeps its own).
func New(env *tool.Env, pages *Pages) tool.Tool {
	if pages == nil {
		pages = &Pages{}
	}
	return &Tool{env: env, pages: pages, now: time.Now, caps: defaultCaps()}
}

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "read",
		Label:       "Read",
		Description: description(t.env.DisplayMode(false, false)),
		Parameters: tool.Object(map[string]*tool.Schema{
			"path": {Type: "string", MinLength: tool.Ptr(1), Description: "File or directory path (an archive member as a.zip:inner/path, a SQLite table as app.db:TABLE…), http(s) URL, artifact://<id>, agent://<id>, skill://<name>[/<file>] or rule://<name>, optionally ending with :N, :A-B, :A+C and/or :raw"},
		}, "path"),
		Concurrency:  tool.Shared,
		ReadOnly:     true,
		NonAbortable: true,
	}
}

// Details is the structured part of a read result.
type Details struct {
	ResolvedPath     string            `json:"resolvedPath,omitempty"`     // absolute path read
	IsDirectory      bool              `json:"isDirectory,omitempty"`      // a directory listing
	SuffixResolution *SuffixResolution `json:"suffixResolution,omitempty"` // set when the path was found by suffix
	Truncation       *Window           `json:"truncation,omitempty"`       // the shown window of a text
	ResultLimit      bool              `json:"resultLimit,omitempty"`      // a listing left entries out
	Source           string            `json:"source,omitempty"`           // backing path or URL
	Summary          *SummaryDetails   `json:"summary,omitempty"`          // set when a structural summary was shown (summary.go)
	*URLDetails                        // web reads (web.go)
}

// SuffixResolution records a path found by unique suffix match.
type SuffixResolution struct {
	From string `json:"from"` // path as given
	To   string `json:"to"`   // path read
}

// Window describes which lines of a text a read showed.
type Window struct {
	StartLine   int    `json:"startLine"`             // first shown line (0 when none)
	EndLine     int    `json:"endLine"`               // last shown line
	TotalLines  int    `json:"totalLines"`            // lines in the text
	NextOffset  int    `json:"nextOffset,omitempty"`  // line to continue from, when more follows
	TruncatedBy string `json:"truncatedBy,omitempty"` // "lines" or "bytes" when the page was cut
	CutLines    []int  `json:"cutLines,omitempty"`    // lines shortened to fit
}

// handler reads one kind of target.
type handler struct {
	match func(t *Tool, target string) bool
	read  func(t *Tool, ctx context.Context, target string) (*tool.Result, error)
}

// errPass is returned by a handler that matched a target by its shape but
// found it is not its kind after all (say, "x.zip" is not a file): the
// next handler gets it.
var errPass = errors.New("not this handler's target")

// handlers are tried in order; the last (local paths) matches everything.
var handlers = []handler{
	{(*Tool).isHostURI, (*Tool).readHost},
	{func(_ *Tool, target string) bool { return isWebURL(target) }, (*Tool).readWeb},
	// local:// names files in the session's scratch directory: read as
	// local files (Env.Resolve maps them).
	{func(t *Tool, target string) bool { return isInternalURL(target) && !t.env.IsLocalURL(target) }, (*Tool).readInternal},
	{func(_ *Tool, target string) bool { return isArchivePath(target) }, (*Tool).readArchive},
	{func(_ *Tool, target string) bool { return isSQLitePath(target) }, (*Tool).readSQLite},
	{func(*Tool, string) bool { return true }, (*Tool).readLocal},
}

// Execute reads the target named by the path argument.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	target := strings.TrimSpace(a.Path)
	if strings.HasPrefix(target, "file://") {
		target = t.env.ExpandHome(strings.TrimPrefix(target, "file://"))
	}
	if target == "" {
		return nil, tool.Errorf("Path must not be empty; give a file or directory path.")
	}
	for _, h := range handlers {
		if h.match(t, target) {
			res, err := h.read(t, ctx, target)
			if errors.Is(err, errPass) {
				continue
			}
			return res, err
		}
	}
	return nil, tool.Errorf("Cannot read %s", target)
}
