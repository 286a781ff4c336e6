package extensions

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Where extensions come from, in load order: the auto-discovered
// directories (project, then user; gopi's then omp's), then the paths
// given on the command line (-e, --hook), then the settings' extensions
// list. The first occurrence of a file wins.

// Sources says where to look for extensions.
type Sources struct {
	Cwd         string   // the project; <cwd>/.gopi/extensions and <cwd>/.omp/extensions are searched
	AgentDirs   []string // agent directories whose extensions/ are searched (gopi's, then omp's)
	Paths       []string // -e / --hook paths
	Settings    []string // the settings' extensions list
	Disabled    []string // disabledExtensions: "extension-module:<name>" entries
	NoDiscovery bool     // --no-extensions: no auto-discovery (explicit paths still load)
	// SkipProject leaves the project's extensions directories out (the
	// project is not trusted; see config.Config.ProjectTrusted).
	SkipProject bool
}

// Entry is one extension module to load.
type Entry struct {
	Path string // absolute path of the module
	Name string // derived name: the file's base name, or its directory's for index files
	// CustomTool marks a custom tool module: its factory gets the custom
	// tool API and returns tools (see ResolveCustomTools).
	CustomTool bool
}

// Resolve lists the modules to load, in order, without duplicates, the
// disabled ones left out; missing explicit paths are returned as errors
// (the others still load).
func Resolve(src Sources) ([]Entry, []LoadError) {
	var paths []string
	var errs []LoadError
	if !src.NoDiscovery {
		var roots []string
		if !src.SkipProject {
			roots = []string{filepath.Join(src.Cwd, ".gopi", "extensions"), filepath.Join(src.Cwd, ".omp", "extensions")}
		}
		for _, d := range src.AgentDirs {
			roots = append(roots, filepath.Join(d, "extensions"))
		}
		for _, r := range roots {
			if fi, err := os.Stat(r); err == nil && fi.IsDir() {
				paths = append(paths, scanDir(r, &errs)...)
			}
		}
	}
	for _, p := range append(append([]string(nil), src.Paths...), src.Settings...) {
		p = expand(p, src.Cwd)
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			errs = append(errs, LoadError{Path: p, Err: "extension not found: " + p})
		case fi.IsDir():
			before := len(errs)
			found := dirEntries(p, &errs)
			if len(found) == 0 && len(errs) == before {
				errs = append(errs, LoadError{Path: p, Err: "no extension in " + p + " (expected package.json with omp.extensions, index.ts, index.js, or *.ts / *.js files)"})
			}
			paths = append(paths, found...)
		default:
			paths = append(paths, p)
		}
	}
	disabled := map[string]bool{}
	for _, d := range src.Disabled {
		disabled[strings.TrimPrefix(d, "extension-module:")] = true
	}
	seen := map[string]bool{}
	var out []Entry
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil || seen[abs] {
			continue
		}
		seen[abs] = true
		name := NameOf(abs)
		if disabled[name] {
			continue
		}
		out = append(out, Entry{Path: abs, Name: name})
	}
	return out, errs
}

// ToolSources says where to look for custom tool modules.
type ToolSources struct {
	Cwd  string // the project: <cwd>/.gopi/tools, .omp/tools, .claude/tools, .codex/tools
	Home string // the user's home: ~/.claude/tools, ~/.codex/tools
	// AgentDirs are agent directories whose tools/ are searched (gopi's,
	// then omp's), after the project's.
	AgentDirs []string
	Paths     []string // configured paths (files or directories), relative to Cwd
	// SkipProject leaves the project's tool directories out (the project
	// is not trusted; see config.Config.ProjectTrusted).
	SkipProject bool
}

// ResolveCustomTools lists the custom tool modules to load: the project's
// tool directories, then the user's, then the configured paths; the first
// occurrence of a file wins. Only JavaScript and TypeScript modules run:
// the .md and .json tool descriptions some tools directories hold are
// metadata and are skipped. A configured path that does not exist is an
// error (the others still load).
func ResolveCustomTools(src ToolSources) ([]Entry, []LoadError) {
	var roots []string
	for _, d := range []string{".gopi", ".omp", ".claude", ".codex"} {
		if !src.SkipProject {
			roots = append(roots, filepath.Join(src.Cwd, d, "tools"))
		}
	}
	for _, d := range src.AgentDirs {
		roots = append(roots, filepath.Join(d, "tools"))
	}
	if src.Home != "" {
		roots = append(roots, filepath.Join(src.Home, ".claude", "tools"), filepath.Join(src.Home, ".codex", "tools"))
	}
	var paths []string
	var errs []LoadError
	for _, r := range roots {
		if isDir(r) {
			paths = append(paths, scanDir(r, &errs)...)
		}
	}
	for _, p := range src.Paths {
		p = expand(p, src.Cwd)
		switch {
		case isDir(p):
			paths = append(paths, dirEntries(p, &errs)...)
		case isFile(p):
			paths = append(paths, p)
		default:
			errs = append(errs, LoadError{Path: p, Event: "load", Err: "custom tool not found: " + p})
		}
	}
	seen := map[string]bool{}
	var out []Entry
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil || seen[abs] {
			continue
		}
		seen[abs] = true
		out = append(out, Entry{Path: abs, Name: NameOf(abs), CustomTool: true})
	}
	return out, errs
}

