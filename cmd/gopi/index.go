package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/internal/humansize"
	"github.com/gopi-agent/gopi/internal/signals"
	"github.com/gopi-agent/gopi/search/index"
)

// indexCLI holds the typed flags of `gopi index`.
type indexCLI struct {
	status, delete, rebuild, watch, help bool
}

// newIndexFlagSet declares gopi index's flags on c. It is also what
// completion scripts and the man page are generated from.
func newIndexFlagSet(c *indexCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("index", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVar(&c.status, "status", false, "describe the index of PATH (files, segments, files changed since, size) instead of updating it")
	fs.BoolVar(&c.delete, "delete", false, "delete the index of PATH")
	fs.BoolVar(&c.rebuild, "rebuild", false, "build the whole index again instead of refreshing it")
	fs.BoolVar(&c.watch, "watch", false, "bring the index up to date, then keep it fresh as files change (inotify) until interrupted; searches meanwhile stat nothing")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const indexUsage = `Usage: gopi index [FLAGS] [PATH]

Build, or bring up to date, the search index of the tree at PATH (default:
the current directory): a trigram index of every file gopi grep --hidden
would read there (ignored paths left out), kept under the user's cache
directory (gopi/index/, or $GOPI_INDEX_DIR).
Run again, it indexes only the files added or changed since and drops
the removed ones.

gopi grep uses the index of a directory it searches (or of the nearest
indexed directory above it) when one exists and fits the search (no -g/--iglob/--max-filesize/-L/--no-ignore/-v/--stats),
reading only the files that can match; the output is the same as without
it. A file changed since indexing is searched
directly; when files were added or removed since, gopi grep walks until
the next gopi index (or refreshes the index first with --index).
While gopi index --watch (or an agent session using the index) runs, the
index follows every change at once and searches stat nothing.

Exit status: 0 on success, 1 when --status or --delete finds no index, 2 on an error.

Flags:
`

func runIndex(ctx context.Context, env *cliEnv, args []string) int {
	var c indexCLI
	fs := newIndexFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "index", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, indexUsage+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 1 {
		return fail(env, "index", cliflags.Usagef("one PATH at most, got %d", fs.NArg()))
	}
	if boolCount(c.status, c.delete, c.rebuild, c.watch) > 1 {
		return fail(env, "index", cliflags.Usagef("--status, --delete, --rebuild and --watch exclude each other"))
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fail(env, "index", fmt.Errorf("%s is not a directory; name the tree to index", dir))
	}
	o, err := indexFinder(env, false).Options(dir)
	if err != nil {
		return fail(env, "index", err)
	}
	switch {
	case c.status:
		return indexStatus(ctx, env, o)
	case c.delete:
		if _, err := os.Lstat(o.Dir); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(env.stderr, "gopi index: no index of %s to delete\n", o.Root)
			return exitNoMatch
		}
		if err := index.Delete(o); err != nil {
			return fail(env, "index", err)
		}
		fmt.Fprintf(env.stdout, "deleted the index of %s\n", o.Root)
		return exitMatch
	}
	if c.watch {
		// SIGTERM and SIGHUP (a service manager, a closed terminal) end
		// the watch as an interrupt does: its socket is removed, and the
		// next watcher need not clean up after this one.
		ctx, _, stopTrap := signals.TrapTerm(ctx)
		defer stopTrap()
		err := index.Watch(ctx, o, func() {
			fmt.Fprintf(env.stdout, "watching %s; the index stays fresh until interrupted\n", o.Root)
		})
		if err != nil {
			return fail(env, "index", err)
		}
		return exitMatch
	}
	start := time.Now()
	update := index.Refresh
	if c.rebuild {
		update = index.Build
	}
	st, err := update(ctx, o)
	if index.DiskFull(err) {
		err = fmt.Errorf("%w: the file system holding %s is full; the index as it was is kept: free space there, or set %s to a directory with room", err, o.Dir, config.EnvIndexDir)
	}
	if err != nil {
		return fail(env, "index", err)
	}
	took := time.Since(start).Round(time.Millisecond)
	for _, d := range st.Denied {
		fmt.Fprintf(env.stderr, "gopi index: %s: directory could not be read: nothing below it is indexed, and searches of a directory holding it walk\n", filepath.Join(o.Root, filepath.FromSlash(d)))
	}
	if st.Rebuilt {
		fmt.Fprintf(env.stdout, "indexed %s: %d files, %d with their text (%s) in %s; index %s\n",
			o.Root, st.Files, st.Indexed, humansize.Format(st.Bytes), took, humansize.Format(st.IndexSize))
	} else {
		fmt.Fprintf(env.stdout, "refreshed the index of %s: %d files added or changed, %d removed, in %s; %d files, index %s\n",
			o.Root, st.Changed, st.Removed, took, st.Files, humansize.Format(st.IndexSize))
	}
	return exitMatch
}

// indexStatus prints what --status reports.
func indexStatus(ctx context.Context, env *cliEnv, o index.Options) int {
	st, err := index.ReadStatus(ctx, o)
	if errors.Is(err, index.ErrDamaged) {
		detail := strings.TrimSpace(strings.TrimPrefix(err.Error(), index.ErrDamaged.Error()))
		fmt.Fprintf(env.stderr, "gopi index: the index of %s is damaged %s: searches walk instead of using it; gopi index %s builds it anew\n", o.Root, detail, o.Root)
		return exitNoMatch
	}
	if errors.Is(err, index.ErrNoIndex) && !errors.Is(err, fs.ErrNotExist) {
		why := strings.TrimPrefix(strings.TrimPrefix(err.Error(), index.ErrNoIndex.Error()), ": ")
		fmt.Fprintf(env.stderr, "gopi index: the index of %s cannot be used (%s): searches walk instead; gopi index %s builds it anew\n", o.Root, why, o.Root)
		return exitNoMatch
	}
	if errors.Is(err, index.ErrNoIndex) {
		fmt.Fprintf(env.stderr, "gopi index: no usable index of %s; build it with gopi index %s\n", o.Root, o.Root)
		return exitNoMatch
	}
	if err != nil {
		return fail(env, "index", err)
	}
	fresh := "up to date"
	switch {
	case st.DirsStale:
		fresh = "files added or removed since: searches walk until gopi index runs again"
	case st.Watched:
		fresh = "up to date: a watcher keeps it fresh"
	case st.Stale > 0:
		fresh = fmt.Sprintf("%d files changed since: searched directly until gopi index runs again", st.Stale)
	}
	fmt.Fprintf(env.stdout, "tree:     %s\nindex:    %s (%s)\nfiles:    %d, %d with their text\nsegments: %d\nupdated:  %s\nstate:    %s\n",
		st.Root, st.Path, humansize.Format(st.IndexSize), st.Files, st.Indexed, st.Segments, st.Built, fresh)
	return exitMatch
}

// indexFinder is the index lookup of gopi grep, with the CLI's walk.
func indexFinder(env *cliEnv, refresh bool) *index.Finder {
	f := index.NewFinder(env.cfg.Index().Dir)
	f.Refresh = refresh
	return f
}

func boolCount(vs ...bool) int {
	n := 0
	for _, v := range vs {
		if v {
			n++
		}
	}
	return n
}
