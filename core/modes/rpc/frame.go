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
	data, err := json.Marshal(v)
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