// NameOf derives an extension's name from its path: /x/foo.ts is "foo",
// /x/bar/index.ts is "bar".
func NameOf(path string) string {
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if stem == "index" {
		return filepath.Base(filepath.Dir(path))
	}
	return stem
}

// expand normalises unusual spaces, expands ~ and makes p absolute
// against cwd.
func expand(p, cwd string) string {
	p = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) && r != '\n' && r != '\t' {
			return ' '
		}
		return r
	}, strings.TrimSpace(p))
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

// dirEntries resolves a directory named explicitly: its package.json's
// declared entries, else index.ts, else index.js, else what scanDir
// finds. Refused manifest entries are added to errs.
func dirEntries(dir string, errs *[]LoadError) []string {
	if declared, ok := manifestEntries(dir, errs); ok {
		return declared
	}
	for _, idx := range []string{"index.ts", "index.js"} {
		if isFile(filepath.Join(dir, idx)) {
			return []string{filepath.Join(dir, idx)}
		}
	}
	return scanDir(dir, errs)
}

// scanDir finds the extensions one level down: *.ts and *.js files, and
// subdirectories with a manifest or an index file (TypeScript first).
// Refused manifest entries are added to errs.
func scanDir(dir string, errs *[]LoadError) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		if isDir(p) {
			if declared, ok := manifestEntries(p, errs); ok {
				out = append(out, declared...)
				continue
			}
			for _, idx := range []string{"index.ts", "index.js"} {
				if isFile(filepath.Join(p, idx)) {
					out = append(out, filepath.Join(p, idx))
					break
				}
			}
			continue
		}
		if ext := filepath.Ext(name); (ext == ".ts" || ext == ".js" || ext == ".mjs" || ext == ".mts") && !strings.HasSuffix(name, ".d.ts") {
			out = append(out, p)
		}
	}
	return out
}

// manifestEntries reads package.json's omp.extensions (or the older
// pi.extensions), resolved against dir; existing files only. An entry
// that leads outside dir (an absolute path, "..", or a symbolic link
// pointing out) is refused with an error in errs: a package names its
// own files, never others.
func manifestEntries(dir string, errs *[]LoadError) ([]string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, false
	}
	var pkg struct {
		OMP struct {
			Extensions []string `json:"extensions"`
		} `json:"omp"`
		PI struct {
			Extensions []string `json:"extensions"`
		} `json:"pi"`
	}
	if json.Unmarshal(b, &pkg) != nil {
		return nil, false
	}
	list := pkg.OMP.Extensions
	if len(list) == 0 {
		list = pkg.PI.Extensions
	}
	if len(list) == 0 {
		return nil, false
	}
	var out []string
	for _, e := range list {
		p, err := confined(dir, e)
		if err != nil {
			*errs = append(*errs, LoadError{Path: filepath.Join(dir, "package.json"), Event: "load", Err: err.Error()})
			continue
		}
		if isFile(p) {
			out = append(out, p)
		}
	}
	return out, true
}

// confined resolves the manifest entry e against dir, refusing one that
// leads outside it, lexically or through a symbolic link.
func confined(dir, e string) (string, error) {
	refuse := func(why string) error {
		return fmt.Errorf("package.json in %s: extension entry %q %s; list files inside the extension's directory", dir, e, why)
	}
	if filepath.IsAbs(e) {
		return "", refuse("is an absolute path")
	}
	p := filepath.Join(dir, e)
	if !within(dir, p) {
		return "", refuse("leads outside the directory")
	}
	realDir, err1 := filepath.EvalSymlinks(dir)
	realP, err2 := filepath.EvalSymlinks(p)
	if err1 == nil && err2 == nil && !within(realDir, realP) {
		return "", refuse("is a symbolic link leading outside the directory")
	}
	return p, nil
}

// within reports whether p is dir or below it (both cleaned).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
