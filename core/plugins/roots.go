package plugins

import (
	"fmt"
	"os"
	"path/filepath"
)

// Origins of a plugin root.
const (
	OriginDir  = "plugin-dir" // --plugin-dir
	OriginGopi = "gopi"       // gopi's registries
	OriginOMP  = "omp"        // omp's registries, read after gopi's
)

// Root is one enabled plugin whose directory contributes to a session.
type Root struct {
	ID      ID
	Path    string // the plugin's directory
	Scope   string // ScopeUser or ScopeProject
	Origin  string // Origin*
	Version string
}

// InstalledPlugin is one registry entry as `plugin list` shows it.
type InstalledPlugin struct {
	ID       ID
	Install  Install
	Origin   string // OriginGopi or OriginOMP
	Shadowed bool   // a project install of the same plugin (or an earlier source) wins over it
}

// Sources says where installed plugins are registered.
type Sources struct {
	Layout     Layout // gopi's user files
	ProjectDir string // the project's .gopi ("" none)
	OMPLayout  Layout // omp's user files (~/.omp); Root "" skips them
	OMPProject string // the project's .omp ("" none)
	// SkipProject leaves project registries out (an untrusted project).
	SkipProject bool
}

// registries lists the registry files in precedence order.
func (s Sources) registries() []struct{ file, scope, origin string } {
	var out []struct{ file, scope, origin string }
	seen := map[string]bool{}
	add := func(file, scope, origin string) {
		if file = filepath.Clean(file); !seen[file] { // a project in the home directory: .omp is omp's user root too
			seen[file] = true
			out = append(out, struct{ file, scope, origin string }{file, scope, origin})
		}
	}
	if s.ProjectDir != "" && !s.SkipProject {
		add(ProjectInstalledFile(s.ProjectDir), ScopeProject, OriginGopi)
	}
	add(s.Layout.InstalledFile(), ScopeUser, OriginGopi)
	if s.OMPProject != "" && !s.SkipProject && filepath.Clean(s.OMPProject) != filepath.Clean(s.ProjectDir) {
		add(ProjectInstalledFile(s.OMPProject), ScopeProject, OriginOMP)
	}
	if s.OMPLayout.Root != "" && filepath.Clean(s.OMPLayout.Root) != filepath.Clean(s.Layout.Root) {
		add(s.OMPLayout.InstalledFile(), ScopeUser, OriginOMP)
	}
	return out
}

// inPluginCache reports whether dir (absolute) lies in gopi's or omp's
// user plugin cache, where project-scope installs are made. A project's
// registry comes with the repository, so a directory elsewhere (one the
// repository ships, say) would be code nobody installed.
func (s Sources) inPluginCache(dir string) bool {
	if !filepath.IsAbs(dir) {
		return false
	}
	dir = filepath.Clean(dir)
	for _, l := range []Layout{s.Layout, s.OMPLayout} {
		if l.Root != "" && within(filepath.Clean(l.PluginCache()), dir) && filepath.Clean(l.PluginCache()) != dir {
			return true
		}
	}
	return false
}

// List returns every registry entry in precedence order, marking those
// an earlier entry of the same plugin name shadows. Unreadable registries
// are reported and skipped.
func List(s Sources) ([]InstalledPlugin, []error) {
	var out []InstalledPlugin
	var errs []error
	seen := map[string]bool{}
	for _, r := range s.registries() {
		doc, err := readInstalled(r.file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, k := range doc.ids() {
			id, err := ParseID(k)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", r.file, err))
				continue
			}
			for _, inst := range doc.Plugins[k] {
				if inst.Scope == "" {
					inst.Scope = r.scope
				}
				if r.scope == ScopeProject && !s.inPluginCache(inst.InstallPath) {
					errs = append(errs, fmt.Errorf("%s: plugin %s names %s, outside the plugin cache, and was not loaded: a project's registry may only name plugins installed with gopi plugin install --scope project", r.file, id, inst.InstallPath))
					continue
				}
				out = append(out, InstalledPlugin{ID: id, Install: inst, Origin: r.origin, Shadowed: seen[id.Name]})
				seen[id.Name] = true
			}
		}
	}
	return out, errs
}

// Roots returns the plugin directories that contribute to a session, in
// precedence order: the --plugin-dir directories, then the enabled
// installs (gopi's project, gopi's user, omp's project, omp's user). The
// first of a plugin name wins; a disabled install hides the ones after
// it. Problems (a registered directory that is gone, an unreadable
// registry) are returned and the rest still loads.
func Roots(s Sources, dirs []string) ([]Root, []error) {
	var out []Root
	var errs []error
	seen := map[string]bool{}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			errs = append(errs, fmt.Errorf("--plugin-dir %s is not a directory", d))
			continue
		}
		name := filepath.Base(abs)
		man, err := readManifest(abs)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if man != nil && man.Name != "" {
			name = man.Name
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, Root{ID: ID{Name: name, Marketplace: OriginDir}, Path: abs, Scope: ScopeProject, Origin: OriginDir})
	}
	list, lerrs := List(s)
	errs = append(errs, lerrs...)
	for _, p := range list {
		if p.Shadowed || seen[p.ID.Name] {
			continue
		}
		seen[p.ID.Name] = true
		if !p.Install.IsEnabled() {
			continue
		}
		if fi, err := os.Stat(p.Install.InstallPath); err != nil || !fi.IsDir() {
			errs = append(errs, fmt.Errorf("plugin %s is installed but its directory %s is missing; reinstall it (gopi plugin install --force %s)", p.ID, p.Install.InstallPath, p.ID))
			continue
		}
		out = append(out, Root{ID: p.ID, Path: p.Install.InstallPath, Scope: p.Install.Scope, Origin: p.Origin, Version: p.Install.Version})
	}
	return out, errs
}
