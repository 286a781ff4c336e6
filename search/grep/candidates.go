package grep

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/glob"
)

// candidate is one file to search.
type candidate struct {
	display string // path reported in results
	abs     string // path opened
	size    int64  // size from the scan; -1 when the walk did not look it up
	named   bool   // given as Options.Path itself rather than found in a directory
	special bool   // named, and not a regular file (a device, a FIFO): read up to SpecialFileCap
	denied  bool   // a directory the walk could not list for lack of permission: reported, as ripgrep does, not read
}

// target is the resolved scope of a search: a list of files known up
// front, or a directory walk that hands its files over as it finds them.
type target struct {
	files []candidate
	// refs: Options.Files, made into candidates one at a time as they are
	// handed over (a sorted search of a whole disk lists every file: a
	// candidate each, up front, was twice the memory of the list).
	refs     []FileRef
	walk     func(ctx context.Context, emit func(candidate) error, idle func()) error // nil when files is the whole scope
	cacheAge int64                                                                    // milliseconds; for the result
}

// each hands every candidate to emit in search order; idle is called when
// emit would otherwise wait for a walk in progress.
func (t *target) each(ctx context.Context, emit func(candidate) error, idle func()) error {
	if t.walk != nil {
		return t.walk(ctx, emit, idle)
	}
	for _, c := range t.files {
		if err := emit(c); err != nil {
			return err
		}
	}
	for _, f := range t.refs {
		if err := emit(listedCandidate(f)); err != nil {
			return err
		}
	}
	return nil
}

// known is how many candidates a target without a walk holds.
func (t *target) known() int { return len(t.files) + len(t.refs) }

// collect resolves opts.Path into the files to search.
func collect(ctx context.Context, opts *Options) (*target, error) {
	if opts.Files != nil {
		return listed(opts.Files), nil
	}
	info, err := os.Stat(opts.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("Path not found: %s", opts.Path)
		}
		return nil, fmt.Errorf("stat %s: %w", opts.Path, err)
	}
	if !info.IsDir() {
		// A "regular" file that reports no size (procfs, sysfs:
		// /proc/self/pagemap never ends) is read like a device: in
		// blocks, up to SpecialFileCap.
		special := !info.Mode().IsRegular() || info.Size() == 0
		return &target{files: []candidate{{display: opts.Path, abs: opts.Path, size: info.Size(), named: true, special: special}}}, nil
	}
	include, err := compileGlob(opts.Glob)
	if err != nil {
		return nil, err
	}
	over, err := compileOverrides(opts.Overrides, opts.OverrideFold, opts.OverrideBase, opts.OverrideCwd)
	if err != nil {
		return nil, err
	}
	root, err := fscache.ResolveSearchPath(opts.Path)
	if err != nil {
		return nil, err
	}
	rootSep := root
	if !strings.HasSuffix(rootSep, string(filepath.Separator)) {
		rootSep += string(filepath.Separator)
	}
	skipPseudo := !isPseudoFile(rootSep) // unless searching below /proc itself was asked for
	scanOpts := fscache.Options{
		Hidden:          opts.Hidden,
		Gitignore:       opts.Gitignore,
		SkipNodeModules: !opts.NodeModules && !strings.Contains(opts.Glob, "node_modules"),
		SkipPseudoDirs:  skipPseudo,
		Follow:          opts.Follow,
		MaxDepth:        opts.MaxDepth,
	}
	lookup := fscache.Lookup{Scanner: opts.ScanCache, Root: root, Options: scanOpts, UseCache: opts.Cache}
	keep, err := fileFilter(opts)
	if err != nil {
		return nil, err
	}
	whitelisting := over != nil && over.whitelists > 0 && (opts.Gitignore || !opts.Hidden)
	if !opts.Cache && !whitelisting {
		// Nothing to reuse or recheck: search the files while the walk
		// goes on, so the first results of a huge tree come at once.
		return &target{walk: func(ctx context.Context, emit func(candidate) error, idle func()) error {
			// The walk skips the lstat of every file: the read finds the
			// size, one system call less per file.
			lookup.NoStat = true
			_, err := lookup.Stream(ctx, func(e fscache.Entry) error {
				if c, ok := keepEntry(e, rootSep, skipPseudo, include, over, keep); ok {
					c.size = -1
					return emit(c)
				}
				return nil
			}, idle)
			return err
		}}, nil
	}
	scan, err := lookup.First(ctx)
	if err != nil {
		return nil, err
	}
	files := filterFiles(scan, root, include, over, keep)
	if len(files) == 0 {
		fresh, err := lookup.RecheckEmpty(ctx, scan)
		if err != nil {
			return nil, err
		}
		if fresh != nil {
			scan = fresh
			files = filterFiles(scan, root, include, over, keep)
		}
	}
	if whitelisting {
		// As in ripgrep, a file a plain -g glob names is searched even
		// when ignore rules or its dot-name would leave it out (its
		// directories must still be ones the search enters).
		allOpts := scanOpts
		allOpts.Gitignore, allOpts.Hidden = false, true
		all, err := (&fscache.Lookup{Scanner: opts.ScanCache, Root: root, Options: allOpts, UseCache: opts.Cache}).First(ctx)
		if err != nil {
			return nil, err
		}
		files = withWhitelisted(all, scan, root, include, over, keep, files)
	}
	return &target{files: files, cacheAge: scan.Age.Milliseconds()}, nil
}

