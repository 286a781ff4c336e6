package rpc

import (
	"encoding/json"
	"io"
	"sync"
)

// writer sends frames: one JSON object per line, each written with a
// single Write under a lock, so frames from the loop, tools and the
// command reader never interleave.
type writer struct {
	mu     sync.Mutex
	w      io.Writer
	err    error
	onFail func() // called once when the output fails (the host went away)
}

// send writes v as one line. After a failed write it does nothing.
func (w *writer) send(v any) {
	data, err := encode(v)
	if err != nil {
		data, _ = json.Marshal(map[string]any{"type": "error", "error": "cannot encode frame: " + err.Error()})
	}
	data = append(data, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	if _, err := w.w.Write(data); err != nil {
		w.err = err
		if w.onFail != nil {
			go w.onFail()
		}
	}
}

// response is a command's answer.
type response struct {
	ID      json.RawMessage `json:"id,omitempty"`
	Type    string          `json:"type"`
	Command string          `json:"command"`
	Success bool            `json:"success"`
	Data    any             `json:"data,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// nullData marks a successful response whose data is JSON null (omp sends
// "data":null for cycle_model and friends when there is nothing to do).
type nullData struct{}

// MarshalJSON encodes null.
func (nullData) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

func ok(id json.RawMessage, command string, data any) response {
	return response{ID: id, Type: "response", Command: command, Success: true, Data: data}
}

func fail(id json.RawMessage, command string, msg string) response {
	return response{ID: id, Type: "response", Command: command, Success: false, Error: msg}
}

// encode marshals a frame. Our own Marshalers (events, State) produce
// compact JSON already; calling them directly skips encoding/json's
// re-validation of their output, which is most of the cost of a large
// frame such as get_state's.
func encode(v any) ([]byte, error) {
	switch v := v.(type) {
	case response:
		return v.encode()
	case json.Marshaler:
		return v.MarshalJSON()
	}
	return json.Marshal(v)
}

// encode writes a response with its data encoded by encode.
func (r response) encode() ([]byte, error) {
	data := r.Data
	r.Data = nil
	head, err := json.Marshal(r)
	if err != nil || data == nil {
		return head, err
	}
	body, err := encode(data)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+len(body)+10)
	out = append(out, head[:len(head)-1]...)
	out = append(out, `,"data":`...)
	out = append(out, body...)
	return append(out, '}'), nil
}
