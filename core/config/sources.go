package config

import (
	"os"
	"path/filepath"
	"slices"
)

// SourceID names a configuration source: gopi's own directories, or
// another agent's that are read so their users' setups are found without
// copying.
type SourceID string

// Configuration sources, highest priority first.
const (
	SourceGopi   SourceID = "gopi"   // ~/.gopi/agent and .gopi/
	SourceOMP    SourceID = "omp"    // ~/.omp/agent and .omp/ (oh-my-pi)
	SourceClaude SourceID = "claude" // ~/.claude and .claude/
	SourceCodex  SourceID = "codex"  // ~/.codex and .codex/
	SourceGemini SourceID = "gemini" // ~/.gemini and .gemini/
)

// Level says whether a directory belongs to the user or to the project.
type Level string

// Levels.
const (
	LevelUser    Level = "user"    // under the home directory
	LevelProject Level = "project" // under the working directory
)

// Source is one configuration source with its directories.
type Source struct {
	ID          SourceID
	Priority    int    // higher wins: gopi 100, omp 90, claude 80, codex 70, gemini 60
	UserDir     string // absolute user-level base; "" when the source has none here
	ProjectName string // directory name in a project; "" when none
}

// Sources lists the configuration sources, highest priority first. omp's
// directories are left out where they are gopi's own (PI_CONFIG_DIR=.omp
// or PI_CODING_AGENT_DIR pointing at ~/.omp/agent), so nothing is read
// twice.
func (d Dirs) Sources() []Source {
	omp := Source{ID: SourceOMP, Priority: 90, UserDir: d.OMPAgentDir, ProjectName: OMPDirName}
	if filepath.Clean(omp.UserDir) == filepath.Clean(d.AgentDir) {
		omp.UserDir = ""
	}
	if filepath.Clean(d.OMPProjectDir) == filepath.Clean(d.ProjectDir) {
		omp.ProjectName = ""
	}
	return []Source{
		{ID: SourceGopi, Priority: 100, UserDir: d.AgentDir, ProjectName: filepath.Base(d.ProjectDir)},
		omp,
		{ID: SourceClaude, Priority: 80, UserDir: filepath.Join(d.Home, ".claude"), ProjectName: ".claude"},
		{ID: SourceCodex, Priority: 70, UserDir: filepath.Join(d.Home, ".codex"), ProjectName: ".codex"},
		{ID: SourceGemini, Priority: 60, UserDir: filepath.Join(d.Home, ".gemini"), ProjectName: ".gemini"},
	}
}

// ConfigDir is one candidate location, tagged with where it comes from.
type ConfigDir struct {
	Path     string   // absolute path of the directory or file
	Source   SourceID // which source it belongs to
	Priority int      // the source's priority
	Level    Level    // user or project
}

// DirQuery narrows ConfigDirs and FindConfigFile. The zero value asks for
// every candidate, user and project, existing or not.
type DirQuery struct {
	SkipUser     bool // leave out user-level bases
	SkipProject  bool // leave out project-level bases
	ExistingOnly bool // only paths that exist
}

// ConfigDirs returns subpath under every source's bases: user-level ones
// first, then project-level ones, each group in priority order. subpath
// "" names the bases themselves.
func (d Dirs) ConfigDirs(subpath string, q DirQuery) []ConfigDir {
	var out []ConfigDir
	add := func(base string, s Source, l Level) {
		p := filepath.Join(base, subpath)
		if q.ExistingOnly && !exists(p) {
			return
		}
		out = append(out, ConfigDir{Path: p, Source: s.ID, Priority: s.Priority, Level: l})
	}
	sources := d.Sources()
	if !q.SkipUser {
		for _, s := range sources {
			if s.UserDir != "" {
				add(s.UserDir, s, LevelUser)
			}
		}
	}
	if !q.SkipProject {
		for _, s := range sources {
			if s.ProjectName != "" {
				add(filepath.Join(d.Cwd, s.ProjectName), s, LevelProject)
			}
		}
	}
	return out
}

// FindConfigFile returns the first existing subpath in ConfigDirs order
// (user before project, higher priority first).
func (d Dirs) FindConfigFile(subpath string, q DirQuery) (ConfigDir, bool) {
	q.ExistingOnly = false
	for _, c := range d.ConfigDirs(subpath, q) {
		if exists(c.Path) {
			return c, true
		}
	}
	return ConfigDir{}, false
}

// NearestProjectConfigDirs walks from the working directory up to the
// file system root and returns, for each source, the nearest existing
// directory <ancestor>/<source dir>/subpath, in priority order: project
// configuration inherited from an enclosing directory (monorepos, nested
// workspaces).
func (d Dirs) NearestProjectConfigDirs(subpath string) []ConfigDir {
	var out []ConfigDir
	found := map[SourceID]bool{}
	sources := d.Sources()
	for dir := d.Cwd; ; {
		for _, s := range sources {
			if s.ProjectName == "" || found[s.ID] {
				continue
			}
			p := filepath.Join(dir, s.ProjectName, subpath)
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				out = append(out, ConfigDir{Path: p, Source: s.ID, Priority: s.Priority, Level: LevelProject})
				found[s.ID] = true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir || len(found) == len(sources) {
			break
		}
		dir = parent
	}
	slices.SortStableFunc(out, func(a, b ConfigDir) int { return b.Priority - a.Priority })
	return out
}

// exists reports whether a path exists.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
