package rpcclient

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Frames from gopi begin with a fixed member order: events with
// {"type":"…", responses with {"id":…,"type":"response","command":"…",
// "success":…, then "data" or "error". parseHead and parseResponse read
// those members without scanning the (possibly large) rest of the frame
// twice; anything that does not fit the shape falls back to
// encoding/json.

// parseHead returns the frame's type and, for responses, its string id.
func parseHead(line []byte) (typ, id string, ok bool) {
	rest, found := bytes.CutPrefix(line, []byte(`{"type":`))
	if found {
		typ, _, ok = cutString(rest)
		return typ, "", ok
	}
	rest, found = bytes.CutPrefix(line, []byte(`{"id":`))
	if !found {
		return "", "", false
	}
	id, rest, ok = cutString(rest)
	if !ok {
		return "", "", false
	}
	rest, found = bytes.CutPrefix(rest, []byte(`,"type":`))
	if !found {
		return "", "", false
	}
	typ, _, ok = cutString(rest)
	return typ, id, ok
}

// cutString reads a JSON string at the start of b and returns it and what
// follows.
func cutString(b []byte) (string, []byte, bool) {
	if len(b) == 0 || b[0] != '"' {
		return "", nil, false
	}
	escaped := false
	for i := 1; i < len(b); i++ {
		switch {
		case b[i] == '\\':
			escaped = true
			i++
		case b[i] == '"':
			if !escaped && utf8.Valid(b[1:i]) {
				return string(b[1:i]), b[i+1:], true
			}
			var s string
			if json.Unmarshal(b[:i+1], &s) != nil {
				return "", nil, false
			}
			return s, b[i+1:], true
		}
	}
	return "", nil, false
}

// parseResponse reads a response frame in gopi's member order; data is
// kept raw (validated when the caller decodes it).
func parseResponse(line []byte) (Response, bool) {
	var r Response
	rest, ok := bytes.CutPrefix(line, []byte(`{"id":`))
	if !ok {
		return r, false
	}
	if r.ID, rest, ok = cutString(rest); !ok {
		return r, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"type":"response","command":`)); !ok {
		return r, false
	}
	if r.Command, rest, ok = cutString(rest); !ok {
		return r, false
	}
	switch {
	case bytes.HasPrefix(rest, []byte(`,"success":true`)):
		r.Success, rest = true, rest[len(`,"success":true`):]
	case bytes.HasPrefix(rest, []byte(`,"success":false`)):
		rest = rest[len(`,"success":false`):]
	default:
		return r, false
	}
	rest = bytes.TrimRight(rest, "\r\n")
	switch {
	case bytes.Equal(rest, []byte("}")):
		return r, true
	case bytes.HasPrefix(rest, []byte(`,"data":`)) && bytes.HasSuffix(rest, []byte("}")):
		r.Data = json.RawMessage(rest[len(`,"data":`) : len(rest)-1])
		return r, true
	case bytes.HasPrefix(rest, []byte(`,"error":`)):
		msg, tail, ok := cutString(rest[len(`,"error":`):])
		if !ok || !bytes.Equal(tail, []byte("}")) {
			return r, false
		}
		r.Error = msg
		return r, true
	}
	return r, false
}
