package rpcclient

import (
	"context"
	"encoding/json"
	"time"
)

// ToolResult is what a host tool returns: content blocks ({"type":"text",
// "text":…} or images) and optional details.
type ToolResult struct {
	Content []map[string]any `json:"content"`
	Details any              `json:"details,omitempty"`
}

// TextResult is a result with one text block.
func TextResult(text string) ToolResult {
	return ToolResult{Content: []map[string]any{{"type": "text", "text": text}}}
}

// ToolFunc runs a host tool call. update sends progress; a returned error
// makes the call fail with its text. ctx ends when gopi cancels the call.
type ToolFunc func(ctx context.Context, args map[string]any, update func(ToolResult)) (ToolResult, error)

// Tool defines a host tool.
type Tool struct {
	Name        string         `json:"name"`
	Label       string         `json:"label,omitempty"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"` // a JSON Schema object
	// ReadOnly says the tool changes nothing, so gopi's permission
	// questions (rpc.requirePermission) leave its calls out.
	ReadOnly bool     `json:"readOnly,omitempty"`
	Run      ToolFunc `json:"-"`
}

// SetHostTools offers tools the model may call; gopi calls back through
// host_tool_call and this client answers with their Run functions.
func (c *Client) SetHostTools(ctx context.Context, tools ...Tool) error {
	c.mu.Lock()
	c.tools = map[string]ToolFunc{}
	for _, t := range tools {
		c.tools[t.Name] = t.Run
	}
	c.mu.Unlock()
	_, err := c.Call(ctx, "set_host_tools", map[string]any{"tools": tools})
	return err
}

// callContext returns the context of the host call f: a host_tool_cancel
// or host_uri_cancel naming f's id cancels it. It is called on the reading
// goroutine, before the call is served on its own, so that a cancel that
// follows the call at once is not read before anyone watches for it.
// done releases the watch.
func (c *Client) callContext(f Frame) (ctx context.Context, done func()) {
	var req struct {
		ID string `json:"id"`
	}
	ctx, cancel := context.WithCancel(context.Background())
	if f.Decode(&req) != nil {
		return ctx, cancel
	}
	stop := c.watchCancel(req.ID, cancel)
	return ctx, func() { stop(); cancel() }
}

// serveTool runs one host_tool_call and sends its result; ctx is the
// call's (see callContext).
func (c *Client) serveTool(ctx context.Context, f Frame) {
	var req struct {
		ID        string         `json:"id"`
		ToolName  string         `json:"toolName"`
		Arguments map[string]any `json:"arguments"`
	}
	if f.Decode(&req) != nil {
		return
	}
	c.mu.Lock()
	run := c.tools[req.ToolName]
	c.mu.Unlock()
	if run == nil {
		c.send(map[string]any{"type": "host_tool_result", "id": req.ID, "isError": true, "result": TextResult("this host has no tool named " + req.ToolName)})
		return
	}
	update := func(r ToolResult) {
		c.send(map[string]any{"type": "host_tool_update", "id": req.ID, "partialResult": r})
	}
	res, err := run(ctx, req.Arguments, update)
	if ctx.Err() != nil {
		return // cancelled: gopi no longer waits
	}
	if err != nil {
		c.send(map[string]any{"type": "host_tool_result", "id": req.ID, "isError": true, "result": TextResult(err.Error())})
		return
	}
	if res.Content == nil {
		res.Content = []map[string]any{}
	}
	c.send(map[string]any{"type": "host_tool_result", "id": req.ID, "result": res})
}

// watchCancel cancels when a host_tool_cancel or host_uri_cancel names id.
func (c *Client) watchCancel(id string, cancel func()) (stop func()) {
	fired := make(chan struct{})
	return c.OnEvent(func(f Frame) {
		if f.Type != "host_tool_cancel" && f.Type != "host_uri_cancel" {
			return
		}
		var x struct {
			TargetID string `json:"targetId"`
		}
		if f.Decode(&x) == nil && x.TargetID == id {
			select {
			case <-fired:
			default:
				close(fired)
				cancel()
			}
		}
	})
}

// URIContent is a host's answer to a read.
type URIContent struct {
	Content     string   `json:"content"`
	ContentType string   `json:"contentType,omitempty"`
	Notes       []string `json:"notes,omitempty"`
	Immutable   bool     `json:"immutable,omitempty"`
}

