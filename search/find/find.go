// Package find runs one `gopi find`: the paths under each directory
// argument that match a glob (or a regex, or a fuzzy query), filtered as fd
// filters them, printed as fd prints them or handed to a program (-x,
// -X). It is everything of the command but its flags: Options is what
// the flags say; New checks and compiles them, Finder.Run walks and
// prints, without the CLI.
//
// The walk is search/glob's (search/fuzzy's for a query) over the scan
// cache; what glob does not filter (a regex, extensions, excludes, depth,
// sizes, times, executables, empty entries) is a filter applied to each
// match, and the limit counts what passes it. Paths are printed as the
// walk finds them, in path order, or newest first with Newest (which waits
// for the whole walk).
package find

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/glob"
	"github.com/gopi-agent/gopi/search/index"
)

// The exit statuses Run returns, as fd has them.
const (
	StatusFound    = 0 // something was found (and every program run succeeded)
	StatusNotFound = 1 // nothing was found, or a program run by Exec failed
	StatusError    = 2 // the run failed
)

// Options is one gopi find run as its flags describe it. New refuses
// values it cannot use (a bad size, type, date, glob or regex).
type Options struct {
	// Pattern is a glob matched against names (against the path below
	// the directory argument when it holds '/' or with FullPath); a regex
	// searched for in each name with Regex. "" lists everything.
	Pattern  string
	Regex    bool // the pattern is a regex
	FullPath bool // match the pattern against the whole relative path
	// Fuzzy ranks paths by a fuzzy match against Query instead of
	// matching Pattern.
	Fuzzy bool
	Query string
	// IgnoreCase and CaseSensitive force the case of the match (at most
	// one of them); neither: smart case, as fd has it.
	IgnoreCase, CaseSensitive bool

	// Paths are the directories to search, as typed; none: the current
	// directory.
	Paths      []string
	Type       string   // only entries of this type: f, d, l, x, e (or file, dir, …); "" any
	Extensions []string // only files with one of these extensions (case-insensitive, with or without the dot)
	Excludes   []string // leave out paths matching these globs and everything below them
	Sizes      []string // only files of these sizes, in fd's syntax (+10k, -1mi, 500b)
	// ChangedWithin keeps entries modified within a duration (2h, 3d, 1w)
	// or since a date (2024-01-31, 2024-01-31 10:00:00); "" any.
	ChangedWithin string
	MaxDepth      int  // descend at most this many levels below a directory; 0: no limit
	Hidden        bool // include hidden files and directories
	Gitignore     bool // honour .gitignore, .ignore and git's exclude files
	Follow        bool // follow symbolic links
	// ScanCache is the scan cache the walks use; nil walks afresh.
	ScanCache fscache.Scanner
	// Index, when set, answers a search for files from the persistent
	// index of the tree when there is one that fits (see fromIndex); the
	// paths are the walk's, in its order. nil always walks.
	Index *index.Finder

	Limit    int  // print at most this many paths; 0: no limit
	Newest   bool // newest first, by modification time
	JSON     bool // one JSON object per path
	Print0   bool // end every path with a NUL byte
	Absolute bool // print absolute paths
	// PathColor, when not empty, is the escape sequence before each
	// printed path, and ColorReset the one after it.
	PathColor, ColorReset string
	// Exec, when not nil, runs a program for the paths instead of
	// printing them.
	Exec    *Exec
	Timeout time.Duration // give up after this long; 0: never
}

// Exec is a program to run for the paths found (fd's -x and -X).
type Exec struct {
	// Argv is the command line. Its arguments may hold fd's placeholders
	// ({}, {/}, {//}, {.}, {/.}); without any, the paths are appended.
	Argv  []string
	Batch bool // run it once with every path (-X), not once per path (-x)
}

// Streams are the files a run writes.
type Streams struct {
	Stdout io.Writer // the paths
	Stderr io.Writer // hints, and the failures of programs that could not start
	// ExecStdout is the standard output of the programs Exec runs: the
	// file behind Stdout, so that they write to it directly.
	ExecStdout io.Writer
}

// Finder is a checked, compiled find run.
type Finder struct {
	o          Options
	filter     *filter
	fileType   glob.FileType
	ignoreCase bool
	glob       string // what glob matches: Pattern as fd means it, or everything with Regex
}

// New checks and compiles o. Its errors are all mistakes in the options,
// worded for the command line.
func New(o Options) (*Finder, error) {
	f := &Finder{o: o, filter: &filter{fullPath: o.FullPath, maxDepth: o.MaxDepth}, fileType: glob.Any}
	switch o.Type {
	case "":
	case "f", "file":
		f.fileType = glob.File
	case "d", "dir", "directory":
		f.fileType = glob.Dir
	case "l", "symlink":
		f.fileType = glob.Symlink
	case "x", "executable":
		f.fileType, f.filter.executable = glob.File, true
	case "e", "empty":
		f.filter.empty = true
	default:
		return nil, fmt.Errorf("--type must be f, d, l, x or e, got %q", o.Type)
	}
	for _, e := range o.Extensions {
		f.filter.exts = append(f.filter.exts, strings.ToLower(strings.TrimPrefix(e, ".")))
	}
	for _, g := range o.Excludes {
		p, err := glob.Compile(fdGlob(strings.TrimSuffix(g, "/")))
		if err != nil {
			return nil, fmt.Errorf("--exclude %q: %v", g, err)
		}
		f.filter.excludes = append(f.filter.excludes, p)
	}
	for _, s := range o.Sizes {
		b, err := parseSize(s)
		if err != nil {
			return nil, err
		}
		f.filter.sizes = append(f.filter.sizes, b)
	}
	if o.ChangedWithin != "" {
		var err error
		if f.filter.since, err = parseChangedWithin(o.ChangedWithin, time.Now()); err != nil {
			return nil, err
		}
	}
	if o.Fuzzy {
		f.o.Pattern = ""
	}
	if o.IgnoreCase && o.CaseSensitive {
		return nil, fmt.Errorf("-i and -s cannot be combined")
	}
	f.ignoreCase = ignoresCase(f.o.Pattern, o.IgnoreCase, o.CaseSensitive)
	f.glob = fdGlob(f.o.Pattern)
	if o.Regex {
		expr := f.o.Pattern
		if f.ignoreCase {
			expr = "(?i)" + expr
		}
		var err error
		if f.filter.re, err = regexp.Compile(expr); err != nil {
			return nil, fmt.Errorf("invalid regex %q: %v", f.o.Pattern, err)
		}
		f.glob = "**"
	} else if o.FullPath && f.o.Pattern != "" && !strings.Contains(f.o.Pattern, "/") {
		f.glob = f.o.Pattern // matched against the whole relative path
	}
	return f, nil
}
