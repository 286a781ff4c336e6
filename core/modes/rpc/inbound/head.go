// Package inbound reads the head of the lines an RPC host sends to gopi:
// every line is a JSON object whose "type" names a command (or an answer
// to a request of gopi's) and whose optional "id" is echoed in the
// response. It explains, in the words the response carries, why a line
// is not such an object. The arguments of each command are decoded by
// the command itself.
package inbound

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Head is what every inbound frame has.
type Head struct {
	ID   json.RawMessage `json:"id"`   // echoed in the response; valid UTF-8 JSON, or nil
	Type string          `json:"type"` // the command, never empty
}

// ParseHead decodes the head of one line. The error says why the line is
// not a JSON object with a "type" (the text follows "Failed to parse
// command: " in the response). An id holding invalid UTF-8 comes back
// re-encoded with U+FFFD for the bad bytes.
func ParseHead(line []byte) (Head, error) {
	var head Head
	if err := json.Unmarshal(line, &head); err != nil {
		return Head{}, errors.New(parseError(line, err))
	}
	if !utf8.Valid(head.ID) {
		head.ID = validID(head.ID)
	}
	if head.Type == "" {
		return Head{}, errors.New(`the object has no "type" field`)
	}
	return head, nil
}

// validID re-encodes an id holding invalid UTF-8 (which encoding/json
// keeps in a RawMessage) the way a string field would decode it, with
// U+FFFD for the bad bytes, so that the echo is valid JSON text.
func validID(id json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(id))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return out
}

// parseError describes why a line is not a JSON object.
func parseError(line []byte, err error) string {
	trimmed := bytes.TrimSpace(line)
	if json.Valid(trimmed) {
		if trimmed[0] != '{' {
			return "a command must be a JSON object, got " + jsonKind(trimmed)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return fmt.Sprintf("%q must be a string, got %s", te.Field, te.Value)
		}
		return err.Error()
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
	}
	return err.Error()
}

func jsonKind(v []byte) string {
	switch v[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
