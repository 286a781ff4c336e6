// Package job runs one `gopi grep`: the search of its path arguments (or
// of standard input) with the engine, search/grep, printed as ripgrep
// prints with search/grep/printer, and its exit status. It is everything
// of the command but its flags: Options is what the flags say, resolved;
// Run does the rest, without the CLI.
//
// A run searches its path arguments in order and prints each file's
// results as the search delivers them, through a promptwriter so that the
// first result of a long search is not held back. A path or file that
// cannot be searched is named on stderr and the run goes on (the status is
// then StatusError, as with ripgrep). Sorting by a timestamp (--sort
// modified) first lists every file with its time, taken before anything
// is read, and then searches that list in order (plan, sort.go); other
// orders hold the results and print them at the end (printHeld).
package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gopi-agent/gopi/internal/promptwriter"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/grep/printer"
)

// Run searches as o says, printing on s.Stdout, and returns the exit
// status. An error is a failure of the whole run (a pattern that does not
// compile, a timeout, a write that failed); the status is then
// StatusError and nothing more is printed.
func Run(ctx context.Context, o Options, s Streams) (int, error) {
	j, err := newJob(&o, s)
	if err != nil {
		return StatusError, err
	}
	return j.run(ctx, s.Stdin)
}

// job is one run.
type job struct {
	base      grep.Options
	needs     grep.Needs // what the printer needs of each file (more per path: see run)
	paths     []string   // as typed; "" for the implicit current directory, "-" for stdin
	stats     bool
	quiet     bool
	listFiles bool // --files
	index     Indexer
	order     printer.Order
	held      []heldResult         // results waiting for the end of the search when order needs them all
	times     map[string]time.Time // sort timestamps taken before the search (see takeTimes)
	argFiles  map[string]bool      // per path argument: names a file, not a directory (see argIsFile)
	out       *promptwriter.Writer
	errOut    io.Writer
	printer   *printer.Printer // lays the results out on out

	// filters are the filtering flags given (-g, --iglob, -t, -T,
	// --max-depth, --max-filesize), named when they leave nothing to search.
	filters []string
}

// newJob turns o into the engine's options and the printer's layout.
func newJob(o *Options, s Streams) (*job, error) {
	g := grep.DefaultOptions(pattern(o), "")
	var needs grep.Needs
	g.ScanCache = o.ScanCache
	g.IgnoreCase = ignoreCase(o)
	g.Multiline = o.Multiline
	g.Follow = o.Follow
	g.Hidden = o.Hidden
	g.Gitignore = o.Gitignore
	g.Text = o.Binary == BinaryText
	g.Binary = o.Binary == BinarySearch
	g.Invert = o.Invert
	// Like ripgrep, the CLI has no rule of its own for node_modules: only
	// ignore files keep it out. (The agent's search tool prunes it.)
	g.NodeModules = true
	g.ContextBefore, g.ContextAfter = o.ContextBefore, o.ContextAfter
	g.MaxCount = o.MaxCount
	g.MaxFileSize = o.MaxFileSize
	g.MaxDepth = o.MaxDepth
	g.MaxColumns = o.MaxColumns
	g.Types, g.TypesNot = o.Types, o.TypesNot
	switch {
	case o.Count || o.CountMatches:
		g.Mode = grep.ModeCount
	case o.FilesWithMatches:
		g.Mode = grep.ModeFilesWithMatches
		// A path is printed at its file's first match, as ripgrep does;
		// --stats wants the whole count of matching lines.
		needs.FirstMatchEnough = !o.Stats
	}
	g.Timeout = o.Timeout
	g.Overrides, g.OverrideFold = o.Globs, o.GlobFold
	j := &job{
		base: g, needs: needs, paths: o.Paths, stats: o.Stats, quiet: o.Quiet, listFiles: o.ListFiles, order: o.Sort, index: o.Index,
		out: promptwriter.New(s.Stdout, 64<<10), errOut: s.Stderr,
	}
	layout := printer.Config{
		Colors: o.Colors, Mode: g.Mode, JSON: o.JSON, Context: g.ContextBefore > 0 || g.ContextAfter > 0,
		LineNumbers: o.LineNumbers || o.Column || o.Vimgrep, ByteOffset: o.ByteOffset, Null: o.Null,
		// Lines that do not match have no match to show alone or
		// to point at: -v prints them whole, without a column (as
		// ripgrep does with -o, --column and --vimgrep).
		Column: (o.Column || o.Vimgrep) && !o.Invert, OnlyMatching: o.OnlyMatching && !o.Invert, Vimgrep: o.Vimgrep && !o.Invert,
	}
	j.filters = givenFilters(o)
	if len(j.paths) == 0 {
		j.paths = []string{""}
		if s.StdinReadable && !o.ListFiles {
			j.paths = []string{StdinPath}
		}
	}
	var err error
	if g.Mode == grep.ModeContent && (o.Column || o.Vimgrep) && !o.Invert {
		// Only columns and --vimgrep lay out lines differently when
		// matches can span lines.
		if layout.Crosses, err = grep.CrossesLines(g); err != nil {
			return nil, err
		}
	}
	if g.Mode == grep.ModeCount && !o.Invert {
		// -c prints the number of matches rather than of matching
		// lines, as ripgrep does when a match can span lines.
		if layout.CountMatches, err = grep.CrossesLines(g); err != nil {
			return nil, err
		}
		// -o -c counts the parts -o would print, as ripgrep does.
		layout.CountMatches = layout.CountMatches || o.CountMatches || o.OnlyMatching
		// -c prints line counts; --json also prints the match count.
		j.needs.CountLinesOnly = !layout.CountMatches && !o.JSON
	}
	switch {
	case o.NoFilename:
		layout.WithPath = false
	case o.WithFilename || o.Vimgrep:
		layout.WithPath = true
	default:
		layout.WithPath = len(j.paths) > 1 || (j.paths[0] != StdinPath && !isRegularFile(j.paths[0]))
	}
	j.printer = printer.New(j.out, layout)
	return j, nil
}

