package task

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// Unpacked says what Unpack did.
type Unpacked struct {
	TargetDir string   `json:"targetDir"`
	Total     int      `json:"total"`   // bundled definitions
	Written   []string `json:"written"` // files written
	Skipped   []string `json:"skipped"` // files left as they were (they exist; force overwrites)
}

// Unpack writes the bundled agent definitions as <name>.md files into dir
// (created when missing), so that they can be edited there: a user or
// project definition of a name wins over the bundled one. Existing files
// are kept unless force. Files are written atomically.
func Unpack(dir string, force bool) (Unpacked, error) {
	res := Unpacked{TargetDir: dir, Written: []string{}, Skipped: []string{}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	entries, err := bundledFS.ReadDir("agents")
	if err != nil {
		return res, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		res.Total++
		dst := filepath.Join(dir, e.Name())
		if !force {
			if _, err := os.Lstat(dst); err == nil {
				res.Skipped = append(res.Skipped, dst)
				continue
			} else if !errors.Is(err, fs.ErrNotExist) {
				return res, err
			}
		}
		b, err := bundledFS.ReadFile(path.Join("agents", e.Name()))
		if err != nil {
			return res, err
		}
		if err := atomicfile.WriteFile(dst, b, 0o644); err != nil {
			return res, err
		}
		res.Written = append(res.Written, dst)
	}
	return res, nil
}
