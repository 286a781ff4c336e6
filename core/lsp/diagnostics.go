package lsp

import (
	"context"
	"sync"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// published is the last textDocument/publishDiagnostics of one document.
type published struct {
	diags   []protocol.Diagnostic
	version *int   // the document version they are for; nil: the server did not say
	seq     uint64 // the store's counter when they arrived
}

// diagStore caches the diagnostics a server published, per document, and
// lets callers wait for a publication newer than a point they noted.
// Every publication advances one counter (Seq); a waiter notes it before
// it changes a document and then waits for that document's entry to carry
// a later count.
type diagStore struct {
	mu      sync.Mutex
	seq     uint64
	byURI   map[protocol.DocumentURI]published
	changed chan struct{} // closed and replaced at each publication
}

func newDiagStore() *diagStore {
	return &diagStore{byURI: map[protocol.DocumentURI]published{}, changed: make(chan struct{})}
}

// publish records a server's publication.
func (d *diagStore) publish(p protocol.PublishDiagnosticsParams) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seq++
	d.byURI[p.URI] = published{diags: p.Diagnostics, version: p.Version, seq: d.seq}
	close(d.changed)
	d.changed = make(chan struct{})
}

// Seq returns the publication counter.
func (d *diagStore) Seq() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seq
}

// get returns the last publication for uri.
func (d *diagStore) get(uri protocol.DocumentURI) (published, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.byURI[uri]
	return p, ok
}

// forget drops the cached diagnostics of uri (a closed or renamed
// document).
func (d *diagStore) forget(uri protocol.DocumentURI) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.byURI, uri)
}

// wait returns the diagnostics of uri published after the counter was at
// after and, when the server says which version they are for, for
// version. It waits until they arrive, ctx ends (ok false) or gone is
// closed (the server ended; ok false).
func (d *diagStore) wait(ctx context.Context, uri protocol.DocumentURI, after uint64, version int, gone <-chan struct{}) ([]protocol.Diagnostic, bool) {
	for {
		d.mu.Lock()
		p, ok := d.byURI[uri]
		changed := d.changed
		d.mu.Unlock()
		if ok && p.seq > after && (p.version == nil || *p.version == version) {
			return p.diags, true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, false
		case <-gone:
			return nil, false
		}
	}
}
