package rpc

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// uiBridge is the extension UI sub-protocol: dialogs go out as
// extension_ui_request and wait for the matching extension_ui_response.
// It implements the session's UI for tools (the ask tool) and, later,
// extensions.
type uiBridge struct {
	out       *writer
	emitTitle bool

	mu      sync.Mutex
	seq     int
	pending map[string]chan uiAnswer
}

// uiAnswer is an extension_ui_response.
type uiAnswer struct {
	Value     *string `json:"value"`
	Confirmed *bool   `json:"confirmed"`
	Cancelled bool    `json:"cancelled"`
	TimedOut  bool    `json:"timedOut"`
}

func newUIBridge(out *writer, emitTitle bool) *uiBridge {
	return &uiBridge{out: out, emitTitle: emitTitle, pending: map[string]chan uiAnswer{}}
}

// request sends a dialog and waits for its answer, the timeout, or ctx.
// The error says why there is no answer: tool.ErrDialogCancelled (the host
// dismissed it), tool.ErrDialogTimedOut (our timeout, or the host's:
// cancelled with timedOut) or ctx's error.
func (u *uiBridge) request(ctx context.Context, method string, fields map[string]any, timeout time.Duration) (uiAnswer, error) {
	u.mu.Lock()
	u.seq++
	id := "ui_" + strconv.Itoa(u.seq)
	ch := make(chan uiAnswer, 1)
	u.pending[id] = ch
	u.mu.Unlock()
	defer func() {
		u.mu.Lock()
		delete(u.pending, id)
		u.mu.Unlock()
	}()
	frame := uiFrame(id, method, fields)
	var expire <-chan time.Time
	if timeout > 0 {
		frame.Timeout = timeout.Milliseconds()
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	u.out.send(frame)
	select {
	case a := <-ch:
		switch {
		case a.Cancelled && a.TimedOut:
			return a, tool.ErrDialogTimedOut
		case a.Cancelled:
			return a, tool.ErrDialogCancelled
		}
		return a, nil
	case <-expire:
		u.out.send(uiFrame("ui_cancel_"+id, "cancel", map[string]any{"targetId": id}))
		return uiAnswer{}, tool.ErrDialogTimedOut
	case <-ctx.Done():
		u.out.send(uiFrame("ui_cancel_"+id, "cancel", map[string]any{"targetId": id}))
		return uiAnswer{}, ctx.Err()
	}
}

// answer routes an extension_ui_response; unknown ids are ignored.
func (u *uiBridge) answer(line []byte) {
	var f struct {
		ID string `json:"id"`
		uiAnswer
	}
	if json.Unmarshal(line, &f) != nil {
		return
	}
	u.mu.Lock()
	ch, ok := u.pending[f.ID]
	u.mu.Unlock()
	if ok {
		select {
		case ch <- f.uiAnswer:
		default:
		}
	}
}

// cancelAll ends every open dialog as dismissed (the host is gone).
func (u *uiBridge) cancelAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for id, ch := range u.pending {
		select {
		case ch <- uiAnswer{Cancelled: true}:
		default:
		}
		delete(u.pending, id)
	}
}

// Select asks the host to pick one of options. An answer without a value
// counts as dismissed.
func (u *uiBridge) Select(ctx context.Context, title string, options []string, timeout time.Duration) (string, error) {
	a, err := u.request(ctx, "select", map[string]any{"title": title, "options": options}, timeout)
	return a.text(err)
}

// Confirm asks a yes/no question; false, nil when declined.
func (u *uiBridge) Confirm(ctx context.Context, title, message string, timeout time.Duration) (bool, error) {
	a, err := u.request(ctx, "confirm", map[string]any{"title": title, "message": message}, timeout)
	if err != nil {
		return false, err
	}
	return a.Confirmed != nil && *a.Confirmed, nil
}

// Input asks for a line of text.
func (u *uiBridge) Input(ctx context.Context, title, placeholder string, timeout time.Duration) (string, error) {
	a, err := u.request(ctx, "input", map[string]any{"title": title, "placeholder": placeholder}, timeout)
	return a.text(err)
}

// Editor asks for multi-line text, starting from prefill.
func (u *uiBridge) Editor(ctx context.Context, title, prefill string, timeout time.Duration) (string, error) {
	a, err := u.request(ctx, "editor", map[string]any{"title": title, "prefill": prefill}, timeout)
	return a.text(err)
}

// text returns the answer's value; an answer without one (the wrong kind
// for the dialog) counts as dismissed.
func (a uiAnswer) text(err error) (string, error) {
	switch {
	case err != nil:
		return "", err
	case a.Value == nil:
		return "", tool.ErrDialogCancelled
	}
	return *a.Value, nil
}

// fire sends a request that expects no answer.
func (u *uiBridge) fire(method string, fields map[string]any) {
	u.mu.Lock()
	u.seq++
	id := "ui_" + strconv.Itoa(u.seq)
	u.mu.Unlock()
	u.out.send(uiFrame(id, method, fields))
}

// Notify shows a message (level info, warning or error).
func (u *uiBridge) Notify(message, level string) {
	u.fire("notify", map[string]any{"message": message, "notifyType": level})
}

// SetStatus sets (or clears, with "") a status line under key.
func (u *uiBridge) SetStatus(key, text string) {
	u.fire("setStatus", map[string]any{"statusKey": key, "statusText": text})
}

// SetWidget sets (or clears, with nil) a block of lines under key.
func (u *uiBridge) SetWidget(key string, lines []string) {
	u.fire("setWidget", map[string]any{"widgetKey": key, "widgetLines": lines})
}

// SetTitle sets the host's title; dropped unless EmitTitle.
func (u *uiBridge) SetTitle(title string) {
	if u.emitTitle {
		u.fire("setTitle", map[string]any{"title": title})
	}
}

// SetEditorText replaces the text of the host's input editor.
func (u *uiBridge) SetEditorText(text string) {
	u.fire("set_editor_text", map[string]any{"text": text})
}

// uiRequest is an extension_ui_request frame: type, id and method first,
// then the method's fields.
type uiRequest struct {
	Type    string         `json:"type"`
	ID      string         `json:"id"`
	Method  string         `json:"method"`
	Fields  map[string]any `json:"-"`
	Timeout int64          `json:"timeout,omitempty"`
}

// MarshalJSON writes type, id and method, then the fields in name order,
// then the timeout.
func (r uiRequest) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		Type   string `json:"type"`
		ID     string `json:"id"`
		Method string `json:"method"`
	}{r.Type, r.ID, r.Method})
	if err != nil {
		return nil, err
	}
	rest := map[string]any{}
	for k, v := range r.Fields {
		rest[k] = v
	}
	if r.Timeout > 0 {
		rest["timeout"] = r.Timeout
	}
	if len(rest) == 0 {
		return head, nil
	}
	tail, err := json.Marshal(rest)
	if err != nil {
		return nil, err
	}
	return append(append(head[:len(head)-1], ','), tail[1:]...), nil
}

func uiFrame(id, method string, fields map[string]any) *uiRequest {
	return &uiRequest{Type: "extension_ui_request", ID: id, Method: method, Fields: fields}
}
