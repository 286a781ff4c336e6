// Package rpcclient drives `gopi --mode rpc` from Go: it starts the
// process (or talks over any pair of streams), sends commands and matches
// their responses by id, delivers events, and serves the host side of the
// sub-protocols — host tools, host URIs and extension UI dialogs — with Go
// functions.
//
//	c, err := rpcclient.Start(ctx, "gopi", "--model", "anthropic/claude-sonnet-4-5")
//	defer c.Close()
//	c.OnEvent(func(f rpcclient.Frame) { … })
//	end := c.Expect("agent_end", "response")
//	if err := c.Prompt(ctx, "Summarise README.md"); err != nil { … }
//	f, err := end.Wait(ctx)
//
// Expect is called before the prompt so that a quick run's agent_end is
// not missed; "response" catches a prompt that fails after it was
// acknowledged (no API key, say), which sends a second response with the
// prompt's id and no agent_end.
//
// Every method is safe for concurrent use.
package rpcclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"sync"
)

// Frame is one frame from gopi: its type and the whole object.
type Frame struct {
	Type string
	Raw  json.RawMessage
}

// Decode decodes the frame into v.
func (f Frame) Decode(v any) error { return json.Unmarshal(f.Raw, v) }

// Response is a command's answer.
type Response struct {
	ID      string          `json:"id"`
	Command string          `json:"command"`
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   string          `json:"error"`
}

// Err returns the failure as an error (nil on success).
func (r *Response) Err() error {
	if r.Success {
		return nil
	}
	return &CommandError{Command: r.Command, Msg: r.Error}
}

// CommandError is a command gopi answered with success false.
type CommandError struct {
	Command string // the command
	Msg     string // gopi's error text
}

func (e *CommandError) Error() string { return e.Command + ": " + e.Msg }

// ErrClosed is returned once the connection is gone.
var ErrClosed = errors.New("rpcclient: the connection to gopi is closed")

// Client is a connection to one gopi RPC process.
type Client struct {
	w    io.WriteCloser
	cmd  *exec.Cmd
	done chan struct{} // closed when the reader ends

	wmu sync.Mutex // one frame per write

	mu        sync.Mutex
	seq       int
	pending   map[string]chan Response
	listeners map[int]func(Frame)
	nextL     int
	waiters   []*waiter
	tools     map[string]ToolFunc
	uri       URIHandler
	ui        UIHandler
	readErr   error
	ready     chan struct{}
	readyOnce sync.Once
}

// waiter is a WaitFor call.
type waiter struct {
	types map[string]bool
	ch    chan Frame
}

// Start runs `path --mode rpc args…` and connects to it. The process's
// standard error goes to this process's.
func Start(ctx context.Context, path string, args ...string) (*Client, error) {
	cmd := exec.CommandContext(ctx, path, append([]string{"--mode", "rpc"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	c := New(stdout, stdin)
	c.cmd = cmd
	select {
	case <-c.ready:
		return c, nil
	case <-c.done:
		cmd.Wait()
		return nil, fmt.Errorf("gopi exited before it was ready: %w", c.err())
	case <-ctx.Done():
		c.Close()
		return nil, ctx.Err()
	}
}

// New connects over a stream pair: r carries gopi's frames, w takes
// commands (closing w tells gopi to stop).
func New(r io.Reader, w io.WriteCloser) *Client {
	c := &Client{w: w, done: make(chan struct{}), pending: map[string]chan Response{}, tools: map[string]ToolFunc{}, ready: make(chan struct{}), listeners: map[int]func(Frame){}}
	go c.read(r)
	return c
}

// Ready returns a channel closed when gopi has sent its ready frame.
func (c *Client) Ready() <-chan struct{} { return c.ready }

// Done returns a channel closed when gopi's output has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

func (c *Client) err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.readErr != nil {
		return c.readErr
	}
	return ErrClosed
}

// OnEvent registers fn for every frame that is not a response (events,
// host requests, UI requests) and returns a function that removes it. It
// runs on the reading goroutine: keep it short.
func (c *Client) OnEvent(fn func(Frame)) (remove func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := c.nextL
	c.nextL++
	c.listeners[id] = fn
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.listeners, id)
	}
}

