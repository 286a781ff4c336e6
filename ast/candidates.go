package ast

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/glob"
	"github.com/gopi-agent/gopi/search/index"
)

// Scope says which files a request covers.
type Scope struct {
	// Paths are files, directories or globs ("src/**/*.ts"), relative to
	// Cwd unless absolute. At least one must exist; missing ones are
	// dropped and listed in the result when others remain.
	Paths []string
	Cwd   string // "" = the process's working directory
	// NoHidden leaves out dot-files; NoGitignore searches ignored files.
	NoHidden    bool
	NoGitignore bool
	// Globs filter the files found in directories, as ast-grep's --globs
	// (and ripgrep's -g): matched against the path relative to the
	// directory given; a glob without '/' matches names at any depth; '!'
	// excludes; the last matching glob decides; once any plain glob is
	// given a file no glob matches is dropped. Named files are kept.
	// node_modules directories are walked only when a path glob or an
	// including glob here names node_modules.
	Globs []string
	// ScanCache is the scan cache directory walks go through (an agent
	// session's); nil walks afresh every time and stores nothing. Edit
	// invalidates it for the files it writes.
	ScanCache *fscache.Cache
	// Index, when set, answers directory scans from the persistent
	// search index of the tree when there is one that fits (the walk's
	// ignore rules honoured), and rules out the files whose text lacks
	// the rules' literal tokens without reading them; the results are the
	// walk's. nil always walks.
	Index *index.Finder
	// ParseCache keeps and reuses the parsed trees of the files read from
	// disk (an agent session's); nil parses every file afresh. Edit
	// invalidates it for the files it writes.
	ParseCache *ParseCache
}

// scanner is the scan cache as a lookup takes it (nil stays nil).
func (sc *Scope) scanner() fscache.Scanner {
	if sc.ScanCache == nil {
		return nil
	}
	return sc.ScanCache
}

// candidate is one file to search.
type candidate struct {
	display string // path as reported: the given base joined with the scan-relative path
	abs     string
	size    int64
	lang    *Language  // nil when the name does not tell
	named   bool       // given explicitly as a file (not found by a scan)
	rel     string     // path relative to the directory given (found by a scan)
	ix      *indexScan // the index scan that found it; nil for a walk
}

// hasGlobMeta reports whether p contains glob syntax.
func hasGlobMeta(p string) bool { return strings.ContainsAny(p, "*?[{") }

// splitGlob splits "a/b/**/*.go" into base "a/b" and glob "**/*.go".
func splitGlob(p string) (base, pattern string) {
	p = filepath.ToSlash(p)
	segs := strings.Split(p, "/")
	i := 0
	for i < len(segs) && !hasGlobMeta(segs[i]) {
		i++
	}
	base = strings.Join(segs[:i], "/")
	if base == "" {
		if strings.HasPrefix(p, "/") {
			base = "/"
		} else {
			base = "."
		}
	}
	return base, strings.Join(segs[i:], "/")
}

// collect resolves the scope into candidate files, sorted by display
// path, plus the entries that did not exist and issues for named paths
// that are not regular files (skipped).
func collect(ctx context.Context, sc Scope, scans *[]*indexScan) ([]candidate, []string, []ParseIssue, error) {
	cwd := sc.Cwd
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, nil, nil, fmt.Errorf("working directory: %w", err)
		}
	}
	if len(sc.Paths) == 0 {
		return nil, nil, nil, errors.New("no path given: name at least one file, directory or glob")
	}
	seen := map[string]bool{}
	var out []candidate
	var missing []string
	var issues []ParseIssue
	for _, given := range sc.Paths {
		if strings.TrimSpace(given) == "" {
			return nil, nil, nil, errors.New("Path entries must not be empty")
		}
		files, found, issue, err := collectOne(ctx, sc, cwd, given, scans)
		if err != nil {
			return nil, nil, nil, err
		}
		if issue != nil {
			issues = append(issues, *issue)
			continue
		}
		if !found {
			missing = append(missing, given)
			continue
		}
		for _, c := range files {
			if !seen[c.abs] {
				seen[c.abs] = true
				out = append(out, c)
			}
		}
	}
	if len(missing) == len(sc.Paths) {
		return nil, nil, nil, fmt.Errorf("Path not found: %s", missing[0])
	}
	if len(sc.Globs) > 0 {
		keep, err := compileScopeGlobs(sc.Globs)
		if err != nil {
			return nil, nil, nil, err
		}
		out = slices.DeleteFunc(out, func(c candidate) bool { return !c.named && !keep(c.rel) })
	}
	slices.SortFunc(out, func(a, b candidate) int { return strings.Compare(a.display, b.display) })
	return out, missing, issues, nil
}

// globsNameNodeModules reports whether an including glob of Scope.Globs
// names node_modules: the walk then enters node_modules directories
// (pruned otherwise), as search/grep does for its glob. An excluding glob
// ("!node_modules") keeps them pruned.
func globsNameNodeModules(globs []string) bool {
	return slices.ContainsFunc(globs, func(g string) bool {
		return !strings.HasPrefix(g, "!") && strings.Contains(g, "node_modules")
	})
}

