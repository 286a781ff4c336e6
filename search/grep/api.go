// Package grep is gopi's regex search engine: the native contract of the
// original system's grep, over the shared scan cache.
//
// Its parts, as ripgrep keeps searcher, sink and printer apart: a search
// is described by Options, which embeds the Matcher (what to look for)
// and the Scope (which files); what each file reports is the Sink's to say
// (Needs: records, counts, the first match, lines formatted in the
// workers), and StreamTo feeds the sink file by file in path order.
// Search is a paging sink (the agent's tool); the CLI's ripgrep-style and
// JSON printer is package printer. Large files and streams are read a
// block of lines at a time through a lineBuffer (blocks.go, linebuffer.go).
//
// A search compiles one line matcher (Rust's regex through cgo, or Go's
// regexp where cgo is off), collects candidate files from a single file or a
// directory scan (hidden files and gitignore rules per Scope, an optional
// glob filter and ripgrep's ordered -g globs, node_modules only when the
// glob names it or Scope.NodeModules is set), then searches the files on
// every core. Each file is read whole and searched in one native
// call that returns every matching line; results are delivered in the
// deterministic (path, line) order whatever order the workers finish in.
// A long-lived caller can keep file text in memory between searches
// (Options.ContentCache, contents.go): a file is read again whenever it
// may have changed, which watched directories (watch_linux.go) or a stat
// tell.
//
// Line semantics follow ripgrep: `^` and `$` match at line boundaries, and a
// pattern never matches across lines unless it holds a newline or `\n`
// (then the search is multiline and a hit covers every line its match
// spans). Braces that cannot be quantifiers are escaped before compiling
// (`${platform}` is literal, `a{2,4}` is not) and an unbalanced-group error
// earns one retry with parentheses escaped. A UTF-8 byte-order mark at the
// start of a file is dropped before matching, as ripgrep does. Files holding
// a NUL byte are binary and skipped (searched, without their lines, when
// named as the path or with Scope.Binary); files that cannot be read are
// skipped and counted.
package grep

import (
	"time"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/native/rure"
)

// Mode selects what a search reports.
type Mode uint8

// Search modes.
const (
	ModeContent          Mode = iota // matching lines with context
	ModeCount                        // per-file counts of matching lines
	ModeFilesWithMatches             // names of files with at least one match
)

// DefaultMaxColumns is the longest line returned whole; longer lines are cut
// and flagged.
const DefaultMaxColumns = 1024

// Matcher is what a search looks for: the pattern and how it matches a
// line. It is the query of a search, a value of its own (Options embeds it).
type Matcher struct {
	Pattern    string // regex; Rust regex syntax (Go regexp syntax without cgo)
	IgnoreCase bool   // case-insensitive matching
	Multiline  bool   // allow matches across lines; forced on when the pattern needs it
	Invert     bool   // report the lines that do not match (ripgrep's -v)
}

// Scope is which files a search reads: one file, a directory walked under
// its filters, or a list of files (Options embeds it).
type Scope struct {
	Path         string   // file or directory to search
	Glob         string   // keep only paths relative to Path that match (directories only); see search/glob
	Overrides    []string // ripgrep's -g globs, in order: '!' drops, the last match decides (directories only; see overrides)
	OverrideFold []bool   // per Overrides entry: match it case-insensitively (ripgrep's --iglob); may be shorter
	OverrideBase string   // Path as ripgrep prints it (slash-separated, cleaned); Overrides match it joined with each path below it
	OverrideCwd  string   // working directory (slash-separated); cut off absolute paths inside it before Overrides match
	Hidden       bool     // search dot-files and dot-directories
	Gitignore    bool     // honour .gitignore, .ignore and git's exclude files
	Cache        bool     // use ScanCache for the directory walk
	NodeModules  bool     // walk node_modules like any directory; by default it is pruned unless Glob names it
	Binary       bool     // directories only: search the binary files found too, reported as a named one is (FileResult.Binary; ripgrep's --binary)
	MaxDepth     int      // directories only: files at most this many levels below Path (1 = direct children); 0 = no limit
	Types        []string // directories only: keep files of these types (see TypeGlobs); empty = every type
	TypesNot     []string // directories only: drop files of these types
	MaxFileSize  int64    // skip files larger than this many bytes (listed in Skipped, wrapping ErrTooLarge); 0 = no limit
	Follow       bool     // directories only: follow symbolic links (see fscache.Options.Follow)
	// Files, when not nil, is the whole scope of the search in place of
	// Path: these files, searched and reported in this order, each opened
	// and reported by its Path. Nothing filters them (the glob, types,
	// ignore and depth options apply to a walk of Path only). A caller
	// that orders the files itself (gopi grep --sort modified) lists them
	// first and then streams the results instead of holding them.
	Files []FileRef
	// ScanCache is the scan cache a walk with Cache uses: its owner's
	// *fscache.Cache (an agent session's), or a fake in tests. nil walks
	// afresh every time and stores nothing.
	ScanCache fscache.Scanner
}

