package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
)

// hostBridge sends host tool calls and host URI requests and routes the
// host's answers back to the waiting call.
type hostBridge struct {
	out *writer

	mu      sync.Mutex
	seq     int
	pending map[string]*pendingCall
	closed  string // set when the host is gone: the reason new calls fail with
}

// pendingCall waits for the host's answer to one frame.
type pendingCall struct {
	kind     string // "tool" or "uri"
	done     chan hostAnswer
	onUpdate tool.UpdateFunc
}

// hostAnswer is a host's final answer.
type hostAnswer struct {
	frame json.RawMessage // the host_tool_result or host_uri_result frame
	err   error           // set when the call failed without an answer
}

func newHostBridge(out *writer) *hostBridge {
	return &hostBridge{out: out, pending: map[string]*pendingCall{}}
}

// next returns a fresh frame id with prefix.
func (b *hostBridge) next(prefix string) string {
	b.seq++
	return prefix + strconv.Itoa(b.seq)
}

// call sends a request frame built around its new id and waits for the
// answer, sending a cancel frame (cancelPrefix) when ctx ends first.
func (b *hostBridge) call(ctx context.Context, kind, prefix, cancelType, cancelPrefix string, onUpdate tool.UpdateFunc, frame func(id string) any) (json.RawMessage, error) {
	b.mu.Lock()
	if b.closed != "" {
		b.mu.Unlock()
		return nil, errors.New(b.closed)
	}
	id := b.next(prefix)
	p := &pendingCall{kind: kind, done: make(chan hostAnswer, 1), onUpdate: onUpdate}
	b.pending[id] = p
	b.mu.Unlock()
	b.out.send(frame(id))
	select {
	case a := <-p.done:
		return a.frame, a.err
	case <-ctx.Done():
		b.mu.Lock()
		_, still := b.pending[id]
		delete(b.pending, id)
		cancelID := b.next(cancelPrefix)
		b.mu.Unlock()
		if still {
			b.out.send(cancelFrame{Type: cancelType, ID: cancelID, TargetID: id})
		}
		return nil, fmt.Errorf("%w: %w", tool.ErrAborted, ctx.Err())
	}
}

// answer routes a host_tool_result, host_tool_update or host_uri_result.
// An answer to an unknown id (late, or never asked) is ignored; a
// malformed one is an error for the host.
func (b *hostBridge) answer(typ string, line []byte) error {
	var f struct {
		ID            string          `json:"id"`
		Result        json.RawMessage `json:"result"`
		PartialResult json.RawMessage `json:"partialResult"`
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return fmt.Errorf("invalid %s frame: %w", typ, err)
	}
	if f.ID == "" {
		return fmt.Errorf(`invalid %s frame: "id" is required`, typ)
	}
	want := "tool"
	if typ == "host_uri_result" {
		want = "uri"
	}
	b.mu.Lock()
	p, ok := b.pending[f.ID]
	if ok && p.kind != want {
		b.mu.Unlock()
		if p.kind == "uri" {
			return fmt.Errorf("%s %s: that id is a host_uri_request: answer it with host_uri_result", typ, f.ID)
		}
		return fmt.Errorf("%s %s: that id is a host_tool_call: answer it with host_tool_result", typ, f.ID)
	}
	if ok && typ != "host_tool_update" {
		delete(b.pending, f.ID)
	}
	b.mu.Unlock()
	if !ok {
		return nil
	}
	switch typ {
	case "host_tool_update":
		r, err := decodeResult(f.PartialResult)
		if err != nil {
			return fmt.Errorf("invalid host_tool_update frame: partialResult: %w", err)
		}
		p.onUpdate.Update(r)
	case "host_tool_result":
		if _, err := decodeResult(f.Result); err != nil {
			p.done <- hostAnswer{err: fmt.Errorf("the host answered with an invalid result: %w", err)}
			return fmt.Errorf("invalid host_tool_result frame: result: %w", err)
		}
		p.done <- hostAnswer{frame: append(json.RawMessage(nil), line...)}
	default:
		p.done <- hostAnswer{frame: append(json.RawMessage(nil), line...)}
	}
	return nil
}

// rejectAll fails every pending call and every later one with reason.
func (b *hostBridge) rejectAll(reason string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = reason
	for id, p := range b.pending {
		p.done <- hostAnswer{err: errors.New(reason)}
		delete(b.pending, id)
	}
}

