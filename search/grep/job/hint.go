package job

import (
	"os"
	"path/filepath"
	"slices"
)

// holdsAFile reports whether a regular file lies somewhere below dir,
// looking at no more than a few thousand entries: the hint that filters
// left every file out would mislead in an empty tree.
func holdsAFile(dir string) bool {
	queue, seen := []string{dir}, 0
	for len(queue) > 0 && seen < 4096 {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			seen++
			switch {
			case e.Type().IsRegular():
				return true
			case e.IsDir() && e.Name() != ".git":
				queue = append(queue, filepath.Join(d, e.Name()))
			}
		}
	}
	return seen >= 4096 // too many to look through: assume there are files
}

// givenFilters names the flags of o that leave files out of a directory
// search, in a fixed order.
func givenFilters(o *Options) []string {
	var out []string
	add := func(given bool, name string) {
		if given {
			out = append(out, name)
		}
	}
	add(slices.Contains(o.GlobFold, false), "-g")
	add(slices.Contains(o.GlobFold, true), "--iglob")
	add(len(o.Types) > 0, "-t")
	add(len(o.TypesNot) > 0, "-T")
	add(o.MaxDepth > 0, "--max-depth")
	add(o.MaxFileSize > 0, "--max-filesize")
	return out
}
