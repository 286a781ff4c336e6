package tool

import (
	"context"
	"strings"
	"sync"
)

// HostURIScheme is a URL scheme an embedding host owns (RPC mode's
// set_host_uri_schemes): reads and writes of <scheme>://… go to the host
// instead of the filesystem.
type HostURIScheme struct {
	Scheme      string `json:"scheme"`                // lowercase, without "://"
	Description string `json:"description,omitempty"` // what the URLs hold
	Writable    bool   `json:"writable,omitempty"`    // the write tool may replace their content
	Immutable   bool   `json:"immutable,omitempty"`   // content never changes (no anchors needed)
}

// HostURIContent is what a host returns for a read.
type HostURIContent struct {
	Content     string   // the text
	ContentType string   // e.g. text/plain; "" when unknown
	Notes       []string // remarks to show before the content
	Immutable   bool     // this content never changes
}

// HostURIHandler serves host-owned URLs. Calls block until the host
// answers or ctx ends.
type HostURIHandler interface {
	ReadURI(ctx context.Context, url string) (*HostURIContent, error)
	WriteURI(ctx context.Context, url, content string) error
}

// hostURIs is the registry of an Env's host-owned schemes.
type hostURIs struct {
	mu      sync.RWMutex
	handler HostURIHandler
	schemes map[string]HostURIScheme
	readers map[string]SchemeReader // internal schemes the session serves (SetSchemeReader)
}

// SchemeReader serves reads of an internal URL scheme the session itself
// owns, such as mcp:// for MCP resources. Calls block until the content
// is there or ctx ends.
type SchemeReader interface {
	ReadURI(ctx context.Context, url string) (*HostURIContent, error)
}

// SetSchemeReader makes r serve reads of scheme:// URLs (lowercase,
// without "://"); nil removes it. Unlike SetHostURIs, which an embedding
// host replaces as a whole, each internal scheme is set on its own.
func (e *Env) SetSchemeReader(scheme string, r SchemeReader) {
	e.hosts.mu.Lock()
	defer e.hosts.mu.Unlock()
	scheme = strings.ToLower(scheme)
	if r == nil {
		delete(e.hosts.readers, scheme)
		return
	}
	if e.hosts.readers == nil {
		e.hosts.readers = map[string]SchemeReader{}
	}
	e.hosts.readers[scheme] = r
}

// SchemeReader returns the reader serving target when its scheme has one
// (SetSchemeReader).
func (e *Env) SchemeReader(target string) (SchemeReader, bool) {
	scheme, _, ok := strings.Cut(target, "://")
	if !ok || scheme == "" {
		return nil, false
	}
	e.hosts.mu.RLock()
	defer e.hosts.mu.RUnlock()
	r, ok := e.hosts.readers[strings.ToLower(scheme)]
	return r, ok
}

// SetHostURIs replaces the host-owned schemes (nil or empty: none) and the
// handler serving them.
func (e *Env) SetHostURIs(h HostURIHandler, schemes []HostURIScheme) {
	e.hosts.mu.Lock()
	defer e.hosts.mu.Unlock()
	e.hosts.handler = h
	e.hosts.schemes = make(map[string]HostURIScheme, len(schemes))
	for _, s := range schemes {
		s.Scheme = strings.ToLower(s.Scheme)
		e.hosts.schemes[s.Scheme] = s
	}
}

// HostURI returns the scheme and handler serving target when it is a URL of
// a host-owned scheme.
func (e *Env) HostURI(target string) (HostURIScheme, HostURIHandler, bool) {
	scheme, _, ok := strings.Cut(target, "://")
	if !ok || scheme == "" {
		return HostURIScheme{}, nil, false
	}
	e.hosts.mu.RLock()
	defer e.hosts.mu.RUnlock()
	s, ok := e.hosts.schemes[strings.ToLower(scheme)]
	if !ok || e.hosts.handler == nil {
		return HostURIScheme{}, nil, false
	}
	return s, e.hosts.handler, true
}