// decodeResult reads a host's {content:[…], details?} result.
func decodeResult(raw json.RawMessage) (*tool.Result, error) {
	var r struct {
		Content *ai.ContentList `json:"content"`
		Details json.RawMessage `json:"details"`
	}
	if len(raw) == 0 {
		return nil, errors.New("missing")
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.Content == nil {
		return nil, errors.New(`"content" (a list of text and image blocks) is required`)
	}
	res := &tool.Result{Content: []tool.Content(*r.Content)}
	if len(r.Details) > 0 && string(r.Details) != "null" {
		res.Details = r.Details
	}
	return res, nil
}

// hostTool is a tool the RPC host executes.
type hostTool struct {
	def    tool.Definition
	bridge *hostBridge
}

// toolName is what every provider accepts as a tool name.
var toolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`) })

// newTool builds a host tool from its set_host_tools definition.
func (b *hostBridge) newTool(d hostToolDef) (tool.Tool, error) {
	if strings.TrimSpace(d.Name) == "" {
		return nil, errors.New(`"name" is required`)
	}
	if !toolName().MatchString(d.Name) {
		return nil, fmt.Errorf("name %q: use 1-64 letters, digits, '_' or '-' (providers refuse other tool names)", d.Name)
	}
	if strings.TrimSpace(d.Description) == "" {
		return nil, fmt.Errorf("tool %s: \"description\" is required (the model chooses tools by it)", d.Name)
	}
	def := tool.Definition{Name: d.Name, Label: d.Label, Description: d.Description, Concurrency: tool.Shared, ReadOnly: d.ReadOnly}
	if d.Concurrency == string(tool.Exclusive) {
		def.Concurrency = tool.Exclusive
	}
	if len(d.Parameters) > 0 && string(d.Parameters) != "null" {
		var s tool.Schema
		if err := json.Unmarshal(d.Parameters, &s); err != nil {
			return nil, fmt.Errorf("parameters: not a JSON Schema object: %w", err)
		}
		if s.Type != "" && s.Type != "object" {
			return nil, fmt.Errorf(`parameters: the schema must describe an object, got type %q`, s.Type)
		}
		def.Parameters = &s
	}
	return &hostTool{def: def, bridge: b}, nil
}

// Definition describes the tool.
func (t *hostTool) Definition() tool.Definition { return t.def }

// Execute asks the host to run the call and waits for its result.
func (t *hostTool) Execute(ctx context.Context, args tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	frame, err := t.bridge.call(ctx, "tool", "host_", "host_tool_cancel", "host_cancel_", onUpdate, func(id string) any {
		return hostToolCall{Type: "host_tool_call", ID: id, ToolCallID: tool.CallID(ctx), ToolName: t.def.Name, Arguments: map[string]any(args)}
	})
	if err != nil {
		return nil, err
	}
	var f struct {
		Result  json.RawMessage `json:"result"`
		IsError bool            `json:"isError"`
	}
	if err := json.Unmarshal(frame, &f); err != nil {
		return nil, err
	}
	res, err := decodeResult(f.Result)
	if err != nil {
		return nil, err
	}
	if f.IsError {
		text := strings.TrimSpace(resultText(res))
		if text == "" {
			text = "Host tool execution failed"
		}
		return nil, &tool.Error{Msg: text}
	}
	return res, nil
}

func resultText(r *tool.Result) string {
	var parts []string
	for _, c := range r.Content {
		if t, ok := c.(*tool.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ReadURI asks the host for a URL's content.
func (b *hostBridge) ReadURI(ctx context.Context, url string) (*tool.HostURIContent, error) {
	frame, err := b.call(ctx, "uri", "uri_", "host_uri_cancel", "uri_cancel_", nil, func(id string) any {
		return uriRequest{Type: "host_uri_request", ID: id, Operation: "read", URL: url}
	})
	if err != nil {
		return nil, err
	}
	var f uriResult
	if err := json.Unmarshal(frame, &f); err != nil {
		return nil, err
	}
	if err := f.failure(); err != nil {
		return nil, err
	}
	return &tool.HostURIContent{Content: f.Content, ContentType: f.ContentType, Notes: f.Notes, Immutable: f.Immutable}, nil
}

// WriteURI asks the host to replace a URL's content.
func (b *hostBridge) WriteURI(ctx context.Context, url, content string) error {
	frame, err := b.call(ctx, "uri", "uri_", "host_uri_cancel", "uri_cancel_", nil, func(id string) any {
		return uriRequest{Type: "host_uri_request", ID: id, Operation: "write", URL: url, Content: &content}
	})
	if err != nil {
		return err
	}
	var f uriResult
	if err := json.Unmarshal(frame, &f); err != nil {
		return err
	}
	return f.failure()
}

// uriResult is a host_uri_result frame.
type uriResult struct {
	Content     string   `json:"content"`
	ContentType string   `json:"contentType"`
	Notes       []string `json:"notes"`
	Immutable   bool     `json:"immutable"`
	IsError     bool     `json:"isError"`
	Error       string   `json:"error"`
}

func (f *uriResult) failure() error {
	if !f.IsError {
		return nil
	}
	msg := f.Error
	if msg == "" {
		msg = f.Content
	}
	if msg == "" {
		msg = "the host refused the request"
	}
	return errors.New(msg)
}

// Outbound frames, with their fields in the documented order.
type (
	hostToolCall struct {
		Type       string         `json:"type"`
		ID         string         `json:"id"`
		ToolCallID string         `json:"toolCallId"`
		ToolName   string         `json:"toolName"`
		Arguments  map[string]any `json:"arguments"`
	}
	cancelFrame struct {
		Type     string `json:"type"`
		ID       string `json:"id"`
		TargetID string `json:"targetId"`
	}
	uriRequest struct {
		Type      string  `json:"type"`
		ID        string  `json:"id"`
		Operation string  `json:"operation"`
		URL       string  `json:"url"`
		Content   *string `json:"content,omitempty"`
	}
)
