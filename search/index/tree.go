package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/grep"
)

// ignoreFiles are the files in a directory whose change changes what the
// walk lists below it.
var ignoreFiles = []string{".gitignore", ".ignore"}

// listFiles lists the tree's files as grep's walk does (same filters, same
// order): relative slash paths. With Walk.Hidden it also returns the set
// of those a walk leaving hidden files out lists (not simply the paths
// without a dot-name: ignore files may whitelist hidden ones); nil
// otherwise.
func listFiles(ctx context.Context, o *Options) (files []string, narrow map[string]bool, err error) {
	walk := func(hidden bool, fn func(string)) error {
		g := grep.DefaultOptions("", o.Root)
		g.Hidden, g.Gitignore, g.NodeModules = hidden, o.Walk.Gitignore, o.Walk.NodeModules
		return grep.EachFile(ctx, g, func(p string) error {
			fn(filepath.ToSlash(p))
			return nil
		})
	}
	if err := walk(o.Walk.Hidden, func(p string) { files = append(files, p) }); err != nil {
		return nil, nil, err
	}
	if o.Walk.Hidden {
		narrow = map[string]bool{}
		if err := walk(false, func(p string) { narrow[p] = true }); err != nil {
			return nil, nil, err
		}
	}
	return files, narrow, nil
}

// inNarrow: the walk leaving hidden files out lists p (every file, when
// the index's walk leaves them out itself).
func inNarrow(narrow map[string]bool, p string) bool { return narrow == nil || narrow[p] }

// underNodeModules: p is below a directory named node_modules.
func underNodeModules(p string) bool {
	return strings.HasPrefix(p, "node_modules/") || strings.Contains(p, "/node_modules/")
}

// dirState is a directory's stat as a query compares it.
type dirState struct {
	path    string // relative slash path; "" for the root
	mtime   int64  // nanoseconds
	ino     int64
	ignores string // the stat of its ignore files
	names   string // digest of its entry names (namesDigest); compared when mtime differs
}

// namesDigest is a digest of the names in the directory abs (every entry,
// ignored ones too): when a directory's mtime changed but its names did
// not (a file replaced by a rename over it, a temporary file come and
// gone), the walk lists the same files. "" when it cannot be read.
func namesDigest(abs string) string {
	f, err := os.Open(abs)
	if err != nil {
		return ""
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return ""
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// sameFileSet: the directory now (statDir, names not read yet) lists
// the same entries as the recorded one, and the same ignore rules apply;
// it reads the names only when the mtime alone differs, or when the
// directory could not be read when recorded (a chmod leaves the mtime:
// one readable again must be listed). The returned state is now's, with
// its names.
func sameFileSet(root string, rec, now dirState) (dirState, bool) {
	now.names = rec.names
	if now.ino != rec.ino || now.ignores != rec.ignores {
		return now, false
	}
	if now.mtime == rec.mtime && rec.names == "" {
		now.names = namesDigest(filepath.Join(root, filepath.FromSlash(rec.path)))
		return now, now.names == "" // still unreadable: as recorded
	}
	if now.mtime == rec.mtime {
		return now, true
	}
	now.names = namesDigest(filepath.Join(root, filepath.FromSlash(rec.path)))
	return now, now.names != "" && now.names == rec.names
}

// listDirs lists the directories the walk enters, root first.
func listDirs(ctx context.Context, o *Options) ([]string, error) {
	entries, err := fscache.WalkTypes(ctx, o.Root, fscache.Options{
		Hidden: o.Walk.Hidden, Gitignore: o.Walk.Gitignore, SkipNodeModules: !o.Walk.NodeModules, SkipPseudoDirs: true,
	})
	if err != nil {
		return nil, err
	}
	dirs := []string{""}
	for _, e := range entries {
		if e.Type == fscache.TypeDir {
			dirs = append(dirs, e.Path)
		}
	}
	return dirs, nil
}

// statDir reads a directory's state now; ok is false when it is gone.
func statDir(root, rel string) (dirState, bool) {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Lstat(abs)
	if err != nil || !info.IsDir() {
		return dirState{path: rel}, false
	}
	var sig strings.Builder
	names := ignoreFiles
	if rel == "" {
		names = append(names[:len(names):len(names)], ".git/info/exclude")
	}
	for _, n := range names {
		if fi, err := os.Lstat(filepath.Join(abs, n)); err == nil {
			sig.WriteString(strconv.FormatInt(fi.Size(), 10) + ":" + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + ";")
		} else {
			sig.WriteString("-;")
		}
	}
	return dirState{path: rel, mtime: info.ModTime().UnixNano(), ino: inode(info), ignores: sig.String()}, true
}

// fileState is a file's stat as the index records it.
type fileState struct {
	size, mtime, ino int64
}

// walkLess orders relative slash paths as the walk lists them: depth
// first, siblings bytewise by name (so "a/b" comes before "a.c").
func walkLess(a, b string) int {
	for {
		ai, bi := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		ah, bh := a, b
		if ai >= 0 {
			ah = a[:ai]
		}
		if bi >= 0 {
			bh = b[:bi]
		}
		if c := strings.Compare(ah, bh); c != 0 {
			return c
		}
		if ai < 0 || bi < 0 {
			// Same name, one path ends here: the shorter first.
			return boolInt(ai >= 0) - boolInt(bi >= 0)
		}
		a, b = a[ai+1:], b[bi+1:]
	}
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}