// compileScopeGlobs compiles Scope.Globs into a filter of relative paths.
func compileScopeGlobs(globs []string) (func(rel string) bool, error) {
	type rule struct {
		pat    *glob.Pattern
		negate bool
	}
	var rules []rule
	plain := 0
	for _, g := range globs {
		r := rule{}
		if strings.HasPrefix(g, "!") {
			r.negate, g = true, g[1:]
		}
		g = strings.TrimSuffix(g, "/")
		switch {
		case g == "":
			continue
		case strings.HasPrefix(g, "/"):
			g = strings.TrimLeft(g, "/")
		case !strings.Contains(g, "/"):
			g = "**/" + g
		}
		p, err := glob.Compile(g)
		if err != nil {
			return nil, fmt.Errorf("invalid glob %q: %w", g, err)
		}
		r.pat = p
		if !r.negate {
			plain++
		}
		rules = append(rules, r)
	}
	return func(rel string) bool {
		for i := len(rules) - 1; i >= 0; i-- {
			// A glob naming a directory applies to everything below it.
			for p := rel; p != "." && p != ""; p = path.Dir(p) {
				if rules[i].pat.Match(p) {
					return !rules[i].negate
				}
			}
		}
		return plain == 0
	}, nil
}

func absPath(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// collectOne expands one path entry; found is false when it (or, for a
// glob, its base directory) does not exist. A path that names something
// other than a regular file or a directory (a named pipe, a device, a
// socket) yields no candidate but an issue: reading it could block or
// never end.
func collectOne(ctx context.Context, sc Scope, cwd, given string, scans *[]*indexScan) ([]candidate, bool, *ParseIssue, error) {
	abs := absPath(cwd, given)
	info, err := os.Stat(abs)
	if err == nil {
		switch {
		case info.IsDir():
			files, err := scanDir(ctx, sc, given, abs, nil, scans)
			return files, true, nil, err
		case !info.Mode().IsRegular():
			return nil, true, &ParseIssue{Path: filepath.ToSlash(given), Message: "not a regular file (" + specialKind(info.Mode()) + "); skipped"}, nil
		}
		return []candidate{{display: filepath.ToSlash(given), abs: abs, size: info.Size(), lang: InferLanguage(abs), named: true}}, true, nil, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil, fmt.Errorf("stat %s: %w", given, err)
	}
	if !hasGlobMeta(given) {
		return nil, false, nil, nil
	}
	base, pattern := splitGlob(given)
	baseAbs := absPath(cwd, base)
	if st, err := os.Stat(baseAbs); err != nil || !st.IsDir() {
		return nil, false, nil, nil
	}
	g, err := glob.Compile(pattern)
	if err != nil {
		return nil, false, nil, fmt.Errorf("invalid glob %q: %w", given, err)
	}
	files, err := scanDir(ctx, sc, base, baseAbs, g, scans)
	return files, true, nil, err
}

// specialKind names the kind of a file that is neither regular nor a
// directory.
func specialKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// scanDir lists the regular files under dirAbs through the scan cache.
// An index scan that answers is added to scans (closed with the plan).
func scanDir(ctx context.Context, sc Scope, given, dirAbs string, g *glob.Pattern, scans *[]*indexScan) ([]candidate, error) {
	root, err := fscache.ResolveSearchPath(dirAbs)
	if err != nil {
		return nil, err
	}
	opts := fscache.Options{
		Hidden:          !sc.NoHidden,
		Gitignore:       !sc.NoGitignore,
		SkipNodeModules: (g == nil || !g.MentionsNodeModules()) && !globsNameNodeModules(sc.Globs),
	}
	if files, is, ok, err := scanIndex(ctx, sc, given, root, g, opts.SkipNodeModules); err != nil {
		return nil, fmt.Errorf("index %s: %w", given, err)
	} else if ok {
		*scans = append(*scans, is)
		return files, nil
	}
	lookup := fscache.Lookup{Scanner: sc.scanner(), Root: root, Options: opts, UseCache: true}
	scan, err := lookup.First(ctx)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", given, err)
	}
	files := filterScan(scan, given, root, g)
	if len(files) == 0 {
		fresh, err := lookup.RecheckEmpty(ctx, scan)
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", given, err)
		}
		if fresh != nil {
			files = filterScan(fresh, given, root, g)
		}
	}
	return files, nil
}

func filterScan(scan *fscache.Scan, given, root string, g *glob.Pattern) []candidate {
	prefix := filepath.ToSlash(filepath.Clean(given))
	var out []candidate
	for _, e := range scan.Entries {
		if e.Type != fscache.TypeFile || (g != nil && !g.Match(e.Path)) {
			continue
		}
		display := e.Path
		if prefix != "." {
			display = path.Join(prefix, e.Path)
		}
		out = append(out, candidate{
			display: display,
			abs:     root + string(filepath.Separator) + filepath.FromSlash(e.Path),
			size:    e.Size,
			lang:    InferLanguage(e.Path),
			rel:     e.Path,
		})
	}
	return out
}