// Options describes one search: the matcher, the scope, what each file
// reports and, for Search, the page. What a streamed search hands back of
// each file is its Sink's to say (Needs). Start from DefaultOptions: the
// zero value turns hidden files and gitignore handling off.
type Options struct {
	Matcher
	Scope

	// What each file reports.
	Mode          Mode // what to report
	ContextBefore int  // lines of context before each match
	ContextAfter  int  // lines of context after each match
	MaxColumns    int  // lines longer than this many characters are cut; 0 = never
	MaxCount      int  // report at most this many matching lines per file; 0 = no limit
	Text          bool // search binary files as if they were text (ripgrep's -a)

	// The page Search returns (Stream ignores them).
	Offset int // matches (content mode) or files (other modes) to skip
	Limit  int // at most this many after Offset; 0 = unlimited

	Timeout time.Duration // give up after this long; 0 = no timeout
	// ContentCache, when not nil, keeps the text of searched files in
	// memory for the next search given the same cache (see NewContentCache;
	// its owner, the agent session, builds one): worth it for an agent that
	// searches one tree again and again, not for a one-shot CLI.
	// A file is read again after any change to it reported by the watch of
	// its directory (Linux) or seen by a stat (size, times, inode). One
	// change goes unseen on Linux: a write through a hard link made after
	// the file was cached from a directory the cache does not watch; the
	// stale text is served until the file changes through its own path.
	// What a search may add to the cache depends on the size of its tree
	// as earlier searches measured it (contentscope.go): a tree larger
	// than the budget, such as /, never fills it.
	ContentCache *ContentCache

	// tuning: the engine's sizes and seams; the zero value in production,
	// set by this package's tests (see tuning).
	tuning tuning
}

// FileRef is one file of Scope.Files.
type FileRef struct {
	Path string
	// Named: the user named this file (rather than a directory holding
	// it), so a binary file is reported instead of skipped and a special
	// file (a FIFO, a device) is read up to SpecialFileCap.
	Named bool
}

// MatchView is a match handed to Needs.Render: a Match without context
// lines whose Text points into the worker's buffer; the view and its
// slices are valid only until the iteration moves on.
type MatchView struct {
	Line      int    // 1-based number of the (first) line
	Offset    int64  // byte offset of the (first) line's start in the text searched (after a byte-order mark)
	Text      []byte // the line(s) without the final terminator, cut to MaxColumns
	Truncated bool   // Text was cut
	Spans     []Span // matches within Text
}

// DefaultOptions returns the engine defaults for pattern: hidden files
// searched, gitignore honoured, no cache, lines cut at 1024 characters.
func DefaultOptions(pattern, path string) Options {
	return Options{
		Matcher:    Matcher{Pattern: pattern},
		Scope:      Scope{Path: path, Hidden: true, Gitignore: true},
		MaxColumns: DefaultMaxColumns,
	}
}

// Span is a byte range.
type Span = rure.Span

// ContextLine is a line shown around a match.
type ContextLine struct {
	Line      int    // 1-based line number
	Offset    int64  // byte offset of the line's start in the text searched
	Text      string // the line without its terminator, cut to MaxColumns
	Truncated bool   // Text was cut
	// Spans, when not nil, says the line matches too: a line of the
	// after-context of the last match MaxCount allows (ripgrep prints it
	// as a match, without counting it).
	Spans []Span
}

// Match is one matching line (in multiline mode: the run of lines a match spans).
type Match struct {
	Path      string        // relative to Options.Path for directories; Options.Path for a file
	Line      int           // 1-based number of the (first) line
	Offset    int64         // byte offset of the (first) line's start in the text searched (after a byte-order mark, as ripgrep's -b)
	Text      string        // the line(s) without the final terminator, cut to MaxColumns
	Truncated bool          // Text was cut
	Spans     []Span        // matches within Text (byte offsets); spans past a cut are dropped
	Before    []ContextLine // context before, never repeating a line shown for an earlier match
	After     []ContextLine // context after, stopping before the next match
}

// FileResult is what one file produced.
type FileResult struct {
	Path    string  // as in Match.Path
	Lines   int     // matching lines (hits in multiline mode)
	Count   int     // individual matches
	Matches []Match // content mode only
	// Rendered: content mode with Needs.Render (and no context lines):
	// the formatted matches, in place of Matches (a file with a large
	// output comes in several parts: see Needs.Render).
	Rendered []byte
	// Binary: the file holds a NUL byte and was searched because it was
	// named as Path or Scope.Binary is set (a file found in a directory
	// is otherwise skipped, unless Options.Text). Matches is then empty, as
	// ripgrep prints no lines of a binary file; NULOffset is the offset of
	// its first NUL byte.
	Binary    bool
	NULOffset int
}

// Result is a whole search.
type Result struct {
	Matches          []Match       // content mode: the page [Offset, Offset+Limit) of all matches
	Files            []FileResult  // count and files-with-matches modes: the page of files with matches
	TotalMatches     int           // matching lines across every file, before paging
	FilesWithMatches int           // files with at least one match
	FilesSearched    int           // files read and searched
	FilesSkipped     int           // files that could not be read
	BinarySkipped    int           // files skipped because they hold a NUL byte
	Skipped          []SkippedFile // the first MaxReportedSkips files counted in FilesSkipped, with why
	LimitReached     bool          // more results exist past the page
	CacheAge         time.Duration
}
