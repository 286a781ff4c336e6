package plugins

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/internal/atomicfile"
	"github.com/gopi-agent/gopi/internal/regularfile"
)

// Manager changes gopi's marketplaces and installed plugins.
type Manager struct {
	Layout     Layout       // gopi's user files (the agent directory)
	ProjectDir string       // the project's config directory (.gopi); "" has no project scope
	Home, Cwd  string       // for ~ and relative marketplace directories
	Git        Git          // how git runs
	NPM        NPM          // how npm runs (npm plugin sources)
	HTTP       *http.Client // for catalog URLs (nil: the default client)
	Now        func() time.Time
}

// now returns the current time as the registries record it.
func (m *Manager) now() string {
	t := time.Now()
	if m.Now != nil {
		t = m.Now()
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// lock takes the layout's lock file; every change holds it.
func (m *Manager) lock() (func(), error) {
	f := m.Layout.lockFile()
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", filepath.Dir(f), err)
	}
	if fd, err := os.OpenFile(f, os.O_CREATE|os.O_RDONLY, 0o644); err == nil {
		fd.Close()
	}
	unlock, err := atomicfile.Lock(f)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", f, err)
	}
	m.removeStale()
	return unlock, nil
}

// removeStale removes what a change killed midway left: the staging
// directory, marketplace clones not yet moved into place and directories
// moved aside. Each is made and removed under the lock, so whatever of
// them is there once the lock is taken is left over.
func (m *Manager) removeStale() {
	for _, dir := range []string{m.Layout.PluginCache(), m.Layout.MarketplaceCache()} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if n := e.Name(); n == ".staging" || strings.HasPrefix(n, ".clone-") || strings.HasPrefix(n, ".old-") {
				_ = os.RemoveAll(filepath.Join(dir, n))
			}
		}
	}
}

// tempDir makes a fresh directory name under parent (not created).
func tempDir(parent, prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return filepath.Join(parent, prefix+hex.EncodeToString(b[:]))
}

// Marketplaces lists the added marketplaces.
func (m *Manager) Marketplaces() ([]Marketplace, error) {
	doc, err := readMarketplaces(m.Layout.MarketplacesFile())
	if err != nil {
		return nil, err
	}
	return doc.Marketplaces, nil
}

// AddMarketplace adds a marketplace from source (see ClassifySource): it
// is cloned or read, its catalog checked and cached.
func (m *Manager) AddMarketplace(ctx context.Context, source string) (Marketplace, error) {
	unlock, err := m.lock()
	if err != nil {
		return Marketplace{}, err
	}
	defer unlock()
	doc, err := readMarketplaces(m.Layout.MarketplacesFile())
	if err != nil {
		return Marketplace{}, err
	}
	kind, err := ClassifySource(source)
	if err != nil {
		return Marketplace{}, err
	}
	if kind == TypeLocal {
		source = expandHome(source, m.Home, m.Cwd)
	}
	cat, err := m.fetch(ctx, kind, source, func(name string) error {
		if _, dup := doc.find(name); dup {
			return fmt.Errorf("marketplace %q is already added (gopi plugin marketplace update %s re-reads it; remove it first to add another source of that name)", name, name)
		}
		return nil
	})
	if err != nil {
		return Marketplace{}, err
	}
	now := m.now()
	mk := Marketplace{Name: cat.Name, SourceType: kind, SourceURI: source, CatalogPath: m.catalogCopy(cat.Name), AddedAt: now, UpdatedAt: now}
	if err := writeJSON(mk.CatalogPath, cat); err != nil {
		return Marketplace{}, err
	}
	doc.Marketplaces = append(doc.Marketplaces, mk)
	return mk, writeJSON(m.Layout.MarketplacesFile(), doc)
}

// catalogCopy is where a marketplace's catalog is cached.
func (m *Manager) catalogCopy(name string) string {
	return filepath.Join(m.Layout.MarketplaceCache(), name+".json")
}

// cloneDir is where a Git marketplace is cloned.
func (m *Manager) cloneDir(name string) string {
	return filepath.Join(m.Layout.MarketplaceCache(), name)
}

// fetch reads a marketplace's catalog from its source; a Git source is
// cloned beside the cache and moved to its place once check accepts the
// catalog's name.
func (m *Manager) fetch(ctx context.Context, kind, source string, check func(name string) error) (*Catalog, error) {
	var cat *Catalog
	var err error
	switch kind {
	case TypeLocal:
		if fi, serr := os.Stat(source); serr != nil || !fi.IsDir() {
			return nil, fmt.Errorf("marketplace directory %s does not exist", source)
		}
		cat, err = readCatalogFile(source)
	case TypeURL:
		timeout := m.Git.Timeout
		if timeout <= 0 {
			timeout = DefaultGitTimeout
		}
		cat, err = fetchCatalogURL(ctx, m.HTTP, source, timeout)
	default:
		cache := m.Layout.MarketplaceCache()
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
		tmp := tempDir(cache, ".clone-")
		defer os.RemoveAll(tmp)
		if err := m.Git.Clone(ctx, gitURL(kind, source), "", "", tmp); err != nil {
			return nil, err
		}
		if cat, err = readCatalogFile(tmp); err != nil {
			return nil, err
		}
		if err := check(cat.Name); err != nil {
			return nil, err
		}
		if err := replaceDir(tmp, m.cloneDir(cat.Name)); err != nil {
			return nil, err
		}
		return cat, nil
	}
	if err != nil {
		return nil, err
	}
	return cat, check(cat.Name)
}