// overrideBase is the search root as ripgrep prints it, which its -g globs
// are matched against (joined with each path below it): arg cleaned and
// slash-separated; "" for the implicit current directory.
func overrideBase(arg string) string {
	if arg == "" {
		return ""
	}
	if p := filepath.ToSlash(filepath.Clean(arg)); p != "." {
		return p
	}
	return ""
}

// pathOptions are the search options for the path argument path ("" for
// the current directory): the job's, with the path and what -g globs are
// matched against.
func (j *job) pathOptions(path string) grep.Options {
	o := j.base
	o.Path = path
	if path == "" {
		o.Path = "."
	}
	o.OverrideBase = overrideBase(path)
	if wd, err := os.Getwd(); err == nil {
		o.OverrideCwd = filepath.ToSlash(wd)
	}
	return o
}

// shownPath returns, for a search of the path argument arg, the path a
// result path is printed by; safe for the search workers to call.
func (j *job) shownPath(arg string) func(path string) string {
	if arg == StdinPath {
		return func(path string) string { return path }
	}
	isFile := arg != "" && j.argIsFile(arg)
	return func(path string) string { return printer.DisplayPath(arg, path, isFile) }
}

// shown is the path a result path rel of a search of the path argument
// arg is printed by (shownPath's, for the printing goroutine).
func (j *job) shown(arg, rel string) string {
	if arg == StdinPath {
		return rel
	}
	return printer.DisplayPath(arg, rel, arg != "" && j.argIsFile(arg))
}

// argIsFile is isRegularFile for a path argument, asked once per argument:
// every printed result needs it, and a stat per result cost 6 % of a search
// printing 240,000 lines. Only the printing goroutine calls it.
func (j *job) argIsFile(arg string) bool {
	v, ok := j.argFiles[arg]
	if !ok {
		if j.argFiles == nil {
			j.argFiles = map[string]bool{}
		}
		v = isRegularFile(arg)
		j.argFiles[arg] = v
	}
	return v
}

