package read

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Directory tree caps.
const (
	treeMaxDepth   = 2  // levels of entries shown below the directory read
	treePerDirCap  = 12 // entries shown per directory, newest first
	emptyDirectory = "(empty directory)"
)

// treeEntry is one listed directory entry.
type treeEntry struct {
	name  string
	dir   bool
	link  string // symlink target, when a symlink
	size  int64
	mtime time.Time
}

// dirTree renders the tree of dir: entries newest first, treePerDirCap per
// directory, treeMaxDepth levels, each file with its size and age. lineCap
// (0 = none) bounds the rows. It reports whether anything was left out.
func dirTree(dir string, now time.Time, lineCap int) (string, bool, error) {
	entries, err := listDir(dir)
	if err != nil {
		return "", false, tool.Errorf("Cannot list directory %s: %v", dir, unwrapPathError(err))
	}
	if len(entries) == 0 {
		return emptyDirectory, false, nil
	}
	var rows []string
	cut := false
	var walk func(path string, entries []treeEntry, prefix string, depth int)
	walk = func(path string, entries []treeEntry, prefix string, depth int) {
		shown := entries
		if len(shown) > treePerDirCap {
			shown = shown[:treePerDirCap]
			cut = true
		}
		for i, e := range shown {
			last := i == len(shown)-1 && len(entries) == len(shown)
			branch, indent := "├── ", "│   "
			if last {
				branch, indent = "└── ", "    "
			}
			rows = append(rows, prefix+branch+describe(e, now))
			if e.dir && depth < treeMaxDepth {
				sub := filepath.Join(path, e.name)
				children, err := listDir(sub)
				switch {
				case err != nil:
					rows = append(rows, prefix+indent+"└── (cannot list: "+unwrapPathError(err).Error()+")")
				case len(children) > 0:
					walk(sub, children, prefix+indent, depth+1)
				}
			}
		}
		if len(entries) > len(shown) {
			rows = append(rows, prefix+"└── … "+strconv.Itoa(len(entries)-len(shown))+" more")
		}
	}
	walk(dir, entries, "", 1)
	if lineCap > 0 && len(rows) > lineCap {
		rows = append(rows[:lineCap], "… "+plural(len(rows)-lineCap, "more row"))
		cut = true
	}
	return strings.Join(rows, "\n"), cut, nil
}

// listDir lists dir newest first (ties by name), without .git.
func listDir(dir string) ([]treeEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]treeEntry, 0, len(des))
	for _, de := range des {
		if de.Name() == ".git" {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue // vanished meanwhile
		}
		e := treeEntry{name: de.Name(), dir: info.IsDir(), size: info.Size(), mtime: info.ModTime()}
		if info.Mode()&os.ModeSymlink != 0 {
			e.link, _ = os.Readlink(filepath.Join(dir, de.Name()))
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b treeEntry) int {
		if c := b.mtime.Compare(a.mtime); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	return out, nil
}

// describe renders one entry: "name (size, age)", "dir/ (age)",
// "link -> target (age)".
func describe(e treeEntry, now time.Time) string {
	age := formatAge(now.Sub(e.mtime))
	switch {
	case e.link != "":
		return e.name + " -> " + e.link + " (" + age + ")"
	case e.dir:
		return e.name + "/ (" + age + ")"
	}
	return e.name + " (" + tool.FormatSize(e.size) + ", " + age + ")"
}

// formatAge renders how long ago something changed, coarsely.
func formatAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m ago"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h ago"
	case d < 30*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d ago"
	case d < 365*24*time.Hour:
		return strconv.Itoa(int(d/(30*24*time.Hour))) + "mo ago"
	}
	return strconv.Itoa(int(d/(365*24*time.Hour))) + "y ago"
}
