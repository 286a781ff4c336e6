package job

import (
	"context"
	"io"
	"time"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/grep/printer"
)

// The exit statuses Run returns, as grep and ripgrep have them.
const (
	StatusMatch   = 0 // a line matched (with ListFiles: a file would be searched)
	StatusNoMatch = 1 // nothing matched
	StatusError   = 2 // a path or file could not be searched (the run went on), or the run failed
)

// StdinPath is the path argument that names standard input.
const StdinPath = "-"

// Case is how the patterns treat letter case.
type Case uint8

// The case modes of a run, as -s, -i and -S choose them.
const (
	CaseSensitive Case = iota // match case (the default, and -s)
	CaseIgnore                // -i: ignore case
	CaseSmart                 // -S: ignore case unless a pattern has an upper-case letter to match
)

// BinaryMode is what a run does with the binary files it finds in
// directories (ripgrep's binary modes); a binary file named as a path is
// always searched.
type BinaryMode uint8

// The binary modes.
const (
	BinarySkip   BinaryMode = iota // skipped (the default)
	BinarySearch                   // searched and reported as "binary file matches" (--binary, -uuu)
	BinaryText                     // searched as text, their lines printed (-a)
)

// Options is one gopi grep run as its flags describe it, each flag
// already resolved: the last of flags that override each other has won,
// counts (-u) and sizes are read, the colors are chosen. Nothing here is
// checked again: combinations the command refuses (-c with -l, a missing
// pattern) never reach Run.
type Options struct {
	// Patterns are what is searched for: a line matching any of them
	// matches. Regexes (Rust syntax) unless Fixed. ListFiles needs none.
	Patterns []string
	Fixed    bool // -F: the patterns are literal text
	Word     bool // -w: a match must start and end at word boundaries
	Line     bool // -x: a match must be the whole line
	Case     Case // -s, -i or -S: how the patterns treat letter case
	// Multiline lets matches span lines (also when a pattern needs it).
	Multiline bool
	Invert    bool // -v: report the lines that do not match

	// Paths are the path arguments as typed: files, directories, or
	// StdinPath. None: the current directory, or standard input when
	// Streams.StdinReadable says it holds input.
	Paths     []string
	Globs     []string   // -g and --iglob globs in the order given (the last matching one decides)
	GlobFold  []bool     // one per Globs entry: it came from --iglob (match ignoring case)
	Types     []string   // -t: search only files of these types
	TypesNot  []string   // -T: skip files of these types
	Hidden    bool       // search hidden files and directories
	Gitignore bool       // honour .gitignore, .ignore and git's exclude files
	Follow    bool       // -L: follow symbolic links while walking
	Binary    BinaryMode // what becomes of binary files found in directories
	MaxDepth  int        // descend at most this many levels below a directory argument; 0: no limit
	// MaxFileSize skips (and names on stderr) files larger than this many
	// bytes; 0: no limit.
	MaxFileSize int64
	// ScanCache is the scan cache the walks use; nil walks afresh.
	ScanCache fscache.Scanner
	// Index, when not nil, may answer the search of a directory argument
	// with the files that can match (a persistent index); nil walks.
	Index Indexer

	MaxCount      int // print at most this many matching lines per file; 0: no limit
	ContextBefore int // lines of context before each match
	ContextAfter  int // lines of context after each match
	MaxColumns    int // cut lines longer than this many characters; 0: never

	Count            bool // -c: the number of matching lines per file
	CountMatches     bool // --count-matches: the number of matches per file
	FilesWithMatches bool // -l: only the paths of files with a match
	ListFiles        bool // --files: list the files a search would read, without searching
	OnlyMatching     bool // -o: only the matched parts
	Quiet            bool // -q: print nothing, stop at the first match
	Stats            bool // print totals to stderr at the end

	LineNumbers  bool            // print line numbers (--column and --vimgrep print them anyway)
	WithFilename bool            // -H: print the path with every line
	NoFilename   bool            // -I: never print paths with lines (wins over WithFilename)
	Column       bool            // --column
	ByteOffset   bool            // -b
	Vimgrep      bool            // --vimgrep
	Null         bool            // -0: a NUL after each printed path
	JSON         bool            // --json
	Colors       printer.Palette // the escape sequences of colored output; the zero value prints plain text
	Sort         printer.Order   // --sort/--sortr; the zero value is path order

	Timeout time.Duration // give up after this long; 0: never
}

// Indexer narrows the search of a directory to the files that can hold a
// match (search/index's Finder). ok false: it cannot answer this search,
// and the directory is walked; the results are the same either way.
type Indexer interface {
	Candidates(ctx context.Context, dir string, m grep.Matcher, s grep.Scope) (files []string, ok bool, err error)
}

// Streams are the files a run reads and writes.
type Streams struct {
	Stdout io.Writer // the results
	Stderr io.Writer // files that could not be searched, hints, --stats
	Stdin  io.Reader // searched for StdinPath
	// StdinReadable: Stdin is a pipe or a regular file, searched when no
	// path is given (as ripgrep decides); not a terminal.
	StdinReadable bool
}