// replaceDir renames src to dst, moving an existing dst aside first and
// removing it afterwards.
func replaceDir(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	old := ""
	if _, err := os.Lstat(dst); err == nil {
		old = tempDir(filepath.Dir(dst), ".old-")
		if err := os.Rename(dst, old); err != nil {
			return fmt.Errorf("moving %s aside: %w", dst, err)
		}
	}
	if err := os.Rename(src, dst); err != nil {
		if old != "" {
			_ = os.Rename(old, dst)
		}
		return fmt.Errorf("moving %s into place: %w", dst, err)
	}
	if old != "" {
		_ = os.RemoveAll(old)
	}
	return nil
}

// RemoveMarketplace removes a marketplace and its cached files (installed
// plugins stay until uninstalled).
func (m *Manager) RemoveMarketplace(name string) error {
	unlock, err := m.lock()
	if err != nil {
		return err
	}
	defer unlock()
	doc, err := readMarketplaces(m.Layout.MarketplacesFile())
	if err != nil {
		return err
	}
	kept := doc.Marketplaces[:0]
	found := false
	for _, mk := range doc.Marketplaces {
		if mk.Name == name {
			found = true
			continue
		}
		kept = append(kept, mk)
	}
	if !found {
		return fmt.Errorf("marketplace %q is not added (gopi plugin marketplace list shows them)", name)
	}
	doc.Marketplaces = kept
	if err := writeJSON(m.Layout.MarketplacesFile(), doc); err != nil {
		return err
	}
	_ = os.RemoveAll(m.cloneDir(name))
	_ = os.Remove(m.catalogCopy(name))
	return nil
}

// UpdateMarketplaces re-reads the named marketplaces' catalogs (all when
// names is empty).
func (m *Manager) UpdateMarketplaces(ctx context.Context, names ...string) ([]Marketplace, error) {
	unlock, err := m.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	return m.updateLocked(ctx, names...)
}

// updateLocked is UpdateMarketplaces with the lock held.
func (m *Manager) updateLocked(ctx context.Context, names ...string) ([]Marketplace, error) {
	doc, err := readMarketplaces(m.Layout.MarketplacesFile())
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		for _, mk := range doc.Marketplaces {
			names = append(names, mk.Name)
		}
	}
	var out []Marketplace
	for _, name := range names {
		i := -1
		for j := range doc.Marketplaces {
			if doc.Marketplaces[j].Name == name {
				i = j
			}
		}
		if i < 0 {
			return out, fmt.Errorf("marketplace %q is not added (gopi plugin marketplace list shows them)", name)
		}
		mk := doc.Marketplaces[i]
		cat, err := m.fetch(ctx, mk.SourceType, mk.SourceURI, func(got string) error {
			if got != name {
				return fmt.Errorf("marketplace %q now calls itself %q: remove it and add it again", name, got)
			}
			return nil
		})
		if err != nil {
			return out, fmt.Errorf("updating marketplace %q: %w", name, err)
		}
		mk.CatalogPath = m.catalogCopy(name)
		if err := writeJSON(mk.CatalogPath, cat); err != nil {
			return out, err
		}
		mk.UpdatedAt = m.now()
		doc.Marketplaces[i] = mk
		out = append(out, mk)
	}
	return out, writeJSON(m.Layout.MarketplacesFile(), doc)
}

// Catalog returns a marketplace's cached catalog.
func (m *Manager) Catalog(name string) (*Catalog, Marketplace, error) {
	doc, err := readMarketplaces(m.Layout.MarketplacesFile())
	if err != nil {
		return nil, Marketplace{}, err
	}
	mk, ok := doc.find(name)
	if !ok {
		return nil, Marketplace{}, fmt.Errorf("marketplace %q is not added (gopi plugin marketplace add <source> adds it)", name)
	}
	data, err := regularfile.Read(mk.CatalogPath)
	if err != nil {
		return nil, mk, fmt.Errorf("the cached catalog of %q is unreadable (gopi plugin marketplace update %s fetches it again): %w", name, name, err)
	}
	var cat Catalog
	if err := json.Unmarshal(data, &cat); err != nil {
		return nil, mk, fmt.Errorf("the cached catalog %s is damaged (gopi plugin marketplace update %s fetches it again): %w", mk.CatalogPath, name, err)
	}
	return &cat, mk, nil
}

// Available lists the plugins of one marketplace, or of every one when
// name is "".
func (m *Manager) Available(name string) ([]Listing, error) {
	var names []string
	if name != "" {
		names = []string{name}
	} else {
		mks, err := m.Marketplaces()
		if err != nil {
			return nil, err
		}
		for _, mk := range mks {
			names = append(names, mk.Name)
		}
	}
	var out []Listing
	for _, n := range names {
		cat, _, err := m.Catalog(n)
		if err != nil {
			return out, err
		}
		for _, e := range cat.Plugins {
			out = append(out, Listing{ID: ID{Name: e.Name, Marketplace: n}, Entry: e})
		}
	}
	return out, nil
}

// Listing is a plugin a marketplace offers.
type Listing struct {
	ID    ID
	Entry Entry
}
