package plugins

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Bounds of an unpacked npm tarball: a plugin is text and a few
// programs, never gigabytes.
const (
	maxTarballBytes   = 256 << 20 // all files together, uncompressed
	maxTarballEntries = 20000
)

// unpackTarball unpacks an npm package tarball (gzipped tar) into dst,
// which must not exist, dropping the first path component (npm's
// "package/"). Entries that are absolute, climb with "..", pass through a
// symbolic link, or are links leading out of dst are refused, as are hard
// links and sparse files (a small tarball that unpacks to a huge file of
// zeros); devices and FIFOs are skipped. copyTree checks the links that
// remain once more with their real targets.
func unpackTarball(file, dst string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s is not a gzipped tarball: %w", filepath.Base(file), err)
	}
	defer gz.Close()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	var total int64
	for n := 0; ; n++ {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", filepath.Base(file), err)
		}
		if n >= maxTarballEntries {
			return fmt.Errorf("the package has more than %d files; it was not installed", maxTarballEntries)
		}
		rel, err := tarEntryPath(h.Name)
		if err != nil {
			return err
		}
		if rel == "" {
			continue // the top directory itself
		}
		for k := range h.PAXRecords {
			if strings.HasPrefix(k, "GNU.sparse.") {
				return fmt.Errorf("package entry %s is a sparse file, which a plugin tarball may not contain; it was not installed", rel)
			}
		}
		out := filepath.Join(dst, filepath.FromSlash(rel))
		if err := noLinkOnTheWay(dst, rel); err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
		case tar.TypeReg, tar.TypeRegA: //nolint:staticcheck // old tarballs use TypeRegA
			total += h.Size
			if total > maxTarballBytes {
				return fmt.Errorf("the package unpacks to more than %d MiB; it was not installed", maxTarballBytes>>20)
			}
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			if err := writeTarFile(tr, out, h); err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := checkLinkTarget(rel, h.Linkname); err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(h.Linkname, out); err != nil {
				return fmt.Errorf("package entry %s: %w", rel, err)
			}
		case tar.TypeLink:
			return fmt.Errorf("package entry %s is a hard link, which a plugin tarball may not contain; it was not installed", rel)
		default:
			// devices, FIFOs and extended headers are never part of a plugin
		}
	}
}

// tarEntryPath returns an entry's path below the tarball's top
// directory, refusing absolute paths and any ".." component.
func tarEntryPath(name string) (string, error) {
	name = strings.ReplaceAll(name, "\\", "/")
	if strings.HasPrefix(name, "/") || filepath.IsAbs(name) || (len(name) > 1 && name[1] == ':') {
		return "", fmt.Errorf("package entry %q is an absolute path; the plugin was not installed", name)
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "", fmt.Errorf("package entry %q leads outside the package with \"..\"; the plugin was not installed", name)
		}
	}
	clean := path.Clean(name)
	_, rest, _ := strings.Cut(clean, "/")
	if clean == "." || rest == "." {
		return "", nil
	}
	return rest, nil
}

// noLinkOnTheWay refuses an entry whose parent directories include a
// symbolic link unpacked earlier, or that would replace one: writing
// through a link could reach outside dst.
func noLinkOnTheWay(dst, rel string) error {
	p := dst
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("package entry %s passes through or replaces the symbolic link %s; the plugin was not installed", rel, strings.TrimPrefix(p, dst+string(filepath.Separator)))
		}
	}
	return nil
}

// checkLinkTarget refuses a symbolic link whose target is absolute or
// climbs above the package's top directory.
func checkLinkTarget(rel, target string) error {
	if target == "" || strings.HasPrefix(target, "/") || filepath.IsAbs(target) {
		return fmt.Errorf("package entry %s is a symbolic link to %q, outside the plugin; it was not installed", rel, target)
	}
	joined := path.Join(path.Dir(rel), target)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return fmt.Errorf("package entry %s is a symbolic link to %q, outside the plugin; it was not installed", rel, target)
	}
	return nil
}

// writeTarFile writes one regular file of a tarball, keeping its
// permission bits (without set-id bits).
func writeTarFile(r io.Reader, out string, h *tar.Header) error {
	perm := os.FileMode(h.Mode).Perm() | 0o600
	w, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("package entry %s: %w", h.Name, err)
	}
	if _, err := io.Copy(w, io.LimitReader(r, h.Size)); err != nil {
		w.Close()
		return fmt.Errorf("package entry %s: %w", h.Name, err)
	}
	return w.Close()
}
