package edits

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// workspace answers where a path really is, against the roots.
type workspace struct {
	roots []string // cleaned and with symbolic links resolved
}

func newWorkspace(roots []string) workspace {
	var w workspace
	for _, r := range roots {
		if r == "" || !filepath.IsAbs(r) {
			continue
		}
		w.roots = append(w.roots, realPath(filepath.Clean(r), true))
	}
	return w
}

// realPath is p with the symbolic links of its existing part resolved;
// the part that does not exist yet is kept as written. With follow false
// the last element is not resolved (a link that is deleted or moved is
// the link itself, not what it points to).
func realPath(p string, follow bool) string {
	if !follow {
		dir, base := filepath.Split(p)
		if base == "" {
			return resolve(p, maxLinks)
		}
		return filepath.Join(resolve(filepath.Clean(dir), maxLinks), base)
	}
	return resolve(p, maxLinks)
}

// maxLinks bounds the dangling links resolve follows by hand (the kernel
// stops at 40 too).
const maxLinks = 40

// resolve is realPath following links. A dangling link is followed to
// where it points, since writing through it creates its target there.
func resolve(p string, links int) string {
	rest := ""
	cur := p
	for {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(r, rest)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			// A loop or a permission error: judge the path as written.
			return p
		}
		if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 && links > 0 {
			if to, rerr := os.Readlink(cur); rerr == nil {
				if !filepath.IsAbs(to) {
					to = filepath.Join(filepath.Dir(cur), to)
				}
				return resolve(filepath.Join(filepath.Clean(to), rest), links-1)
			}
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// inside reports whether the real path of p lies in a root. follow as for
// realPath.
func (w workspace) inside(p string, follow bool) bool {
	real := realPath(p, follow)
	for _, r := range w.roots {
		if within(real, r) || real == r {
			return true
		}
	}
	return false
}

// holdsRoot reports whether p is a root or contains one: such a path is
// never deleted or moved.
func (w workspace) holdsRoot(p string) bool {
	real := realPath(p, false)
	for _, r := range w.roots {
		if real == r || within(r, real) {
			return true
		}
	}
	return false
}

// rootList is the roots for a message.
func (w workspace) rootList() string {
	if len(w.roots) == 0 {
		return "(none given)"
	}
	return strings.Join(w.roots, ", ")
}

// within reports whether p lies strictly below dir.
func within(p, dir string) bool {
	if dir == string(filepath.Separator) {
		return p != dir && strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// isDir reports whether p is a directory on disk (links followed).
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
