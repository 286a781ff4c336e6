package grep

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/glob"
)

// candidate is one file to search.
type candidate struct {
	display string // path reported in results
	abs     string // path opened
	size    int64  // size hint from the scan; 0 when unknown
}

// target is the resolved scope of a search.
type target struct {
	files    []candidate
	cacheAge int64 // milliseconds; for the result
}

// scanCache is the scan cache the engine uses; tests replace it.
var scanCache = fscache.Default

// collect resolves opts.Path into the files to search.
func collect(ctx context.Context, opts *Options) (*target, error) {
	info, err := os.Stat(opts.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("Path not found: %s", opts.Path)
		}
		return nil, fmt.Errorf("stat %s: %w", opts.Path, err)
	}
	if !info.IsDir() {
		return &target{files: []candidate{{display: opts.Path, abs: opts.Path, size: info.Size()}}}, nil
	}
	include, err := compileGlob(opts.Glob)
	if err != nil {
		return nil, err
	}
	over, err := compileOverrides(opts.Overrides, opts.OverrideBase, opts.OverrideCwd)
	if err != nil {
		return nil, err
	}
	root, err := fscache.ResolveSearchPath(opts.Path)
	if err != nil {
		return nil, err
	}
	scanOpts := fscache.Options{
		Hidden:          opts.Hidden,
		Gitignore:       opts.Gitignore,
		SkipNodeModules: !opts.NodeModules && !strings.Contains(opts.Glob, "node_modules"),
	}
	lookup := fscache.Lookup{Scanner: scanCache(), Root: root, Options: scanOpts, UseCache: opts.Cache}
	scan, err := lookup.First(ctx)
	if err != nil {
		return nil, err
	}
	files := filterFiles(scan, root, include, over)
	if len(files) == 0 {
		fresh, err := lookup.RecheckEmpty(ctx, scan)
		if err != nil {
			return nil, err
		}
		if fresh != nil {
			scan = fresh
			files = filterFiles(scan, root, include, over)
		}
	}
	return &target{files: files, cacheAge: scan.Age.Milliseconds()}, nil
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

// filterFiles keeps the regular files the glob and the overrides accept.
// Symlinks are not followed, so linked files are not searched.
func filterFiles(scan *fscache.Scan, root string, include *glob.Pattern, over *overrides) []candidate {
	files := make([]candidate, 0, len(scan.Entries)/2)
	for _, e := range scan.Entries {
		if e.Type != fscache.TypeFile || (include != nil && !include.Match(e.Path)) || (over != nil && !over.keepFile(e.Path)) {
			continue
		}
		files = append(files, candidate{display: e.Path, abs: root + string(filepath.Separator) + filepath.FromSlash(e.Path), size: e.Size})
	}
	return files
}
