package grep

import (
	"fmt"
	"path"
	"strings"

	"github.com/gopi-agent/gopi/search/glob"
)

// overrides applies ripgrep's -g globs to the files of a directory scan.
//
// The rules follow ripgrep (its "override" globs, read like gitignore
// lines with the meaning of '!' turned around):
//
//   - A glob is matched against the path as ripgrep prints it: the search
//     root as given (Options.OverrideBase) joined with the path below it.
//     When that path is absolute and inside the working directory
//     (Options.OverrideCwd), the working directory is cut off first.
//   - A glob with a '/' anywhere but at its end is anchored there: 'src/*.go'
//     matches src/a.go but not x/src/a.go. A leading '/' only anchors. A glob
//     without '/' matches a name at any depth.
//   - A trailing '/' makes a glob match directories only.
//   - When several globs match a path, the last one given decides: a plain
//     glob keeps the path, a '!' glob drops it.
//   - A directory below the root that a '!' glob drops is not entered.
//     The root itself is never matched.
//   - Once any plain glob is given, a file that no glob matches is dropped.
//     Directories are entered whatever the plain globs say, so a plain glob
//     naming a directory ('src') keeps nothing; 'src/**' keeps its files.
type overrides struct {
	rules      []overrideRule
	whitelists int    // rules without '!'
	base       string // slash path joined before each relative path; "" for none
	cwdPrefix  string // working directory with a final '/'; "" for none
	pruned     map[string]bool
}

// overrideRule is one compiled -g glob.
type overrideRule struct {
	pat     *glob.Pattern
	negate  bool // written with a leading '!'
	dirOnly bool // written with a trailing '/'
}

// compileOverrides compiles ripgrep-style globs; it returns nil when there
// are none. base is the search root as printed and cwd the working
// directory, both slash-separated (see Options.OverrideBase).
func compileOverrides(globs []string, fold []bool, base, cwd string) (*overrides, error) {
	o := &overrides{base: base, pruned: map[string]bool{}}
	if cwd != "" {
		o.cwdPrefix = strings.TrimSuffix(cwd, "/") + "/"
	}
	for i, g := range globs {
		r := overrideRule{}
		folded := i < len(fold) && fold[i]
		if strings.HasPrefix(g, "!") {
			r.negate, g = true, g[1:]
		}
		if strings.HasSuffix(g, "/") {
			r.dirOnly, g = true, strings.TrimRight(g, "/")
		}
		switch {
		case g == "":
			continue
		case strings.HasPrefix(g, "/"):
			g = strings.TrimLeft(g, "/")
		case !strings.Contains(g, "/"):
			g = "**/" + g
		}
		compile := glob.Compile
		if folded {
			compile = glob.CompileFold
		}
		p, err := compile(g)
		if err != nil {
			return nil, fmt.Errorf("invalid glob %q: %w", g, err)
		}
		r.pat = p
		if !r.negate {
			o.whitelists++
		}
		o.rules = append(o.rules, r)
	}
	if len(o.rules) == 0 {
		return nil, nil
	}
	return o, nil
}

// decide returns the verdict of the last rule matching rel (relative to
// the search root): 1 keep, -1 drop, 0 when no rule matches.
func (o *overrides) decide(rel string, isDir bool) int {
	p := rel
	if o.base != "" {
		p = path.Join(o.base, rel)
	}
	if o.cwdPrefix != "" && path.IsAbs(p) {
		switch {
		case p+"/" == o.cwdPrefix:
			p = ""
		case strings.HasPrefix(p, o.cwdPrefix):
			p = p[len(o.cwdPrefix):]
		}
	}
	for i := len(o.rules) - 1; i >= 0; i-- {
		r := &o.rules[i]
		if (r.dirOnly && !isDir) || !r.pat.Match(p) {
			continue
		}
		if r.negate {
			return -1
		}
		return 1
	}
	return 0
}

// dirPruned reports whether the directory dir (relative to the search root)
// or one of its ancestors below the root is dropped. Results are memoised:
// a scan lists many files per directory.
func (o *overrides) dirPruned(dir string) bool {
	if dir == "" || dir == "." {
		return false
	}
	if v, ok := o.pruned[dir]; ok {
		return v
	}
	v := o.dirPruned(path.Dir(dir)) || o.decide(dir, true) < 0
	o.pruned[dir] = v
	return v
}

// keepFile reports whether the file rel (relative to the search root) is
// searched.
func (o *overrides) keepFile(rel string) bool {
	if o.dirPruned(path.Dir(rel)) {
		return false
	}
	switch o.decide(rel, false) {
	case 1:
		return true
	case -1:
		return false
	}
	return o.whitelists == 0
}
