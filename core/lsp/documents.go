package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/gopi-agent/gopi/core/lsp/edits"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// document is what the server was last told a file holds.
type document struct {
	version int
	text    string
}

// documents are the files a client has opened at its server.
type documents struct {
	mu   sync.Mutex // held while one document is synchronised, so versions go out in order
	open map[protocol.DocumentURI]*document
}

func (d *documents) init() { d.open = map[protocol.DocumentURI]*document{} }

// Sync is how a document was brought in step with its file.
type Sync struct {
	URI     protocol.DocumentURI
	Version int    // the document's version at the server now
	Changed bool   // something was sent (opened, or new content)
	Seq     uint64 // the diagnostics counter before it was sent
}

// SyncFile reads abs from disk and tells the server: didOpen the first
// time, didChange (the whole text) and didSave when the content differs
// from what the server has, nothing when it is the same. A shared server
// (see Sharing) is sent the text every time: another process may have
// changed what it holds, and its multiplexer passes on only a text that
// differs. The text is the
// file's bytes without a leading UTF-8 byte order mark, line endings as
// on disk. A file that does not exist is an error.
func (c *Client) SyncFile(ctx context.Context, abs string) (Sync, error) {
	data, err := ReadDocument(abs)
	if err != nil {
		return Sync{}, err
	}
	text := string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	uri := protocol.FileURI(abs)
	c.docs.mu.Lock()
	defer c.docs.mu.Unlock()
	s := Sync{URI: uri, Seq: c.diags.Seq()}
	doc, ok := c.docs.open[uri]
	switch {
	case !ok:
		item := protocol.TextDocumentItem{URI: uri, LanguageID: LanguageID(abs), Version: 1, Text: text}
		if err := c.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": item}); err != nil {
			return Sync{}, err
		}
		c.docs.open[uri] = &document{version: 1, text: text}
		s.Version, s.Changed = 1, true
	case doc.text != text || c.shared():
		// What the server said about the old content no longer holds,
		// and an answer without a version could not be told from the
		// new one.
		c.diags.forget(uri)
		v := doc.version + 1
		change := map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []map[string]string{{"text": text}},
		}
		if err := c.Notify(ctx, "textDocument/didChange", change); err != nil {
			return Sync{}, err
		}
		doc.version, doc.text = v, text
		if err := c.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}, "text": text}); err != nil {
			return Sync{}, err
		}
		s.Version, s.Changed = v, true
	default:
		s.Version = doc.version
	}
	return s, nil
}

// shared reports whether other clients talk to the same server.
func (c *Client) shared() bool {
	_, shared := c.Sharing()
	return shared
}

// CloseFile tells the server a document is closed (a renamed or deleted
// file) and forgets its diagnostics.
func (c *Client) CloseFile(ctx context.Context, abs string) error {
	uri := protocol.FileURI(abs)
	c.docs.mu.Lock()
	defer c.docs.mu.Unlock()
	if _, ok := c.docs.open[uri]; !ok {
		return nil
	}
	delete(c.docs.open, uri)
	c.diags.forget(uri)
	return c.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

// IsOpen reports whether abs is open at the server.
func (c *Client) IsOpen(abs string) bool {
	c.docs.mu.Lock()
	defer c.docs.mu.Unlock()
	_, ok := c.docs.open[protocol.FileURI(abs)]
	return ok
}

// Diagnostics returns the diagnostics the server last published for abs,
// and whether it published any.
func (c *Client) Diagnostics(abs string) ([]protocol.Diagnostic, bool) {
	p, ok := c.diags.get(protocol.FileURI(abs))
	return p.diags, ok
}

// FreshDiagnostics returns the diagnostics of a synchronised document:
// when the sync sent nothing and the server has published for the
// current content, those at once; otherwise it waits for the server's
// next publication for the document's version (see diagStore.wait). ok is
// false when ctx ended or the server did before they arrived.
func (c *Client) FreshDiagnostics(ctx context.Context, s Sync) (diags []protocol.Diagnostic, ok bool) {
	if !s.Changed {
		if p, ok := c.diags.get(s.URI); ok && (p.version == nil || *p.version == s.Version) {
			return p.diags, true
		}
	}
	return c.diags.wait(ctx, s.URI, s.Seq, s.Version, c.t.Done())
}

// Document returns what the client last sent its server for abs: the
// version of its last didOpen or didChange and the hash of that text;
// false when the file is not open there. It is the Documents function of
// edits.Options, so an edit the server computed on other content is
// refused.
func (c *Client) Document(abs string) (edits.Document, bool) {
	c.docs.mu.Lock()
	defer c.docs.mu.Unlock()
	doc, ok := c.docs.open[protocol.FileURI(abs)]
	if !ok {
		return edits.Document{}, false
	}
	return edits.Document{Version: doc.version, Hash: edits.HashText([]byte(doc.text))}, true
}

// Refresh tells the server that files changed on disk behind its back (an
// edit gopi applied): each open one in changed is synchronised again
// (didChange), and the others, with the paths in removed, are announced
// with workspace/didChangeWatchedFiles; removed files that were open are
// closed. Nothing is sent for an empty list.
func (c *Client) Refresh(ctx context.Context, changed, removed []string) error {
	var events []map[string]any
	var errs []error
	for _, p := range removed {
		errs = append(errs, c.CloseFile(ctx, p))
		events = append(events, map[string]any{"uri": protocol.FileURI(p), "type": fileDeleted})
	}
	for _, p := range changed {
		if c.IsOpen(p) {
			_, err := c.SyncFile(ctx, p)
			errs = append(errs, err)
			continue
		}
		events = append(events, map[string]any{"uri": protocol.FileURI(p), "type": fileChanged})
	}
	if len(events) > 0 {
		errs = append(errs, c.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": events}))
	}
	return errors.Join(errs...)
}

// File change types of workspace/didChangeWatchedFiles.
const (
	fileChanged = 2
	fileDeleted = 3
)

// SyncOpen synchronises every document open at the server with its file
// (SyncFile), so that a request about several files (a rename, a file
// move) is computed on what the files hold now; a file gone since is
// closed.
func (c *Client) SyncOpen(ctx context.Context) error {
	c.docs.mu.Lock()
	uris := make([]protocol.DocumentURI, 0, len(c.docs.open))
	for u := range c.docs.open {
		uris = append(uris, u)
	}
	c.docs.mu.Unlock()
	var errs []error
	for _, u := range uris {
		p, err := u.Path()
		if err != nil {
			continue
		}
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, c.CloseFile(ctx, p))
			continue
		}
		_, err = c.SyncFile(ctx, p)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// MaxDocument is the largest file sent to a language server: the whole
// text goes over the pipe and stays in memory on both sides while it is
// open.
const MaxDocument = 16 << 20

// ReadDocument reads a regular file of at most MaxDocument bytes (what a
// server is sent, and what the lsp tool reads lines of); a FIFO,
// a device or a /proc file would block or never end.
func ReadDocument(abs string) ([]byte, error) {
	// Stat before opening: opening a FIFO blocks until a writer comes.
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("File not found: " + abs)
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; language servers read source files only", abs)
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxDocument+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxDocument {
		return nil, fmt.Errorf("%s is larger than %d MiB, too large to send to a language server", abs, MaxDocument>>20)
	}
	return data, nil
}
