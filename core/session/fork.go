package session

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
)

// Fork starts a new session from this one and writes it at once (in
// opts.Dir; with opts.Dir "" the new session is in memory). With leafID ""
// it holds every entry, keeps the title, and its header's parentSession is
// this session's id. Otherwise it holds the path from the root to leafID
// without label entries, followed by fresh label entries for the labelled
// entries of that path, and parentSession is this session's file (its id
// in memory). Entries keep their stored form, so fields this version does
// not model are carried over.
func (m *Manager) Fork(leafID string, opts Options) (*Manager, error) {
	m.mu.Lock()
	if err := m.prepareRaw(); err != nil {
		m.mu.Unlock()
		return nil, fmt.Errorf("fork session: %w", err)
	}
	var src []*Entry
	var labels []Label
	h := m.header
	parent := h.ID
	if leafID == "" {
		src = append(src, m.entries...)
	} else {
		e := m.byID[leafID]
		if e == nil {
			m.mu.Unlock()
			return nil, fmt.Errorf("fork at %s: %w", leafID, ErrNotFound)
		}
		for _, p := range pathTo(m.byID, e) {
			if p.Label != nil {
				continue
			}
			src = append(src, p)
			if l := m.labels[p.ID]; l != "" {
				labels = append(labels, Label{TargetID: p.ID, Label: l})
			}
		}
		if m.disk != nil {
			parent = m.disk.path
		}
		h.Title, h.TitleSource = "", ""
	}
	m.decode(src)
	m.mu.Unlock()

	if opts.Cwd == "" {
		opts.Cwd = h.Cwd
	}
	opts.ParentSession = parent
	n := newManager(opts)
	n.header = n.newHeader()
	n.header.Title, n.header.TitleSource = h.Title, h.TitleSource
	if opts.Dir != "" {
		n.disk = &diskFile{path: filepath.Join(opts.Dir, fileName(n.header)), sync: opts.Sync}
	}
	for _, e := range src {
		c := *e
		n.index(&c)
		n.leaf = c.ID
	}
	for _, l := range labels {
		e := &Entry{Type: TypeLabel, Label: &l, ID: newEntryID(n.opts.Rand, func(id string) bool { return n.byID[id] != nil }),
			ParentID: n.leaf, Timestamp: isoTime(n.opts.Now())}
		n.index(e)
		n.leaf = e.ID
	}
	if n.disk != nil {
		if err := n.rewrite(); err != nil {
			return nil, fmt.Errorf("fork session: %w", err)
		}
	}
	return n, nil
}

// ForkFile forks the session in file path (see Manager.Fork) without
// changing that file: an older file is migrated in memory only.
func ForkFile(path, leafID string, opts Options) (*Manager, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("fork session: %w", err)
	}
	var blobs *BlobStore
	if opts.BlobDir != "" {
		blobs = &BlobStore{Dir: opts.BlobDir, Fallback: opts.BlobFallback}
	}
	rnd := opts.Rand
	if rnd == nil {
		rnd = rand.Reader
	}
	p, err := parseFile(data, blobs, rnd)
	if err != nil {
		return nil, fmt.Errorf("fork session %s: %w", path, err)
	}
	src := newManager(Options{Now: opts.Now})
	src.blobs = blobs // the messages left pending restore their images from it
	src.load(p)
	src.disk = &diskFile{path: path} // for the lineage marker only; never written
	src.disk.path, _ = filepath.Abs(path)
	return src.Fork(leafID, opts)
}