// URIHandler serves host-owned URLs.
type URIHandler interface {
	Read(ctx context.Context, url string) (URIContent, error)
	Write(ctx context.Context, url, content string) error
}

// URIScheme declares a host-owned URL scheme.
type URIScheme struct {
	Scheme      string `json:"scheme"`
	Description string `json:"description,omitempty"`
	Writable    bool   `json:"writable,omitempty"`
	Immutable   bool   `json:"immutable,omitempty"`
}

// SetHostURISchemes makes reads and writes of the schemes' URLs come to h.
// It returns the schemes as gopi registered them (lowercase).
func (c *Client) SetHostURISchemes(ctx context.Context, h URIHandler, schemes ...URIScheme) ([]string, error) {
	c.mu.Lock()
	c.uri = h
	c.mu.Unlock()
	r, err := c.Call(ctx, "set_host_uri_schemes", map[string]any{"schemes": schemes})
	if err != nil {
		return nil, err
	}
	var d struct {
		Schemes []string `json:"schemes"`
	}
	return d.Schemes, json.Unmarshal(r.Data, &d)
}

// serveURI answers one host_uri_request; ctx is the request's (see
// callContext).
func (c *Client) serveURI(ctx context.Context, f Frame) {
	var req struct {
		ID        string `json:"id"`
		Operation string `json:"operation"`
		URL       string `json:"url"`
		Content   string `json:"content"`
	}
	if f.Decode(&req) != nil {
		return
	}
	c.mu.Lock()
	h := c.uri
	c.mu.Unlock()
	if h == nil {
		c.send(map[string]any{"type": "host_uri_result", "id": req.ID, "isError": true, "error": "this host serves no URLs"})
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if req.Operation == "write" {
		if err := h.Write(ctx, req.URL, req.Content); err != nil {
			c.send(map[string]any{"type": "host_uri_result", "id": req.ID, "isError": true, "error": err.Error()})
			return
		}
		c.send(map[string]any{"type": "host_uri_result", "id": req.ID})
		return
	}
	got, err := h.Read(ctx, req.URL)
	if err != nil {
		c.send(map[string]any{"type": "host_uri_result", "id": req.ID, "isError": true, "error": err.Error()})
		return
	}
	c.send(map[string]any{"type": "host_uri_result", "id": req.ID, "content": got.Content, "contentType": got.ContentType, "notes": got.Notes, "immutable": got.Immutable})
}

// UIRequest is an extension_ui_request dialog.
type UIRequest struct {
	ID          string   `json:"id"`
	Method      string   `json:"method"` // select, confirm, input, editor (and notify, setStatus, … which need no answer)
	Title       string   `json:"title"`
	Message     string   `json:"message"`
	Options     []string `json:"options"`
	Placeholder string   `json:"placeholder"`
	Prefill     string   `json:"prefill"`
	Timeout     int64    `json:"timeout"`
}

// UIAnswer answers a dialog: Value for select, input and editor, Confirmed
// for confirm, Cancelled to dismiss it, TimedOut (with Cancelled) when the
// host's own timer ended it unanswered.
type UIAnswer struct {
	Value     *string `json:"value,omitempty"`
	Confirmed *bool   `json:"confirmed,omitempty"`
	Cancelled bool    `json:"cancelled,omitempty"`
	TimedOut  bool    `json:"timedOut,omitempty"`
}

// UIHandler answers dialogs.
type UIHandler func(UIRequest) UIAnswer

// OnUI sets the dialog handler; without one dialogs are left to time out.
func (c *Client) OnUI(h UIHandler) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ui = h
}

// serveUI answers one dialog.
func (c *Client) serveUI(f Frame) {
	var req UIRequest
	if f.Decode(&req) != nil {
		return
	}
	switch req.Method {
	case "select", "confirm", "input", "editor":
	default:
		return
	}
	c.mu.Lock()
	h := c.ui
	c.mu.Unlock()
	if h == nil {
		return
	}
	a := h(req)
	frame := map[string]any{"type": "extension_ui_response", "id": req.ID}
	switch {
	case a.Cancelled:
		frame["cancelled"] = true
		if a.TimedOut {
			frame["timedOut"] = true
		}
	case a.Confirmed != nil:
		frame["confirmed"] = *a.Confirmed
	case a.Value != nil:
		frame["value"] = *a.Value
	}
	c.send(frame)
}
