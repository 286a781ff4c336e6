package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/internal/regularfile"
)

// InstallOptions are the choices of an install.
type InstallOptions struct {
	Scope string // ScopeUser (the default) or ScopeProject
	Force bool   // reinstall a plugin that is already installed
}

// registryFor returns the installed-plugins file of a scope.
func (m *Manager) registryFor(scope string) (string, error) {
	switch scope {
	case "", ScopeUser:
		return m.Layout.InstalledFile(), nil
	case ScopeProject:
		if m.ProjectDir == "" {
			return "", errors.New("there is no project here for --scope project")
		}
		return ProjectInstalledFile(m.ProjectDir), nil
	}
	return "", fmt.Errorf("unknown scope %q: use user or project", scope)
}

// Install installs the plugin id from its marketplace's cached catalog.
// The plugin is copied to a staging directory and renamed into the cache
// when complete; the registry is rewritten last.
func (m *Manager) Install(ctx context.Context, id ID, o InstallOptions) (Install, error) {
	unlock, err := m.lock()
	if err != nil {
		return Install{}, err
	}
	defer unlock()
	return m.installLocked(ctx, id, o)
}

// installLocked is Install with the lock held.
func (m *Manager) installLocked(ctx context.Context, id ID, o InstallOptions) (Install, error) {
	if o.Scope == "" {
		o.Scope = ScopeUser
	}
	regFile, err := m.registryFor(o.Scope)
	if err != nil {
		return Install{}, err
	}
	cat, mk, err := m.Catalog(id.Marketplace)
	if err != nil {
		return Install{}, err
	}
	var entry *Entry
	for i := range cat.Plugins {
		if cat.Plugins[i].Name == id.Name {
			entry = &cat.Plugins[i]
		}
	}
	if entry == nil {
		return Install{}, fmt.Errorf("marketplace %q has no plugin %q (gopi plugin discover %s lists its plugins)", id.Marketplace, id.Name, id.Marketplace)
	}
	reg, err := readInstalled(regFile)
	if err != nil {
		return Install{}, err
	}
	if err := m.checkCollision(id, o, reg); err != nil {
		return Install{}, err
	}
	staging := filepath.Join(m.Layout.PluginCache(), ".staging") // lock removed a killed install's
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return Install{}, err
	}
	defer os.RemoveAll(staging)
	src, sha, npmVersion, err := m.pluginSource(ctx, mk, cat, *entry, staging)
	if err != nil {
		return Install{}, fmt.Errorf("installing %s: %w", id, err)
	}
	stage := tempDir(staging, "plugin-")
	if err := copyTree(src, stage); err != nil {
		return Install{}, fmt.Errorf("installing %s: %w", id, err)
	}
	man, err := readManifest(stage)
	if err != nil {
		return Install{}, fmt.Errorf("installing %s: %w", id, err)
	}
	if man == nil && entry.Source.Kind == SourceNPM {
		return Install{}, fmt.Errorf("installing %s: npm package %s is not a plugin: it has no %s (nor %s)", id, entry.Source.Package, ManifestPaths[1], ManifestPaths[0])
	}
	if err := writeInlineConfig(stage, *entry); err != nil {
		return Install{}, fmt.Errorf("installing %s: %w", id, err)
	}
	version := versionOf(*entry, man, sha)
	if npmVersion != "" {
		version = versionOf(Entry{Version: npmVersion}, nil, "") // what npm fetched
	}
	final := filepath.Join(m.Layout.PluginCache(), id.Marketplace+"___"+id.Name+"___"+version) // omp's naming
	if err := replaceDir(stage, final); err != nil {
		return Install{}, fmt.Errorf("installing %s: %w", id, err)
	}
	prev := reg.Plugins[id.String()]
	now := m.now()
	inst := Install{Scope: o.Scope, InstallPath: final, Version: version, InstalledAt: now, LastUpdated: now, GitCommitSha: sha}
	for _, p := range prev {
		if !p.IsEnabled() {
			off := false
			inst.Enabled = &off // a disabled plugin stays disabled when reinstalled
		}
		if p.InstalledAt != "" {
			inst.InstalledAt = p.InstalledAt
		}
	}
	reg.Plugins[id.String()] = []Install{inst}
	if o.Scope == ScopeProject {
		if err := m.Layout.noteProject(regFile); err != nil {
			return Install{}, err
		}
	}
	if err := writeJSON(regFile, reg); err != nil {
		return Install{}, err
	}
	for _, p := range prev {
		if p.InstallPath != final {
			m.removeUnreferenced(p.InstallPath)
		}
	}
	return inst, nil
}

// checkCollision refuses a second install of an id without --force, and
// a plugin whose name is already taken by another marketplace's plugin:
// both would contribute under the same name.
func (m *Manager) checkCollision(id ID, o InstallOptions, reg *installedDoc) error {
	if len(reg.Plugins[id.String()]) > 0 && !o.Force {
		return fmt.Errorf("plugin %s is already installed (%s scope); use --force to reinstall it", id, o.Scope)
	}
	for _, scope := range []string{ScopeUser, ScopeProject} {
		file, err := m.registryFor(scope)
		if err != nil {
			continue
		}
		other, err := readInstalled(file)
		if err != nil {
			return err
		}
		for _, k := range other.ids() {
			oid, err := ParseID(k)
			if err == nil && oid.Name == id.Name && oid.Marketplace != id.Marketplace && len(other.Plugins[k]) > 0 {
				return fmt.Errorf("plugin name %q is already taken by %s (%s scope); uninstall it first (gopi plugin uninstall %s)", id.Name, k, scope, k)
			}
		}
	}
	return nil
}

