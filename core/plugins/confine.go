package plugins

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// within reports whether p is root or below it (both cleaned absolute
// paths).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolveInside joins a relative slash path to root and checks that the
// result, with symbolic links followed, is still inside root (also with
// links followed). It returns the joined path.
func resolveInside(root, rel string) (string, error) {
	c, err := cleanRelative(rel)
	if err != nil {
		return "", err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, filepath.FromSlash(c))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	if !within(realRoot, real) {
		return "", fmt.Errorf("path %q leads outside %s through a symbolic link", rel, root)
	}
	return p, nil
}

// copyTree copies the directory src to dst (which must not exist),
// leaving .git out. A symbolic link that leads outside src is refused; one
// that stays inside is copied as the file it names (a link to a directory
// stays a relative link). File modes are kept.
func copyTree(src, dst string) error {
	realSrc, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return filepath.WalkDir(realSrc, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(realSrc, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			if d.Name() == ".git" && p != realSrc {
				return filepath.SkipDir
			}
			return os.MkdirAll(out, 0o755)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(p)
			if err != nil {
				return fmt.Errorf("plugin file %s is a broken symbolic link: %w", rel, err)
			}
			if !within(realSrc, target) {
				return fmt.Errorf("plugin file %s is a symbolic link leading outside the plugin (to %s); the plugin was not installed", rel, target)
			}
			fi, err := os.Stat(target)
			if err != nil {
				return err
			}
			if fi.IsDir() {
				link, err := filepath.Rel(filepath.Dir(p), target)
				if err != nil {
					return err
				}
				return os.Symlink(link, out)
			}
			return copyFile(target, out, fi.Mode().Perm())
		}
		if !d.Type().IsRegular() {
			return nil // sockets, devices, FIFOs: never part of a plugin
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		return copyFile(p, out, fi.Mode().Perm())
	})
}

// copyFile copies one regular file.
func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