// WaitFor waits for the next frame of one of the given types that arrives
// after the call. To wait for a frame a command causes, call Expect before
// sending the command: the frame may arrive before WaitFor would be called.
func (c *Client) WaitFor(ctx context.Context, types ...string) (Frame, error) {
	return c.Expect(types...).Wait(ctx)
}

// Expectation is a frame awaited from the moment Expect was called.
type Expectation struct {
	c *Client
	w *waiter
}

// Expect starts waiting for the next frame of one of the given types.
func (c *Client) Expect(types ...string) *Expectation {
	w := &waiter{types: map[string]bool{}, ch: make(chan Frame, 1)}
	for _, t := range types {
		w.types[t] = true
	}
	c.mu.Lock()
	c.waiters = append(c.waiters, w)
	c.mu.Unlock()
	return &Expectation{c: c, w: w}
}

// Wait returns the expected frame.
func (e *Expectation) Wait(ctx context.Context) (Frame, error) {
	c, w := e.c, e.w
	select {
	case f := <-w.ch:
		return f, nil
	case <-c.done:
		return Frame{}, c.err()
	case <-ctx.Done():
		c.mu.Lock()
		for i, x := range c.waiters {
			if x == w {
				c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
				break
			}
		}
		c.mu.Unlock()
		return Frame{}, ctx.Err()
	}
}

// read dispatches gopi's frames until its output ends.
func (c *Client) read(r io.Reader) {
	defer close(c.done)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 1 {
			c.dispatch(line)
		}
		if err != nil {
			c.mu.Lock()
			if !errors.Is(err, io.EOF) {
				c.readErr = err
			}
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
	}
}

func (c *Client) dispatch(line []byte) {
	typ, _, ok := parseHead(line)
	if !ok {
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(line, &head) != nil {
			return
		}
		typ = head.Type
	}
	f := Frame{Type: typ, Raw: append(json.RawMessage(nil), line...)}
	switch typ {
	case "ready":
		c.readyOnce.Do(func() { close(c.ready) })
	case "response":
		r, ok := parseResponse(line)
		if !ok {
			r = Response{}
			ok = json.Unmarshal(line, &r) == nil
		}
		if ok && r.ID != "" {
			c.mu.Lock()
			ch, ok := c.pending[r.ID]
			if ok {
				delete(c.pending, r.ID)
			}
			c.mu.Unlock()
			if ok {
				ch <- r
				return
			}
		}
	case "host_tool_call":
		ctx, done := c.callContext(f)
		go func() {
			defer done()
			c.serveTool(ctx, f)
		}()
	case "host_uri_request":
		ctx, done := c.callContext(f)
		go func() {
			defer done()
			c.serveURI(ctx, f)
		}()
	case "extension_ui_request":
		go c.serveUI(f)
	}
	c.mu.Lock()
	listeners := make([]func(Frame), 0, len(c.listeners))
	for _, fn := range c.listeners {
		listeners = append(listeners, fn)
	}
	var matched []*waiter
	rest := c.waiters[:0]
	for _, w := range c.waiters {
		if w.types[f.Type] {
			matched = append(matched, w)
		} else {
			rest = append(rest, w)
		}
	}
	c.waiters = rest
	c.mu.Unlock()
	for _, w := range matched {
		w.ch <- f
	}
	for _, fn := range listeners {
		fn(f)
	}
}

// send writes one frame.
func (c *Client) send(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.w.Write(append(data, '\n'))
	return err
}

// Call sends a command (any JSON object with a "type"; an "id" is added)
// and waits for its response. A failure response is returned with an error.
func (c *Client) Call(ctx context.Context, typ string, fields map[string]any) (*Response, error) {
	c.mu.Lock()
	c.seq++
	id := "req_" + strconv.Itoa(c.seq)
	ch := make(chan Response, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	frame := map[string]any{"id": id, "type": typ}
	for k, v := range fields {
		frame[k] = v
	}
	if err := c.send(frame); err != nil {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, fmt.Errorf("send %s: %w", typ, err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, c.err()
		}
		return &r, r.Err()
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, ctx.Err()
	}
}

// Close closes gopi's input (it then stops and saves the session) and,
// for a started process, waits for it to exit.
func (c *Client) Close() error {
	err := c.w.Close()
	if c.cmd != nil {
		if werr := c.cmd.Wait(); err == nil {
			err = werr
		}
	}
	return err
}
