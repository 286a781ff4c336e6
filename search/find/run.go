package find

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/internal/promptwriter"
	"github.com/gopi-agent/gopi/search/fuzzy"
	"github.com/gopi-agent/gopi/search/glob"
)

// Run walks every directory argument in order, printing each path found
// on s.Stdout (or handing it to the Exec program), and returns the exit
// status. An error is a failure of the whole run (a path argument that
// is not a directory, a walk that failed, the timeout, a write that
// failed); the status is then StatusError.
func (f *Finder) Run(ctx context.Context, s Streams) (int, error) {
	o, filter, ex := &f.o, f.filter, f.o.Exec
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	out := promptwriter.New(s.Stdout, 64<<10)
	defer out.Stop()
	var collected []string // paths for -X
	execFailed := false
	end := byte('\n')
	if o.Print0 {
		end = 0
	}
	lastArg, lastBase := "", ""
	emit := func(arg, rel string, typ fscache.EntryType, mtime int64) error {
		if arg != lastArg || lastBase == "" {
			lastArg, lastBase = arg, fdBase(arg)
		}
		p := joinClean(lastBase, rel)
		if arg == "" && (o.Print0 || ex != nil) {
			// As fd: paths handed to programs start with "./", so a
			// name beginning with '-' is never read as an option.
			p = "./" + p
		}
		if o.Absolute {
			if abs, err := filepath.Abs(filepath.FromSlash(p)); err == nil {
				p = filepath.ToSlash(abs)
			}
		}
		switch {
		case ex != nil && ex.Batch:
			collected = append(collected, p)
			return nil
		case ex != nil:
			out.Flush()
			if err := runExec(ctx, s, ex.Argv, []string{p}); err != nil {
				if ctx.Err() != nil {
					return err
				}
				execFailed = true
			}
			return nil
		case o.JSON:
			b, err := json.Marshal(map[string]any{"path": p, "type": typeName(typ), "mtime": mtime})
			if err != nil {
				return err
			}
			out.Write(b)
			err = out.WriteByte('\n')
			out.EndRecord()
			return err
		}
		if o.PathColor != "" {
			out.WriteString(o.PathColor)
		}
		out.WriteString(p)
		if o.ColorReset != "" {
			out.WriteString(o.ColorReset)
		}
		err := out.WriteByte(end)
		out.EndRecord()
		return err
	}

	paths := o.Paths
	if len(paths) == 0 {
		paths = []string{""}
	}
	// The limit applies after the extra filters, so Find is unlimited
	// when there are any.
	extra := filter.re != nil || len(filter.exts) > 0 || len(filter.excludes) > 0 || filter.maxDepth > 0 || filter.needsStat()
	found := 0
	for _, arg := range paths {
		root := arg
		if root == "" {
			root = "."
		}
		if info, err := os.Stat(root); err == nil && !info.IsDir() {
			return StatusError, fmt.Errorf("%s is not a directory: give directories to search as PATH", root)
		}
		if o.Fuzzy {
			res, err := fuzzy.Find(ctx, root, fuzzy.Options{
				Query: o.Query, Hidden: o.Hidden, Gitignore: o.Gitignore, MaxResults: o.Limit, Scanner: o.ScanCache,
			})
			if err != nil {
				return StatusError, err
			}
			for _, m := range res.Matches {
				typ := fscache.TypeFile
				if m.IsDir {
					typ = fscache.TypeDir
				}
				if err := emit(arg, m.Path, typ, 0); err != nil {
					return StatusError, err
				}
				found++
			}
			continue
		}
		maxResults := o.Limit
		if extra {
			maxResults = 0
		}
		gopts := glob.Options{
			Pattern: f.glob, IgnoreCase: f.ignoreCase, FileType: f.fileType, Hidden: o.Hidden, Gitignore: o.Gitignore,
			NodeModules: true, // as in fd: only ignore files leave node_modules out
			MaxResults:  maxResults, SortByMtime: o.Newest, NoMTime: !o.JSON, Follow: o.Follow,
			MaxDepth: o.MaxDepth, Scanner: o.ScanCache,
		}
		take := func(m glob.Match) (bool, error) {
			if o.Limit > 0 && found >= o.Limit {
				return false, nil
			}
			if extra && !filter.keep(root, m) {
				return true, nil
			}
			if err := emit(arg, m.Path, m.Type, m.MTime); err != nil {
				return false, err
			}
			found++
			return o.Limit == 0 || found < o.Limit, nil
		}
		if ms, ok, err := f.fromIndex(ctx, root); err != nil {
			return StatusError, err
		} else if ok {
			for _, m := range ms {
				if more, err := take(m); err != nil {
					return StatusError, err
				} else if !more {
					break
				}
			}
			continue
		}
		if !o.Newest {
			// Printed as the walk finds them.
			if err := glob.Each(ctx, root, gopts, take); err != nil {
				return StatusError, err
			}
			continue
		}
		res, err := glob.Find(ctx, root, gopts)
		if err != nil {
			return StatusError, err
		}
		for _, m := range res.Matches {
			if more, err := take(m); err != nil {
				return StatusError, err
			} else if !more {
				break
			}
		}
	}
	if err := out.Flush(); err != nil {
		return StatusError, fmt.Errorf("write output: %w", err)
	}
	if ex != nil && ex.Batch && len(collected) > 0 {
		if err := runExec(ctx, s, ex.Argv, collected); err != nil {
			if ctx.Err() != nil {
				return StatusError, err
			}
			execFailed = true
		}
	}
	if found == 0 {
		if h := hint(o.Pattern, o.Regex, o.Fuzzy); h != "" {
			fmt.Fprintf(s.Stderr, "gopi find: nothing found; %s\n", h)
		}
		return StatusNotFound, nil
	}
	if execFailed {
		return StatusNotFound, nil
	}
	return StatusFound, nil
}

// typeName is how --json names an entry's type.
func typeName(t fscache.EntryType) string {
	switch t {
	case fscache.TypeFile:
		return "file"
	case fscache.TypeDir:
		return "directory"
	case fscache.TypeSymlink:
		return "symlink"
	}
	return "other"
}
