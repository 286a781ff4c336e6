package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/gopi-agent/gopi/internal/atomicfile"
	"github.com/gopi-agent/gopi/internal/regularfile"
)

// Layout places one tool's plugin files under a root directory (gopi's
// agent directory, or omp's ~/.omp).
type Layout struct {
	Root string
}

// MarketplacesFile is the registry of added marketplaces.
func (l Layout) MarketplacesFile() string { return filepath.Join(l.Root, "marketplaces.json") }

// InstalledFile is the user-scope registry of installed plugins.
func (l Layout) InstalledFile() string {
	return filepath.Join(l.Root, "plugins", "installed_plugins.json")
}

// MarketplaceCache holds a clone (or catalog copy) per marketplace.
func (l Layout) MarketplaceCache() string {
	return filepath.Join(l.Root, "plugins", "cache", "marketplaces")
}

// PluginCache holds installed plugins: <marketplace>___<name>___<version>
// (omp's naming).
func (l Layout) PluginCache() string { return filepath.Join(l.Root, "plugins", "cache", "plugins") }

// lockFile serialises changes to this layout's files across processes.
func (l Layout) lockFile() string { return filepath.Join(l.Root, "plugins", ".lock") }

// ProjectInstalledFile is a project's registry of installed plugins,
// given the project's config directory (.gopi or .omp).
func ProjectInstalledFile(projectConfigDir string) string {
	return filepath.Join(projectConfigDir, "plugins", "installed_plugins.json")
}

// Marketplace source types, as marketplaces.json records them.
const (
	TypeGitHub = "github" // owner/repo
	TypeGit    = "git"    // a Git URL
	TypeURL    = "url"    // a direct link to a catalog file
	TypeLocal  = "local"  // a directory
)

// Marketplace is one added marketplace.
type Marketplace struct {
	Name        string `json:"name"`
	SourceType  string `json:"sourceType"`  // one of the Type* constants
	SourceURI   string `json:"sourceUri"`   // as added (local directories made absolute)
	CatalogPath string `json:"catalogPath"` // the cached copy of the catalog
	AddedAt     string `json:"addedAt"`
	UpdatedAt   string `json:"updatedAt"`
}

// marketplacesDoc is marketplaces.json.
type marketplacesDoc struct {
	Version      int           `json:"version"`
	Marketplaces []Marketplace `json:"marketplaces"`
}

// Scopes of an install.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
)

// Install is one installed copy of a plugin (Claude Code's shape; Enabled
// is omp's addition: false turns the plugin off without removing it).
type Install struct {
	Scope        string `json:"scope"`
	InstallPath  string `json:"installPath"`
	Version      string `json:"version"`
	InstalledAt  string `json:"installedAt"`
	LastUpdated  string `json:"lastUpdated"`
	GitCommitSha string `json:"gitCommitSha,omitempty"`
	Enabled      *bool  `json:"enabled,omitempty"`
}

// IsEnabled reports whether the install contributes to sessions.
func (i Install) IsEnabled() bool { return i.Enabled == nil || *i.Enabled }

// installedDoc is installed_plugins.json (version 2).
type installedDoc struct {
	Version int                  `json:"version"`
	Plugins map[string][]Install `json:"plugins"`
}

// readMarketplaces reads marketplaces.json; a missing file is empty.
func readMarketplaces(file string) (*marketplacesDoc, error) {
	doc := &marketplacesDoc{Version: 1}
	data, err := regularfile.Read(file)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	if err := json.Unmarshal(data, doc); err != nil || doc.Version != 1 {
		return nil, fmt.Errorf("%s is not a version-1 marketplace registry (fix or remove it): %v", file, err)
	}
	return doc, nil
}

// find returns the marketplace of a name.
func (d *marketplacesDoc) find(name string) (Marketplace, bool) {
	for _, m := range d.Marketplaces {
		if m.Name == name {
			return m, true
		}
	}
	return Marketplace{}, false
}

// readInstalled reads an installed_plugins.json; a missing file is
// empty. Any numeric version is read (newer files stay readable).
func readInstalled(file string) (*installedDoc, error) {
	doc := &installedDoc{Version: 2, Plugins: map[string][]Install{}}
	data, err := regularfile.Read(file)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	var raw struct {
		Version *float64             `json:"version"`
		Plugins map[string][]Install `json:"plugins"`
	}
	if err := json.Unmarshal(data, &raw); err != nil || raw.Version == nil || raw.Plugins == nil {
		return nil, fmt.Errorf("%s is not an installed-plugins registry (needs a numeric \"version\" and a \"plugins\" object; fix or remove it): %v", file, err)
	}
	doc.Plugins = raw.Plugins
	return doc, nil
}

// ids returns the registry's plugin ids in order.
func (d *installedDoc) ids() []string {
	out := make([]string, 0, len(d.Plugins))
	for id := range d.Plugins {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// writeJSON writes v as indented JSON through gopi's one atomic write
// path, creating the directory.
func writeJSON(file string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(file), err)
	}
	if err := atomicfile.WriteFile(file, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}
