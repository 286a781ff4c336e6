package recipe

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/internal/regularfile"
)

// lockfiles decide the package manager of package.json scripts, first
// match wins; without one, bun when it is installed, else npm.
var lockfiles = []struct {
	names  []string
	prefix string
}{
	{[]string{"bun.lock", "bun.lockb"}, "bun run"},
	{[]string{"pnpm-lock.yaml"}, "pnpm run"},
	{[]string{"yarn.lock"}, "yarn"},
	{[]string{"package-lock.json", "npm-shrinkwrap.json"}, "npm run"},
}

// packageManager returns the command prefix of the project's scripts.
func packageManager(p Probe) string {
	for _, l := range lockfiles {
		if firstFile(p.Root, l.names...) != "" {
			return l.prefix
		}
	}
	if p.lookPath("bun") != "" {
		return "bun run"
	}
	return "npm run"
}

// probePkg lists the scripts of the root package.json (bare names) and
// of its workspace packages ("<package name or dir>/<script>", run in the
// package's directory). No program is needed to list them.
func probePkg(_ context.Context, p Probe) *Runner {
	root, ok := readPackageJSON(filepath.Join(p.Root, "package.json"))
	if !ok {
		return nil
	}
	var tasks []Task
	for _, s := range root.scripts {
		tasks = append(tasks, Task{Name: s, Command: shellQuote(s)})
	}
	for _, rel := range workspacePackages(p.Root, root.workspaces) {
		pkg, ok := readPackageJSON(filepath.Join(p.Root, filepath.FromSlash(rel)))
		if !ok {
			continue
		}
		dir := path.Dir(rel)
		owner := pkg.name
		if owner == "" {
			owner = dir
		}
		for _, s := range pkg.scripts {
			tasks = append(tasks, Task{Name: owner + "/" + s, Doc: dir, Command: shellQuote(s), Dir: dir})
		}
	}
	if len(tasks) == 0 {
		return nil
	}
	return &Runner{ID: RunnerPkg, Label: "Pkg", Prefix: packageManager(p), Tasks: tasks}
}

// packageJSON is what the runner reads of a package.json.
type packageJSON struct {
	name       string
	scripts    []string // names of string-valued scripts, in file order
	workspaces []string // workspace globs ("workspaces" or "workspaces.packages")
}

// readPackageJSON reads a package.json; false when it is missing or not
// a JSON object.
func readPackageJSON(file string) (packageJSON, bool) {
	data, err := regularfile.Read(file)
	if err != nil {
		return packageJSON{}, false
	}
	var doc struct {
		Name       any             `json:"name"`
		Scripts    json.RawMessage `json:"scripts"`
		Workspaces json.RawMessage `json:"workspaces"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return packageJSON{}, false
	}
	var pj packageJSON
	pj.name, _ = doc.Name.(string)
	pj.scripts = stringKeys(doc.Scripts)
	var list []any
	if json.Unmarshal(doc.Workspaces, &list) != nil {
		var obj struct {
			Packages []any `json:"packages"`
		}
		if json.Unmarshal(doc.Workspaces, &obj) == nil {
			list = obj.Packages
		}
	}
	for _, v := range list {
		if s, ok := v.(string); ok {
			pj.workspaces = append(pj.workspaces, s)
		}
	}
	return pj, true
}

// stringKeys returns, in document order, the non-empty keys of a JSON
// object whose values are strings; nil for anything but an object.
func stringKeys(raw json.RawMessage) []string {
	var keys []string
	eachMember(raw, func(key string, value json.RawMessage) {
		var s string
		if key != "" && json.Unmarshal(value, &s) == nil && !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	})
	return keys
}

// workspacePackages returns the package.json files (slash paths relative
// to root, sorted) the workspace globs name: "packages/*" stands for
// "packages/*/package.json"; a glob starting with "!" excludes; the
// root package.json is never one.
func workspacePackages(root string, globs []string) []string {
	include, exclude := map[string]bool{}, map[string]bool{}
	for _, g := range globs {
		set := include
		if rest, ok := strings.CutPrefix(g, "!"); ok {
			g, set = rest, exclude
		}
		if !strings.HasSuffix(g, "package.json") {
			g = strings.TrimRight(g, "/") + "/package.json"
		}
		for _, m := range globFiles(root, g) {
			set[m] = true
		}
	}
	var out []string
	for m := range include {
		if m != "package.json" && !exclude[m] {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out
}

// globFiles returns the regular files under root matching pattern, a
// slash path whose segments are path.Match patterns or "**" (any number
// of directories). node_modules and hidden directories are not entered
// by "**".
func globFiles(root, pattern string) []string {
	pattern = strings.TrimPrefix(path.Clean("/"+pattern), "/")
	var out []string
	var walk func(dir string, segs []string)
	walk = func(dir string, segs []string) {
		if len(segs) == 0 {
			return
		}
		seg, rest := segs[0], segs[1:]
		if seg == "**" {
			walk(dir, rest)
			for _, e := range readDir(filepath.Join(root, filepath.FromSlash(dir))) {
				if e.IsDir() && e.Name() != "node_modules" && !strings.HasPrefix(e.Name(), ".") {
					walk(path.Join(dir, e.Name()), segs)
				}
			}
			return
		}
		for _, e := range readDir(filepath.Join(root, filepath.FromSlash(dir))) {
			if ok, _ := path.Match(seg, e.Name()); !ok {
				continue
			}
			rel := path.Join(dir, e.Name())
			if len(rest) == 0 {
				if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && fi.Mode().IsRegular() {
					out = append(out, rel)
				}
				continue
			}
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && fi.IsDir() {
				walk(rel, rest)
			}
		}
	}
	walk("", strings.Split(pattern, "/"))
	return out
}

// readDir lists dir; nothing when it cannot be read.
func readDir(dir string) []os.DirEntry {
	entries, _ := os.ReadDir(dir)
	return entries
}