// pluginSource returns the directory holding a catalog entry's plugin
// (cloning or unpacking into staging for Git and npm sources), the commit
// it came from and, for npm, the package version fetched.
func (m *Manager) pluginSource(ctx context.Context, mk Marketplace, cat *Catalog, e Entry, staging string) (dir, sha, version string, err error) {
	s := e.Source
	switch s.Kind {
	case SourcePath:
		var root string
		switch mk.SourceType {
		case TypeLocal:
			root = mk.SourceURI
		case TypeURL:
			return "", "", "", fmt.Errorf("plugin %q has a relative source, which needs a Git or local marketplace; %q was added from a catalog URL", e.Name, mk.Name)
		default:
			root = m.cloneDir(mk.Name)
		}
		rel := s.Path
		if cat.Metadata != nil && cat.Metadata.PluginRoot != "" {
			rel = filepath.ToSlash(filepath.Join(cat.Metadata.PluginRoot, s.Path))
		}
		dir, err := resolveInside(root, rel)
		if err != nil {
			return "", "", "", fmt.Errorf("plugin %q source: %w", e.Name, err)
		}
		if mk.SourceType != TypeLocal {
			sha, _ = m.Git.Head(ctx, root)
		}
		return dir, sha, "", nil
	case SourceURL, SourceGitHub, SourceGitSubdir:
		url := s.URL
		if s.Kind == SourceGitHub || (s.Kind == SourceGitSubdir && ownerRepo(s.URL)) {
			repo := s.Repo
			if repo == "" {
				repo = s.URL
			}
			url = gitURL(TypeGitHub, repo)
		}
		clone := tempDir(staging, "clone-")
		if err := m.Git.Clone(ctx, url, s.Ref, s.SHA, clone); err != nil {
			return "", "", "", err
		}
		sha, _ = m.Git.Head(ctx, clone)
		if s.Kind != SourceGitSubdir {
			return clone, sha, "", nil
		}
		dir, err := resolveInside(clone, s.Path)
		if err != nil {
			return "", "", "", fmt.Errorf("plugin %q source: %w", e.Name, err)
		}
		return dir, sha, "", nil
	case SourceNPM:
		tarball, got, err := m.NPM.Pack(ctx, s.Package, s.Version, tempDir(staging, "npm-"))
		if err != nil {
			return "", "", "", fmt.Errorf("plugin %q: %w", e.Name, err)
		}
		dir := tempDir(staging, "package-")
		if err := unpackTarball(tarball, dir); err != nil {
			return "", "", "", fmt.Errorf("plugin %q from npm package %s: %w", e.Name, s.Package, err)
		}
		return dir, "", got, nil
	}
	return "", "", "", fmt.Errorf("plugin %q has an unknown source kind %q", e.Name, s.Kind)
}

// readManifest reads a plugin directory's manifest (nil when it has
// none); a malformed one is an error naming the file.
func readManifest(dir string) (*Manifest, error) {
	for _, rel := range ManifestPaths {
		file := filepath.Join(dir, filepath.FromSlash(rel))
		data, err := regularfile.Read(file)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return ParseManifest(data, file)
	}
	return nil, nil
}

// writeInlineConfig writes MCP and LSP servers a catalog entry declares
// inline into the installed copy, where the plugin has no file of its own.
func writeInlineConfig(dir string, e Entry) error {
	for _, f := range []struct {
		raw  json.RawMessage
		file string
		key  string
	}{{e.MCPServers, ".mcp.json", "mcpServers"}, {e.LSPServers, ".lsp.json", "servers"}} {
		_, obj, err := pathOrObject(f.raw)
		if err != nil {
			return fmt.Errorf("catalog entry %q: %w", e.Name, err)
		}
		target := filepath.Join(dir, f.file)
		if obj == nil {
			continue
		}
		if _, err := os.Lstat(target); err == nil {
			continue
		}
		data, err := json.MarshalIndent(map[string]any{f.key: obj}, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// versionOf picks the version an install is filed under: the catalog's,
// the manifest's, the commit's, else "unknown"; made safe as a directory
// name and as shell text (letters, digits and . _ + - are kept, anything
// else becomes '_').
func versionOf(e Entry, man *Manifest, sha string) string {
	v := e.Version
	if v == "" && man != nil {
		v = man.Version
	}
	if v == "" && len(sha) >= 12 {
		v = sha[:12]
	}
	v = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._+-", r) {
			return r
		}
		return '_'
	}, v)
	if v == "" || v == "." || v == ".." {
		v = "unknown"
	}
	return v
}