// listed is the target of Options.Files. A named file is looked at as
// collect looks at a Path that is a file; one that cannot be stat'ed is
// left to the read, which reports why.
func listed(files []FileRef) *target {
	return &target{refs: files}
}

// listedCandidate is the candidate of one file of Options.Files.
func listedCandidate(f FileRef) candidate {
	c := candidate{display: f.Path, abs: f.Path, size: -1, named: f.Named}
	if f.Named {
		if info, err := os.Stat(f.Path); err == nil {
			c.size = info.Size()
			c.special = !info.Mode().IsRegular() || info.Size() == 0
		}
	}
	return c
}

// PathFilter is the filter a directory search with opts applies to the
// relative slash path of each file its walk lists: Glob, Types, TypesNot
// and MaxDepth (nil when there is none). A caller that lists the files
// itself (a search index) applies it to get the walk's files; the -g
// overrides are not part of it.
func PathFilter(opts Options) (func(rel string) bool, error) {
	include, err := compileGlob(opts.Glob)
	if err != nil {
		return nil, err
	}
	keep, err := fileFilter(&opts)
	if err != nil || (include == nil && keep == nil) {
		return nil, err
	}
	return func(rel string) bool {
		return (include == nil || include.Match(rel)) && (keep == nil || keep(rel))
	}, nil
}

// compileGlob compiles an optional glob filter.
func compileGlob(pattern string) (*glob.Pattern, error) {
	if pattern == "" {
		return nil, nil
	}
	p, err := glob.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid glob %q: %w", pattern, err)
	}
	return p, nil
}

// fileFilter builds the MaxDepth and type filters of opts (nil when there
// are none).
func fileFilter(opts *Options) (func(rel string) bool, error) {
	types, err := compileTypes(opts.Types, opts.TypesNot)
	if err != nil {
		return nil, err
	}
	if types == nil && opts.MaxDepth <= 0 {
		return nil, nil
	}
	return func(rel string) bool {
		if opts.MaxDepth > 0 && strings.Count(rel, "/")+1 > opts.MaxDepth {
			return false
		}
		return types == nil || types(rel)
	}, nil
}

// filterFiles keeps the regular files the glob, the overrides and keep
// accept.
// Symlinks are not followed, so linked files are not searched.
func filterFiles(scan *fscache.Scan, root string, include *glob.Pattern, over *overrides, keep func(string) bool) []candidate {
	files := make([]candidate, 0, len(scan.Entries)/2)
	rootSep := root
	if !strings.HasSuffix(rootSep, string(filepath.Separator)) {
		rootSep += string(filepath.Separator)
	}
	skipPseudo := !isPseudoFile(rootSep) // searching /proc itself was asked for
	for _, e := range scan.Entries {
		if c, ok := keepEntry(e, rootSep, skipPseudo, include, over, keep); ok {
			files = append(files, c)
		}
	}
	return files
}

