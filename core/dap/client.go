package dap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	godap "github.com/google/go-dap"
)

// DefaultRequestTimeout is the timeout of a request whose caller names
// none.
const DefaultRequestTimeout = 30 * time.Second

// Event is one event an adapter sent.
type Event struct {
	Name string          // "stopped", "output", "terminated", …
	Body json.RawMessage // its body, as sent
}

// ReverseHandler answers a request the adapter sends gopi
// (runInTerminal, startDebugging): the result is the response body, an
// error a failed response with its text.
type ReverseHandler func(args json.RawMessage) (any, error)

// Hooks are what a client's owner does with what the adapter sends on
// its own. They run on the client's reading goroutine, in order, so they
// must not block and must not send requests.
type Hooks struct {
	Event   func(Event)               // every event, before anyone waiting for it is woken
	Reverse map[string]ReverseHandler // reverse requests by command; others are refused
	Closed  func(err error)           // the connection ended (the adapter exited, or sent garbage)
	// Terminal receives the output of the programs the adapter asks gopi
	// to start (runInTerminal, answered by the client unless Reverse has
	// a handler for it) and, for a socket-mode adapter, its standard
	// output once connected (where dlv's debuggee writes); nil discards
	// it.
	Terminal io.Writer
	// TerminalEnv is the environment those programs start from (the
	// request adds its own variables); nil: this process's.
	TerminalEnv []string
	// TerminalCwd is their working directory when the request names none.
	TerminalCwd string
}

// reply is a response to one of gopi's requests.
type reply struct {
	body json.RawMessage
	err  error
}

// Client is a connection to one running debug adapter. It is safe for
// concurrent use. The reading goroutine it starts ends when the
// connection does; Close ends the adapter and waits for it.
type Client struct {
	name  string
	w     io.Writer
	conn  io.Closer
	proc  *process
	hooks Hooks

	wmu sync.Mutex // one frame at a time

	mu      sync.Mutex
	seq     int
	pending map[int]chan reply
	watches map[*Watch]struct{}
	closed  bool  // no more requests: the connection ended or Close was called
	err     error // why the connection ended
	caps    godap.Capabilities

	done       chan struct{} // closed when the connection has ended
	readerDone chan struct{} // closed when the reading goroutine has returned
}

// newClient starts reading r; w and conn are the way back and what to
// close.
func newClient(name string, r io.Reader, w io.Writer, conn io.Closer, p *process, hooks Hooks) *Client {
	c := &Client{name: name, w: w, conn: conn, proc: p, hooks: hooks,
		pending: map[int]chan reply{}, watches: map[*Watch]struct{}{},
		done: make(chan struct{}), readerDone: make(chan struct{})}
	go c.read(r) // owner: the client; ends when the connection ends (Close closes it)
	return c
}

// Name returns the adapter's name.
func (c *Client) Name() string { return c.name }

// Alive reports whether the connection is still open.
func (c *Client) Alive() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended (nil while it is open).
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Capabilities returns what the adapter answered to initialize.
func (c *Client) Capabilities() godap.Capabilities {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caps
}

// Initialize sends initialize with args and keeps the capabilities the
// adapter answers.
func (c *Client) Initialize(ctx context.Context, args godap.InitializeRequestArguments, timeout time.Duration) (godap.Capabilities, error) {
	body, err := c.Request(ctx, "initialize", args, timeout)
	if err != nil {
		return godap.Capabilities{}, err
	}
	var caps godap.Capabilities
	if len(body) > 0 && string(body) != "null" {
		if err := json.Unmarshal(body, &caps); err != nil {
			return caps, fmt.Errorf("DAP adapter %s answered initialize with unreadable capabilities: %v", c.name, err)
		}
	}
	c.mu.Lock()
	c.caps = caps
	c.mu.Unlock()
	return caps, nil
}

// Request sends command with args and waits, at most timeout (0:
// DefaultRequestTimeout), for its response body. A failed response
// returns its message as the error.
func (c *Client) Request(ctx context.Context, command string, args any, timeout time.Duration) (json.RawMessage, error) {
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("DAP adapter %s is not running", c.name)
	}
	c.seq++
	seq := c.seq
	ch := make(chan reply, 1)
	c.pending[seq] = ch
	c.mu.Unlock()
	if err := c.write(outRequest{Seq: seq, Type: "request", Command: command, Arguments: args}); err != nil {
		c.drop(seq)
		return nil, fmt.Errorf("DAP request %s could not be sent to %s: %v", command, c.name, err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.body, r.err
	case <-timer.C:
		c.drop(seq)
		return nil, fmt.Errorf("DAP request %s timed out after %dms", command, timeout.Milliseconds())
	case <-ctx.Done():
		c.drop(seq)
		return nil, ctx.Err()
	}
}

// RequestInto is Request decoding the body into out (nil: the body is
// not wanted; a missing body leaves out alone).
func (c *Client) RequestInto(ctx context.Context, command string, args any, timeout time.Duration, out any) error {
	body, err := c.Request(ctx, command, args, timeout)
	if err != nil {
		return err
	}
	if out == nil || len(body) == 0 || string(body) == "null" {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("DAP adapter %s answered %s with an unreadable body: %v", c.name, command, err)
	}
	return nil
}

func (c *Client) drop(seq int) {
	c.mu.Lock()
	delete(c.pending, seq)
	c.mu.Unlock()
}

func (c *Client) write(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return writeMessage(c.w, v)
}

// Watch is a one-shot wait for the next of some events. Make it before
// sending the request that causes them, so none is missed.
type Watch struct {
	c     *Client
	names []string
	ch    chan Event
}

