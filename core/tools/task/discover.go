package task

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
)

// agentDir is one directory agent definitions are read from.
type agentDir struct {
	path   string
	source string // SourceUser or SourceProject
}

// agentDirs lists where user definitions live, highest priority first:
// for gopi and then omp, the project's directory (the nearest one found
// from the working directory up) before the user's.
func agentDirs(d config.Dirs, extra []ExtraDir) []agentDir {
	project := d.NearestProjectConfigDirs("agents")
	user := d.ConfigDirs("agents", config.DirQuery{SkipProject: true})
	var out []agentDir
	for _, id := range []config.SourceID{config.SourceGopi, config.SourceOMP} {
		for _, c := range project {
			if c.Source == id {
				out = append(out, agentDir{c.Path, SourceProject})
			}
		}
		for _, c := range user {
			if c.Source == id {
				out = append(out, agentDir{c.Path, SourceUser})
			}
		}
	}
	for _, e := range extra {
		src := SourceUser
		if e.Project {
			src = SourceProject
		}
		out = append(out, agentDir{e.Path, src})
	}
	return out
}

// ExtraDir is a directory of agent definitions besides the configuration
// directories: an enabled plugin's agents/. Its definitions rank below
// the user's and the project's own and above the bundled ones, as omp's.
type ExtraDir struct {
	Path    string
	Project bool // the plugin is installed in the project's scope
}

// ErrDuplicateName marks a problem of Discover that is not a broken
// file: two definitions in one directory give the same name, and only
// the first (by file name) is used.
var ErrDuplicateName = errors.New("two agent definitions share a name")

// duplicateName is a problem that is ErrDuplicateName, in its own words.
type duplicateName string

func (e duplicateName) Error() string        { return string(e) }
func (e duplicateName) Is(target error) bool { return target == ErrDuplicateName }

// Discover returns the agent definitions for a configuration: the
// project's and the user's (.gopi/agents, <agent dir>/agents, then omp's
// .omp/agents and ~/.omp/agent/agents), then those of extra (the
// plugins' agents/ directories), then the bundled ones. The first
// definition of a name wins; the list keeps that order. Files that cannot
// be read or parsed are skipped and reported in problems, and so is a
// definition that loses its name to another file of its own directory
// (wrapping ErrDuplicateName). One that loses to a definition of another
// directory is not: a project agent replacing a user or bundled one is an
// override, and copies in gopi's and omp's directories are normal.
func Discover(d config.Dirs, extra ...ExtraDir) (agents []*Agent, problems []error) {
	seen := map[string]*Agent{}
	add := func(a *Agent) {
		prev := seen[a.Name]
		switch {
		case prev == nil:
			seen[a.Name] = a
			agents = append(agents, a)
		case a.Source != SourceBundled && filepath.Dir(prev.Path) == filepath.Dir(a.Path):
			problems = append(problems, duplicateName(fmt.Sprintf("agent %q is defined by both %s and %s; %s is used (rename one of them)",
				a.Name, prev.Path, a.Path, prev.Path)))
		}
	}
	for _, dir := range agentDirs(d, extra) {
		entries, err := os.ReadDir(dir.path)
		if err != nil {
			continue
		}
		var names []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".md") && (e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0) {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, name := range names {
			p := filepath.Join(dir.path, name)
			b, err := os.ReadFile(p)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			a, err := ParseAgent(p, b, dir.source)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			add(a)
		}
	}
	for _, a := range Bundled() {
		add(a)
	}
	return agents, problems
}