// keepEntry turns a scanned entry into a candidate when it is a regular
// file that the glob, the overrides and keep accept (and, with skipPseudo,
// not a kernel pseudo-file), or a directory the walk could not list
// (candidate.denied). rootSep is the root with a trailing separator.
func keepEntry(e fscache.Entry, rootSep string, skipPseudo bool, include *glob.Pattern, over *overrides, keep func(string) bool) (candidate, bool) {
	if e.Denied {
		// A directory the walk would have entered but could not list:
		// whatever the filters, the search reports it (as ripgrep does).
		return candidate{display: e.Path, abs: rootSep + filepath.FromSlash(e.Path), denied: true}, true
	}
	if e.Type != fscache.TypeFile || (include != nil && !include.Match(e.Path)) || (over != nil && !over.keepFile(e.Path)) || (keep != nil && !keep(e.Path)) {
		return candidate{}, false
	}
	abs := rootSep + filepath.FromSlash(e.Path)
	if skipPseudo && isPseudoFile(abs) {
		return candidate{}, false
	}
	return candidate{display: e.Path, abs: abs, size: e.Size}, true
}

// Files returns the paths (as in Match.Path) of the files a search with
// opts would read, in search order, without reading them: ripgrep's
// --files.
func Files(ctx context.Context, opts Options) ([]string, error) {
	var out []string
	err := EachFile(ctx, opts, func(p string) error {
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EachFile is Files handing each path to fn as the walk finds it; a
// non-nil error from fn stops the walk and is returned.
func EachFile(ctx context.Context, opts Options, fn func(path string) error) error {
	return EachListed(ctx, opts, func(path string, denied bool) error {
		if denied {
			return nil
		}
		return fn(path)
	})
}

// EachListed is EachFile also handing over, in walk order, the
// directories the walk could not list for lack of permission (denied
// set), which a search reports as unreadable.
func EachListed(ctx context.Context, opts Options, fn func(path string, denied bool) error) error {
	tgt, err := collect(ctx, &opts)
	if err != nil {
		return err
	}
	return tgt.each(ctx, func(c candidate) error { return fn(c.display, c.denied) }, nil)
}

// pseudoDirs hold kernel pseudo-files: their sizes are 0 or made up,
// some never end or block, and none is worth a text search. Files below
// them are left out of directory searches (`gopi grep x /`); naming one,
// or searching a directory below them, still searches them.
var pseudoDirs = []string{"/proc/", "/sys/", "/dev/"}

func isPseudoFile(abs string) bool {
	for _, d := range pseudoDirs {
		if strings.HasPrefix(abs, d) {
			return true
		}
	}
	return false
}

// withWhitelisted returns files (the candidates of the normal scan) plus,
// in scan order, the files of all (a scan that ignores nothing) that the
// overrides explicitly keep, that the normal scan left out, and whose
// directory the search enters: one the normal scan lists, or one a glob
// keeps below an entered one.
func withWhitelisted(all, normal *fscache.Scan, root string, include *glob.Pattern, over *overrides, keep func(string) bool, files []candidate) []candidate {
	byPath := make(map[string]candidate, len(files))
	for _, c := range files {
		byPath[c.display] = c
	}
	dirs := map[string]bool{}
	for _, e := range normal.Entries {
		if e.Type == fscache.TypeDir {
			dirs[e.Path] = true
		}
	}
	memo := map[string]bool{}
	var entered func(string) bool
	entered = func(d string) bool {
		if d == "." || d == "" {
			return true
		}
		if v, ok := memo[d]; ok {
			return v
		}
		v := dirs[d] || (over.decide(d, true) == 1 && entered(path.Dir(d)))
		memo[d] = v
		return v
	}
	rootSep := root
	if !strings.HasSuffix(rootSep, string(filepath.Separator)) {
		rootSep += string(filepath.Separator)
	}
	out := make([]candidate, 0, len(files))
	for _, e := range all.Entries {
		if e.Type != fscache.TypeFile {
			continue
		}
		if c, ok := byPath[e.Path]; ok {
			out = append(out, c)
			continue
		}
		dir := path.Dir(e.Path)
		if over.decide(e.Path, false) != 1 || over.dirPruned(dir) || !entered(dir) ||
			(include != nil && !include.Match(e.Path)) || (keep != nil && !keep(e.Path)) {
			continue
		}
		abs := rootSep + filepath.FromSlash(e.Path)
		if isPseudoFile(abs) && !isPseudoFile(rootSep) {
			continue
		}
		out = append(out, candidate{display: e.Path, abs: abs, size: e.Size})
	}
	return out
}
