package task

import (
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
func agentDirs(d config.Dirs) []agentDir {
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
	return out
}

// Discover returns the agent definitions for a configuration: the
// project's and the user's (.gopi/agents, <agent dir>/agents, then omp's
// .omp/agents and ~/.omp/agent/agents), then the bundled ones. The first
// definition of a name wins; the list keeps that order. Files that cannot
// be read or parsed are skipped and reported in problems.
func Discover(d config.Dirs) (agents []*Agent, problems []error) {
	seen := map[string]bool{}
	add := func(a *Agent) {
		if !seen[a.Name] {
			seen[a.Name] = true
			agents = append(agents, a)
		}
	}
	for _, dir := range agentDirs(d) {
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