// Watch starts watching for the first event named one of names.
func (c *Client) Watch(names ...string) *Watch {
	w := &Watch{c: c, names: names, ch: make(chan Event, 1)}
	c.mu.Lock()
	c.watches[w] = struct{}{}
	c.mu.Unlock()
	return w
}

// Wait returns the watched event, or an error when timeout passes
// ("DAP event <name> timed out after <ms>ms"), ctx ends or the
// connection does. It stops the watch.
func (w *Watch) Wait(ctx context.Context, timeout time.Duration) (Event, error) {
	defer w.Stop()
	select {
	case ev := <-w.ch:
		return ev, nil
	default:
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case ev := <-w.ch:
		return ev, nil
	case <-timer.C:
		return Event{}, fmt.Errorf("DAP event %s timed out after %dms", w.names[0], timeout.Milliseconds())
	case <-ctx.Done():
		return Event{}, ctx.Err()
	case <-w.c.done:
		select {
		case ev := <-w.ch:
			return ev, nil
		default:
		}
		return Event{}, w.c.Err()
	}
}

// Stop ends the watch.
func (w *Watch) Stop() {
	w.c.mu.Lock()
	delete(w.c.watches, w)
	w.c.mu.Unlock()
}

// read is the reading goroutine: it dispatches every message until the
// connection ends.
func (c *Client) read(r io.Reader) {
	defer close(c.readerDone)
	br := newReader(r)
	for {
		m, err := readMessage(br)
		if err != nil {
			var bad *errBadMessage
			if errors.As(err, &bad) {
				continue // a well-framed message that is not DAP: the stream is still in step
			}
			c.connectionEnded(err)
			return
		}
		switch m.Type {
		case "response":
			c.deliver(m)
		case "event":
			c.dispatch(Event{Name: m.Event, Body: m.Body})
		case "request":
			c.answer(m)
		}
	}
}

// connectionEnded fails everything waiting with the reason: the adapter's
// exit (with its code and error output) at the end of the stream,
// otherwise the framing error, after which the adapter is ended.
func (c *Client) connectionEnded(readErr error) {
	var err error
	if errors.Is(readErr, io.EOF) || errors.Is(readErr, io.ErrUnexpectedEOF) || isClosedErr(readErr) {
		timer := time.NewTimer(exitWait)
		select {
		case <-c.proc.exited:
			err = c.proc.exitError()
		case <-timer.C:
			err = fmt.Errorf("DAP connection closed: %s closed its end", c.name)
		}
		timer.Stop()
	} else {
		err = fmt.Errorf("DAP connection closed: adapter %s sent a malformed message (%v); terminate the session and launch again", c.name, readErr)
	}
	c.fail(err)
}

// fail ends the connection with err: the owner's Closed hook runs once,
// then pending requests get err and watchers wake.
func (c *Client) fail(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.err = err
	pending := c.pending
	c.pending = map[int]chan reply{}
	c.mu.Unlock()
	// The owner hears first, so whoever wakes next (a request, a watcher)
	// finds the owner's state already saying so.
	if c.hooks.Closed != nil {
		c.hooks.Closed(err)
	}
	close(c.done)
	for _, ch := range pending {
		ch <- reply{err: err}
	}
}

func (c *Client) deliver(m *message) {
	c.mu.Lock()
	ch, ok := c.pending[m.RequestSeq]
	delete(c.pending, m.RequestSeq)
	c.mu.Unlock()
	if !ok {
		return // timed out or abandoned
	}
	if m.Success {
		ch <- reply{body: m.Body}
		return
	}
	msg := m.Message
	if msg == "" || msg == "error" {
		msg = errorBodyText(m.Body, m.Command)
	}
	ch <- reply{err: errors.New(msg)}
}

// errorBodyText is the text of a failed response's error body, else
// "DAP request <command> failed".
func errorBodyText(body json.RawMessage, command string) string {
	var b struct {
		Error *struct {
			Format string `json:"format"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &b) == nil && b.Error != nil && b.Error.Format != "" {
		return b.Error.Format
	}
	return "DAP request " + command + " failed"
}

func (c *Client) dispatch(ev Event) {
	if c.hooks.Event != nil {
		c.hooks.Event(ev)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for w := range c.watches {
		for _, n := range w.names {
			if n == ev.Name {
				select {
				case w.ch <- ev:
				default:
				}
				delete(c.watches, w)
				break
			}
		}
	}
}

// answer runs the handler of a reverse request and sends its response.
func (c *Client) answer(m *message) {
	resp := outResponse{Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: true}
	h := c.hooks.Reverse[m.Command]
	if h == nil && m.Command == "runInTerminal" {
		h = c.runInTerminal
	}
	if h == nil {
		resp.Success, resp.Message = false, "Unsupported DAP request: "+m.Command
	} else if body, err := h(m.Arguments); err != nil {
		resp.Success, resp.Message = false, err.Error()
	} else {
		resp.Body = body
	}
	if !resp.Success {
		resp.Body = map[string]any{"error": map[string]any{"id": 1, "format": resp.Message}}
	}
	c.mu.Lock()
	c.seq++
	resp.Seq = c.seq
	c.mu.Unlock()
	_ = c.write(resp) // a failed write shows as the connection ending
}

// Close ends the adapter and everything it started, fails what still
// waits, and returns once the reading goroutine has stopped.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	err := c.conn.Close()
	c.proc.end()
	c.fail(fmt.Errorf("DAP adapter %s disposed", c.name))
	<-c.readerDone
	return err
}

// Pids returns the live processes of the adapter's tree (the adapter, the
// debuggee and anything they started), where they can be listed.
func (c *Client) Pids() []int { return c.proc.tree.Live() }

// isClosedErr reports a read from a connection closed on this side.
func isClosedErr(err error) bool {
	return errors.Is(err, net.ErrClosed) || errors.Is(err, os.ErrClosed)
}
