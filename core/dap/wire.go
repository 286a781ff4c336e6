package dap

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	godap "github.com/google/go-dap"
)

// message is any DAP message as it travels: the envelope fields of
// requests, responses and events, with arguments and bodies left raw so
// that a command gopi does not model (custom_request) keeps every field.
type message struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`                  // "request", "response" or "event"
	Command    string          `json:"command,omitempty"`     // requests and responses
	Event      string          `json:"event,omitempty"`       // events
	RequestSeq int             `json:"request_seq,omitempty"` // responses
	Success    bool            `json:"success,omitempty"`     // responses
	Message    string          `json:"message,omitempty"`     // failed responses
	Arguments  json.RawMessage `json:"arguments,omitempty"`   // requests
	Body       json.RawMessage `json:"body,omitempty"`        // responses and events
}

// outRequest is a request gopi sends.
type outRequest struct {
	Seq       int    `json:"seq"`
	Type      string `json:"type"`
	Command   string `json:"command"`
	Arguments any    `json:"arguments,omitempty"`
}

// outResponse is gopi's answer to an adapter's reverse request.
type outResponse struct {
	Seq        int    `json:"seq"`
	Type       string `json:"type"`
	RequestSeq int    `json:"request_seq"`
	Success    bool   `json:"success"`
	Command    string `json:"command"`
	Message    string `json:"message,omitempty"`
	Body       any    `json:"body,omitempty"`
}

// readMessage reads one framed message (Content-Length header, at most
// 4 MiB of content, go-dap's framing) and decodes its envelope. A framing
// error leaves the stream unusable; a decoding error does not.
func readMessage(r *bufio.Reader) (*message, error) {
	content, err := godap.ReadBaseMessage(r)
	if err != nil {
		return nil, err
	}
	return decodeMessage(content)
}

// errBadMessage wraps a frame whose content is not a DAP message.
type errBadMessage struct{ err error }

// Error says the frame was not a DAP message, and why.
func (e *errBadMessage) Error() string { return "not a DAP message: " + e.err.Error() }

// Unwrap returns the decoding error.
func (e *errBadMessage) Unwrap() error { return e.err }

// decodeMessage decodes the content of one frame.
func decodeMessage(content []byte) (*message, error) {
	var m message
	if err := json.Unmarshal(content, &m); err != nil {
		return nil, &errBadMessage{err}
	}
	switch m.Type {
	case "request":
		if m.Command == "" {
			return nil, &errBadMessage{fmt.Errorf("request %d without a command", m.Seq)}
		}
	case "response":
	case "event":
		if m.Event == "" {
			return nil, &errBadMessage{fmt.Errorf("event %d without a name", m.Seq)}
		}
	default:
		return nil, &errBadMessage{fmt.Errorf("unknown message type %q", m.Type)}
	}
	return &m, nil
}

// writeMessage frames v (an outRequest or outResponse) onto w.
func writeMessage(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return godap.WriteBaseMessage(w, b)
}