// removeUnreferenced deletes an old install directory that no registry
// names any more: the user's, this project's or another project's that
// installed into the same cache (and only inside the plugin cache).
func (m *Manager) removeUnreferenced(dir string) {
	if !within(m.Layout.PluginCache(), filepath.Clean(dir)) {
		return
	}
	files, ok := m.registryFiles()
	if !ok {
		return // unsure: keep the files
	}
	for _, file := range files {
		reg, err := readInstalled(file)
		if err != nil {
			return // unsure: keep the files
		}
		for _, list := range reg.Plugins {
			for _, p := range list {
				if filepath.Clean(p.InstallPath) == filepath.Clean(dir) {
					return
				}
			}
		}
	}
	_ = os.RemoveAll(dir)
}

// readScope reads the registry of a scope ("" is the user's), returning
// the scope, the file and its content.
func (m *Manager) readScope(scope string) (string, string, *installedDoc, error) {
	if scope == "" {
		scope = ScopeUser
	}
	file, err := m.registryFor(scope)
	if err != nil {
		return scope, "", nil, err
	}
	reg, err := readInstalled(file)
	return scope, file, reg, err
}

// changeInstalled runs change on the registry of a scope, with the lock
// held, for a plugin that must be installed there, and writes the
// registry back; it returns the entries the plugin had.
func (m *Manager) changeInstalled(id ID, scope string, change func(reg *installedDoc, list []Install)) ([]Install, error) {
	unlock, err := m.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	return m.changeInstalledLocked(id, scope, change)
}

// changeInstalledLocked is changeInstalled with the lock held.
func (m *Manager) changeInstalledLocked(id ID, scope string, change func(reg *installedDoc, list []Install)) ([]Install, error) {
	scope, file, reg, err := m.readScope(scope)
	if err != nil {
		return nil, err
	}
	list, ok := reg.Plugins[id.String()]
	if !ok {
		return nil, fmt.Errorf("plugin %s is not installed at %s scope (gopi plugin list shows what is)", id, scope)
	}
	change(reg, list)
	if err := writeJSON(file, reg); err != nil {
		return nil, err
	}
	return list, nil
}

// Uninstall removes an installed plugin from a scope's registry and
// deletes its files when nothing else names them.
func (m *Manager) Uninstall(id ID, scope string) error {
	unlock, err := m.lock()
	if err != nil {
		return err
	}
	defer unlock()
	prev, err := m.changeInstalledLocked(id, scope, func(reg *installedDoc, _ []Install) { delete(reg.Plugins, id.String()) })
	if err != nil {
		return err
	}
	for _, p := range prev {
		m.removeUnreferenced(p.InstallPath)
	}
	return nil
}

// SetEnabled turns an installed plugin on or off without removing it.
func (m *Manager) SetEnabled(id ID, scope string, on bool) error {
	_, err := m.changeInstalled(id, scope, func(_ *installedDoc, list []Install) {
		for i := range list {
			list[i].Enabled = nil
			if !on {
				off := false
				list[i].Enabled = &off
			}
		}
	})
	return err
}

// Upgrade re-reads the marketplaces of the plugins installed at scope
// and reinstalls them (only id when it is not the zero ID). It returns
// the plugins upgraded.
func (m *Manager) Upgrade(ctx context.Context, id ID, scope string) ([]ID, error) {
	unlock, err := m.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	scope, _, reg, err := m.readScope(scope)
	if err != nil {
		return nil, err
	}
	var ids []ID
	for _, k := range reg.ids() {
		pid, err := ParseID(k)
		if err != nil || (id != (ID{}) && pid != id) {
			continue
		}
		ids = append(ids, pid)
	}
	if id != (ID{}) && len(ids) == 0 {
		return nil, fmt.Errorf("plugin %s is not installed at %s scope (gopi plugin list shows what is)", id, scope)
	}
	updated := map[string]bool{}
	var done []ID
	for _, pid := range ids {
		if !updated[pid.Marketplace] {
			if _, err := m.updateLocked(ctx, pid.Marketplace); err != nil {
				return done, err
			}
			updated[pid.Marketplace] = true
		}
		if m.npmUpToDate(pid, reg.Plugins[pid.String()]) {
			continue
		}
		if _, err := m.installLocked(ctx, pid, InstallOptions{Scope: scope, Force: true}); err != nil {
			return done, err
		}
		done = append(done, pid)
	}
	return done, nil
}

// npmUpToDate reports whether a plugin from an npm source is installed at
// exactly the version its catalog now names, so an upgrade need not fetch
// it again (a range or no version is fetched again: it may resolve anew).
func (m *Manager) npmUpToDate(id ID, installed []Install) bool {
	cat, _, err := m.Catalog(id.Marketplace)
	if err != nil || len(installed) != 1 {
		return false
	}
	for _, e := range cat.Plugins {
		if e.Name != id.Name {
			continue
		}
		v := strings.TrimPrefix(strings.TrimSpace(e.Source.Version), "v")
		if e.Source.Kind != SourceNPM || !exactVersion(v) || installed[0].Version != versionOf(Entry{Version: v}, nil, "") {
			return false
		}
		_, err := os.Stat(installed[0].InstallPath)
		return err == nil
	}
	return false
}