func isRegularFile(path string) bool {
	if path == "" {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// run searches every path in order and prints as results arrive. Like
// ripgrep, a path that cannot be searched or a file that cannot be read is
// named on stderr and the search goes on; the exit status is then 2.
func (j *job) run(ctx context.Context, stdin io.Reader) (int, error) {
	defer j.out.Stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	matched, hadError := false, false
	var total grep.Summary
	stopped := errors.New("quiet: first match found")
	searches := make([]pathSearch, len(j.paths))
	for i, p := range j.paths {
		searches[i] = pathSearch{arg: p}
	}
	if j.order.Holds() && !j.listFiles && !slices.Contains(j.paths, StdinPath) {
		// Sorted: list every file and its timestamp first, then search
		// them in order as one list, printing as the results come.
		files, missing, err := j.plan(ctx)
		if err != nil {
			j.out.Flush()
			return StatusError, err
		}
		hadError = missing
		searches = []pathSearch{{planned: true, files: files}}
	}
	for _, s := range searches {
		path := s.arg
		o := j.pathOptions(path)
		if !s.planned {
			var err error
			if s, err = j.indexed(ctx, s, o); err != nil {
				j.out.Flush()
				return StatusError, err
			}
		}
		if s.planned {
			path = ""
			o.Files = s.files
		}
		needs := j.needs
		if o.Mode == grep.ModeContent && !j.quiet {
			// The workers format the lines or JSON objects (ignored
			// with context lines), and need no more of a line than the
			// printer shows.
			content := j.printer.ContentNeeds(j.shownPath(path))
			needs.Render, needs.FirstMatchOnly = content.Render, content.FirstMatchOnly
			// print writes the bytes out at once unless results are held
			// for sorting.
			needs.ReuseRendered = !(j.order.Holds() && !s.planned)
		}
		onResult := func(fr *grep.FileResult) error {
			matched = true
			switch {
			case j.quiet:
				return stopped
			case j.order.Holds() && !s.planned:
				j.held = append(j.held, heldResult{arg: path, result: fr})
				return nil
			}
			j.out.Begin()
			err := j.printer.File(j.shown(path, fr.Path), fr)
			j.out.EndRecord()
			return err
		}
		var sum *grep.Summary
		var err error
		switch {
		case path == StdinPath && j.listFiles:
			// As ripgrep: standard input is one of the "files" searched.
			j.out.WriteString("<stdin>")
			j.out.WriteByte(j.printer.PathEnd())
			matched = true
			sum = &grep.Summary{}
		case path == StdinPath:
			sum, err = streamStdin(ctx, o, stdin, needs, onResult)
		case s.planned:
			sum, err = grep.StreamTo(ctx, o, fileSink{needs, onResult})
		case j.listFiles:
			var n int
			var unreadable bool
			n, unreadable, err = j.printFiles(ctx, path, o)
			matched = matched || n > 0
			hadError = hadError || unreadable
			sum = &grep.Summary{}
		default:
			if _, serr := searchable(o.Path); serr != nil {
				j.out.Flush()
				fmt.Fprintf(j.errOut, "gopi grep: %s: %s\n", o.Path, ErrnoText(serr))
				hadError = true
				continue
			}
			if err := j.takeTimes(ctx, path, o); err != nil {
				return StatusError, err
			}
			sum, err = grep.StreamTo(ctx, o, fileSink{needs, onResult})
		}
		if errors.Is(err, stopped) {
			return StatusMatch, nil
		}
		if err != nil {
			j.out.Flush()
			return StatusError, err
		}
		if len(sum.Skipped) > 0 {
			j.out.Flush()
			for _, s := range sum.Skipped {
				shown := s.Path // "<stdin>"
				if path != StdinPath {
					shown = printer.DisplayPath(path, s.Path, path == o.Path && j.argIsFile(path))
				}
				fmt.Fprintf(j.errOut, "gopi grep: %s: %s\n", shown, ErrnoText(s.Err))
				// A file over --max-filesize is skipped as asked: named,
				// but not an error (ripgrep skips such files silently).
				hadError = hadError || !errors.Is(s.Err, grep.ErrTooLarge)
			}
		}
		total.TotalMatches += sum.TotalMatches
		total.FilesSearched += sum.FilesSearched
		total.FilesWithMatches += sum.FilesWithMatches
		total.FilesSkipped += sum.FilesSkipped
		total.BinarySkipped += sum.BinarySkipped
	}
	if err := j.printHeld(); err != nil {
		return StatusError, err
	}
	if err := j.out.Flush(); err != nil {
		return StatusError, fmt.Errorf("write output: %w", err)
	}
	if j.stats {
		fmt.Fprintf(j.errOut, "%d matching lines in %d files; %d files searched, %d binary skipped, %d unreadable\n",
			total.TotalMatches, total.FilesWithMatches, total.FilesSearched, total.BinarySkipped, total.FilesSkipped)
	}
	switch {
	case hadError:
		return StatusError, nil
	case matched:
		return StatusMatch, nil
	}
	if total.FilesSearched == 0 && total.BinarySkipped == 0 && len(j.filters) > 0 && !j.listFiles && slices.Equal(j.paths, []string{""}) && holdsAFile(".") {
		// As ripgrep does when a search of the current directory reads
		// nothing: the filters are the likely reason. Not an error.
		fmt.Fprintf(j.errOut, "gopi grep: no file was searched: %s left out every file here; check them (--files lists what a search would read)\n", strings.Join(j.filters, ", "))
	}
	return StatusNoMatch, nil
}

// reportDenied names on stderr a directory the walk could not list (as
// the path shown), as ripgrep does.
func (j *job) reportDenied(shown string) {
	j.out.Flush()
	fmt.Fprintf(j.errOut, "gopi grep: %s: %s\n", shown, ErrnoText(&fs.PathError{Op: "open", Path: shown, Err: syscall.EACCES}))
}

// searchable reports why the path argument p cannot be searched: it is
// missing, or a directory that cannot be listed (as ripgrep, which names
// it with "Permission denied"; the walk below it only reports the
// directories it finds); otherwise it returns the path's stat.
func searchable(p string) (os.FileInfo, error) {
	info, err := os.Stat(p)
	if err != nil || !info.IsDir() {
		return info, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	return info, f.Close()
}

// indexed turns the search of a directory argument into a planned one of
// the files the index says can match, when there is an index that can
// answer it; otherwise s is returned as it is. --stats (files searched)
// and the orders that list every file keep the walk.
func (j *job) indexed(ctx context.Context, s pathSearch, o grep.Options) (pathSearch, error) {
	if j.index == nil || j.stats || j.listFiles || j.order.Holds() || s.arg == StdinPath {
		return s, nil
	}
	if info, err := os.Stat(o.Path); err != nil || !info.IsDir() {
		return s, nil
	}
	rel, ok, err := j.index.Candidates(ctx, o.Path, o.Matcher, o.Scope)
	if err != nil || !ok {
		return s, err
	}
	files := make([]grep.FileRef, len(rel))
	for i, r := range rel {
		files[i] = grep.FileRef{Path: printer.DisplayPath(s.arg, filepath.FromSlash(r), false)}
	}
	return pathSearch{planned: true, files: files}, nil
}

// printFiles prints the files a search of path would read (--files) and
// returns how many there were.
func (j *job) printFiles(ctx context.Context, path string, o grep.Options) (n int, unreadable bool, err error) {
	if _, serr := searchable(o.Path); serr != nil && !errors.Is(serr, fs.ErrNotExist) {
		j.out.Flush()
		fmt.Fprintf(j.errOut, "gopi grep: %s: %s\n", o.Path, ErrnoText(serr))
		return 0, true, nil
	}
	isFile := isRegularFile(path)
	err = grep.EachListed(ctx, o, func(f string, denied bool) error {
		if denied {
			// A directory the walk could not list: named, as ripgrep does.
			j.reportDenied(printer.DisplayPath(path, f, isFile))
			unreadable = true
			return nil
		}
		n++
		if j.order.Holds() {
			j.held = append(j.held, heldResult{arg: path, file: f})
			return nil
		}
		j.out.WriteString(printer.DisplayPath(path, f, isFile))
		err := j.out.WriteByte(j.printer.PathEnd()) // a failed write (the reader has gone) stops the walk
		j.out.EndRecord()
		return err
	})
	return n, unreadable, err
}
