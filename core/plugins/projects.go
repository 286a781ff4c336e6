package plugins

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/gopi-agent/gopi/internal/regularfile"
)

// Project-scope installs share the user's plugin cache, and a registry of
// one project is out of view when gopi runs in another directory. The
// layout therefore records every project registry it installed for, so
// that removing a plugin directory checks every registry that may still
// name it.

// projectsFile lists the project registries with installs in this
// layout's plugin cache.
func (l Layout) projectsFile() string {
	return filepath.Join(l.Root, "plugins", "project_registries.json")
}

// projectsDoc is project_registries.json.
type projectsDoc struct {
	Version    int      `json:"version"`
	Registries []string `json:"registries"`
}

// readProjects reads the recorded project registries; a missing file is
// none, an unreadable one an error (the caller then keeps files).
func (l Layout) readProjects() ([]string, error) {
	data, err := regularfile.Read(l.projectsFile())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc projectsDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	return doc.Registries, nil
}

// noteProject records a project registry (with the lock held); the
// record drops registries whose files are gone.
func (l Layout) noteProject(file string) error {
	list, err := l.readProjects()
	if err != nil {
		list = nil // a damaged record is rebuilt from here on
	}
	file = filepath.Clean(file)
	kept := []string{file}
	for _, f := range list {
		if _, err := os.Stat(f); err == nil && !slices.Contains(kept, f) {
			kept = append(kept, f)
		}
	}
	slices.Sort(kept)
	return writeJSON(l.projectsFile(), projectsDoc{Version: 1, Registries: kept})
}

// registryFiles lists every registry that may name a directory of the
// plugin cache: the user's, this manager's project's and every project
// recorded. ok is false when the record cannot be read.
func (m *Manager) registryFiles() (files []string, ok bool) {
	files = []string{m.Layout.InstalledFile()}
	if m.ProjectDir != "" {
		files = append(files, ProjectInstalledFile(m.ProjectDir))
	}
	projects, err := m.Layout.readProjects()
	for _, f := range projects {
		if !slices.Contains(files, filepath.Clean(f)) {
			files = append(files, filepath.Clean(f))
		}
	}
	return files, err == nil
}
