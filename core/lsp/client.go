package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// Timeouts of the client.
const (
	DefaultRequestTimeout = 30 * time.Second // a request the caller gives no shorter deadline
	shutdownTimeout       = 3 * time.Second  // the polite shutdown before the kill
	goneGrace             = 2 * time.Second  // how long a closed stream waits for the process's exit status
)

// ApplyEditFunc applies a WorkspaceEdit the server of c asks the client
// to apply (workspace/applyEdit) and returns the answer: whether it was
// applied and, if not, why and at which change. c is the asking client,
// for what it last sent its server (Client.Document) and to tell the
// server about the files changed (Client.Refresh).
type ApplyEditFunc func(ctx context.Context, c *Client, params protocol.ApplyWorkspaceEditParams) protocol.ApplyWorkspaceEditResult

// ClientOptions configure a Client.
type ClientOptions struct {
	Server *Server // the definition it runs
	Root   string  // the workspace root (absolute)
	// ApplyEdit handles workspace/applyEdit; nil answers "not applied"
	// with the reason that gopi applies no server edits yet.
	ApplyEdit          ApplyEditFunc
	RequestTimeout     time.Duration    // 0: DefaultRequestTimeout
	InitTimeout        time.Duration    // initialize; 0: DefaultRequestTimeout
	ProjectLoadTimeout time.Duration    // 0: ProjectLoadTimeout
	Now                func() time.Time // the clock of LastActive; nil: time.Now
}

// Client is a connection to one language server process: JSON-RPC 2.0
// over the LSP base protocol (Content-Length headers) on its stdio. It
// initializes the server, answers the server's requests, keeps the
// documents it opened in step with the files on disk, caches the
// diagnostics the server publishes and follows its project-load progress.
// A Client is safe for concurrent use; it is closed with Close.
type Client struct {
	opts      ClientOptions
	t         Transport
	conn      *jsonrpc2.Conn
	caps      json.RawMessage
	nextID    atomic.Uint64
	lastUsed  atomic.Int64 // unix nanoseconds, by opts.Now
	diags     *diagStore
	load      *loadTracker
	docs      documents
	protoErr  atomic.Pointer[string] // why the stream broke, when the client could not read it
	handlers  sync.WaitGroup         // running workspace/applyEdit handlers
	closeOnce sync.Once
	watchDone chan struct{} // closed when the watcher goroutine has ended
}

