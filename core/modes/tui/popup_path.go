package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// popupPathEntries caps the entries a path completion lists.
const popupPathEntries = 200

// showPaths completes a plain path (Tab): the entries of its directory
// whose names start with its last part (dot-files only when that part
// starts with a dot). On Tab one fitting entry is taken at once; more open
// the popup.
func (m *model) showPaths(word string, tab bool) {
	raw, quoted := strings.CutPrefix(word, `"`)
	dir, base := "", raw
	if i := strings.LastIndexByte(raw, '/'); i >= 0 {
		dir, base = raw[:i+1], raw[i+1:]
	}
	entries, err := os.ReadDir(m.resolveDir(dir))
	if err != nil {
		m.pop = nil
		return
	}
	var items []popItem
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(m.resolveDir(dir), name)); err == nil {
				isDir = fi.IsDir()
			}
		}
		it := popItem{label: clean(name), value: shellPath(dir+name, isDir, quoted), dir: isDir}
		if isDir {
			it.label += "/"
		}
		items = append(items, it)
		if len(items) == popupPathEntries {
			break
		}
	}
	slices.SortStableFunc(items, func(a, b popItem) int { return strings.Compare(a.value, b.value) })
	if len(items) == 0 || (len(items) == 1 && items[0].value == word) {
		m.pop = nil
		return
	}
	m.setPopup(popupPath, word, items)
	if tab && len(items) == 1 {
		m.takePopup()
	}
}

// shellPath is the completed path as it goes into the editor: in double
// quotes when it holds a blank or the typed word opened a quote (a
// directory's quote stays open, so completion can go on inside it), as
// omp completes paths and as a shell reads them.
func shellPath(p string, isDir, quoted bool) string {
	if isDir {
		p += "/"
	}
	if !quoted && !strings.ContainsAny(p, " \t") {
		return p
	}
	if isDir {
		return `"` + p
	}
	return `"` + p + `"`
}

// pathWord is the path being typed at the end of before: from an open
// double quote that starts a word (`cat "my fi`), else the last word.
func pathWord(before string) string {
	open := -1
	for i := 0; i < len(before); i++ {
		if before[i] == '"' {
			if open < 0 {
				open = i
			} else {
				open = -1
			}
		}
	}
	if open >= 0 && (open == 0 || strings.IndexByte(" \t\n=", before[open-1]) >= 0) {
		return before[open:]
	}
	return lastWord(before)
}

// resolveDir turns the directory part of a typed path into one to read:
// ~/ is the home directory, a relative path is under the working
// directory.
func (m *model) resolveDir(dir string) string {
	switch {
	case dir == "":
		return m.opts.Cwd
	case dir == "~/" || strings.HasPrefix(dir, "~/"):
		return filepath.Join(m.opts.Home, dir[2:])
	case filepath.IsAbs(dir):
		return dir
	}
	return filepath.Join(m.opts.Cwd, dir)
}