// Start initializes a server over t: it sends initialize with gopi's
// client capabilities (positions in UTF-16 only), stores the server's
// capabilities and sends initialized. ctx bounds the handshake (with
// RequestTimeout); on failure the server is killed.
func Start(ctx context.Context, t Transport, opts ClientOptions) (*Client, error) {
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	if opts.InitTimeout <= 0 {
		opts.InitTimeout = DefaultRequestTimeout
	}
	if opts.ProjectLoadTimeout <= 0 {
		opts.ProjectLoadTimeout = ProjectLoadTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	c := &Client{opts: opts, t: t, diags: newDiagStore(), load: newLoadTracker(opts.ProjectLoadTimeout), watchDone: make(chan struct{})}
	c.docs.init()
	c.touch()
	stream := recordingStream{jsonrpc2.NewBufferedStream(t, jsonrpc2.VSCodeObjectCodec{}), c}
	c.conn = jsonrpc2.NewConn(context.Background(), stream, serverHandler{c},
		jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
	go c.watch()

	var init struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if err := c.request(ctx, "initialize", c.initializeParams(), &init, opts.InitTimeout); err != nil {
		c.kill()
		return nil, err
	}
	c.caps = init.Capabilities
	if len(c.caps) == 0 || string(c.caps) == "null" {
		c.caps = json.RawMessage("{}")
	}
	if err := c.Notify(ctx, "initialized", struct{}{}); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

// watch ties the stream and the process together: a stream that breaks
// (garbage from the server) ends the process, and a process that ends
// closes the stream, failing what is pending.
func (c *Client) watch() {
	defer close(c.watchDone)
	select {
	case <-c.conn.DisconnectNotify():
		c.t.Kill()
		<-c.t.Done()
	case <-c.t.Done():
		_ = c.conn.Close()
	}
	c.load.stop()
}

// initializeParams are the parameters of initialize.
func (c *Client) initializeParams() map[string]any {
	root := protocol.FileURI(c.opts.Root)
	init := c.opts.Server.InitOptions
	if len(init) == 0 {
		init = json.RawMessage("{}")
	}
	return map[string]any{
		"processId":             os.Getpid(),
		"clientInfo":            map[string]string{"name": "gopi"},
		"rootUri":               root,
		"rootPath":              c.opts.Root,
		"capabilities":          clientCapabilities,
		"initializationOptions": init,
		"workspaceFolders":      []map[string]any{{"uri": root, "name": filepath.Base(c.opts.Root)}},
	}
}

// Name returns the server's name.
func (c *Client) Name() string { return c.opts.Server.Name }

// Server returns the definition the client runs.
func (c *Client) Server() *Server { return c.opts.Server }

// Root returns the workspace root.
func (c *Client) Root() string { return c.opts.Root }

// Sharing says whether the server is shared with other gopi processes (see
// the Sharing interface); "" and false for a server of this client alone.
func (c *Client) Sharing() (note string, shared bool) {
	if s, ok := c.t.(Sharing); ok {
		return s.Sharing()
	}
	return "", false
}

// Capabilities returns the server's capabilities from initialize.
func (c *Client) Capabilities() json.RawMessage { return c.caps }

// Done is closed when the server has ended.
func (c *Client) Done() <-chan struct{} { return c.t.Done() }

// Alive reports whether the server is still running.
func (c *Client) Alive() bool {
	select {
	case <-c.t.Done():
		return false
	default:
		return true
	}
}

// LastActive returns when the client last sent something.
func (c *Client) LastActive() time.Time { return time.Unix(0, c.lastUsed.Load()) }

func (c *Client) touch() { c.lastUsed.Store(c.opts.Now().UnixNano()) }

// ResponseError is a server's error answer to a request.
type ResponseError struct {
	Code    int64  // JSON-RPC error code (-32601: method not found)
	Message string // the server's message
}

// Error returns the server's message.
func (e *ResponseError) Error() string { return e.Message }

// IsMethodNotFound reports whether err says the server does not implement
// the method.
func IsMethodNotFound(err error) bool {
	var re *ResponseError
	return errors.As(err, &re) && re.Code == jsonrpc2.CodeMethodNotFound
}

// Request sends a request and decodes the answer into result (nil: the
// answer is dropped). It fails with "LSP request <method> timed out after
// <ms>ms" when the server does not answer within the request timeout or
// ctx's deadline, whichever is first (ctx's own end is ctx's error), with
// a *ResponseError when the server answers with an error, and with the
// server's exit status when it is gone. A request given up on is
// cancelled at the server ($/cancelRequest).
func (c *Client) Request(ctx context.Context, method string, params, result any) error {
	return c.request(ctx, method, params, result, c.opts.RequestTimeout)
}

// request is Request with its own timeout.
func (c *Client) request(ctx context.Context, method string, params, result any, timeout time.Duration) error {
	c.touch()
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < timeout {
		timeout = max(time.Until(dl), 0)
	}
	// The request's own deadline, apart from the caller's cancellation,
	// so that running out of time says which request timed out.
	reqCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	id := c.nextID.Add(1)
	if params == nil {
		params = json.RawMessage("null")
	}
	w, err := c.conn.DispatchCall(reqCtx, method, params, jsonrpc2.PickID(jsonrpc2.ID{Num: id}))
	if err != nil {
		return c.sendError(err)
	}
	var raw json.RawMessage
	waitCtx, stop := context.WithCancel(reqCtx)
	defer stop()
	go func() {
		select {
		case <-ctx.Done():
			stop()
		case <-waitCtx.Done():
		}
	}()
	err = w.Wait(waitCtx, &raw)
	switch {
	case err == nil:
	case errors.Is(err, jsonrpc2.ErrClosed):
		return c.goneError()
	case waitCtx.Err() != nil:
		c.cancelRequest(id)
		if errors.Is(ctx.Err(), context.Canceled) {
			return ctx.Err()
		}
		if note, shared := c.Sharing(); shared {
			return fmt.Errorf("LSP request %s timed out after %dms (%s)", method, timeout.Milliseconds(), note)
		}
		return fmt.Errorf("LSP request %s timed out after %dms", method, timeout.Milliseconds())
	default:
		var re *jsonrpc2.Error
		if errors.As(err, &re) {
			return &ResponseError{Code: re.Code, Message: re.Message}
		}
		return err
	}
	if result == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("LSP server %s answered %s with a result gopi could not read: %v", c.Name(), method, err)
	}
	return nil
}

// cancelRequest tells the server a request is no longer wanted.
func (c *Client) cancelRequest(id uint64) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = c.Notify(ctx, "$/cancelRequest", map[string]uint64{"id": id})
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.touch()
	if err := c.conn.Notify(ctx, method, params); err != nil {
		return c.sendError(err)
	}
	return nil
}

// sendError explains a failure to write to the server.
func (c *Client) sendError(err error) error {
	if c.Alive() && !errors.Is(err, jsonrpc2.ErrClosed) {
		return fmt.Errorf("LSP server %s: %w", c.Name(), err)
	}
	return c.goneError()
}

// goneError says why the server can no longer answer: its exit status,
// or the message the client could not read (the server is then killed).
func (c *Client) goneError() error {
	if p := c.protoErr.Load(); p != nil && *p != "" {
		c.t.Kill()
		return fmt.Errorf("LSP server %s sent a message gopi could not read (%s); it was stopped and starts again on the next call", c.Name(), *p)
	}
	timer := time.NewTimer(goneGrace)
	defer timer.Stop()
	select {
	case <-c.t.Done():
		return c.t.Err()
	case <-timer.C:
		c.t.Kill()
		return fmt.Errorf("LSP server %s closed its connection; it was stopped and starts again on the next call", c.Name())
	}
}

// WaitProjectLoaded waits until the server has reported the end of its
// project load (or ProjectLoadTimeout after it started, or it ended).
func (c *Client) WaitProjectLoaded(ctx context.Context) error {
	select {
	case <-c.load.loaded:
		return nil
	case <-c.t.Done():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close ends the server: shutdown and exit, politely and briefly, then a
// kill of its process group. Pending requests fail.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		if c.Alive() {
			ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
			if c.Request(ctx, "shutdown", nil, nil) == nil {
				_ = c.Notify(ctx, "exit", nil)
				select {
				case <-c.t.Done():
				case <-ctx.Done():
				}
			}
			cancel()
		}
		c.kill()
	})
	return nil
}

// kill ends the process and waits for the client's goroutines.
func (c *Client) kill() {
	c.t.Kill()
	_ = c.conn.Close()
	<-c.watchDone
	c.handlers.Wait()
}

// recordingStream notes why reading from the server failed, before the
// connection closes on it, when the cause is a malformed message rather
// than the end of the stream.
type recordingStream struct {
	jsonrpc2.ObjectStream
	c *Client
}

// ReadObject reads the next message, noting why when it cannot.
func (s recordingStream) ReadObject(v any) error {
	err := s.ObjectStream.ReadObject(v)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, os.ErrClosed) {
		msg := err.Error()
		s.c.protoErr.Store(&msg)
	}
	return err
}
