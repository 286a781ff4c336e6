package lineguard

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzInputGuard feeds arbitrary editor output through the line guard and
// checks it against a reference decision per line: a line reaches the
// library whole and unchanged, or not at all and is answered with one
// JSON-RPC error (-32700 for what is not JSON, -32600 for JSON that is not
// a request or notification the library can take), with id null.
func FuzzInputGuard(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n",
		`{"jsonrpc":"2.0","method":"session/cancel"}` + "\n" + `{"id":"a","result":{}}`,
		"not json\n[1,2]\n{}\n{\"id\":{\"a\":1}}\n{\"id\":true,\"method\":\"x\"}\n",
		"\n  \r\n{\"ID\":1}\n{\"Method\":null}\n{\"id\":null}", `{"id":1,"id":[]}`, `{"method":"m","id":-0.5e3}`,
		"{\"id\":\"\xff\",\"method\":\"m\"}\n", `{"a":1} {"b":2}`, `"str"`, `null`, "{\"method\":\"m\"}\r",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var replies bytes.Buffer
		g := New(bytes.NewReader(in), &replies, func(string, ...any) {})
		passed, err := io.ReadAll(g)
		if err != nil {
			t.Fatalf("reading through the guard: %v", err)
		}
		var wantPassed []byte
		var wantCodes []float64
		for _, line := range splitLinesKeepEnd(in) {
			code := referenceGuard(line)
			if code == 0 {
				wantPassed = append(wantPassed, line...)
			} else {
				wantCodes = append(wantCodes, code)
			}
		}
		if !bytes.Equal(passed, wantPassed) {
			t.Fatalf("%q: the library got %q, want %q", in, passed, wantPassed)
		}
		var gotCodes []float64
		for _, r := range splitLinesKeepEnd(replies.Bytes()) {
			var m struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *struct {
					Code    float64 `json:"code"`
					Message string  `json:"message"`
				} `json:"error"`
			}
			if !bytes.HasSuffix(r, []byte("\n")) || json.Unmarshal(r, &m) != nil || m.JSONRPC != "2.0" || m.Error == nil ||
				string(m.ID) != "null" || strings.TrimSpace(m.Error.Message) == "" {
				t.Fatalf("%q: reply %q is not a JSON-RPC error line with id null", in, r)
			}
			gotCodes = append(gotCodes, m.Error.Code)
		}
		if len(gotCodes) != len(wantCodes) {
			t.Fatalf("%q: replies %v, want codes %v", in, gotCodes, wantCodes)
		}
		for i := range gotCodes {
			if gotCodes[i] != wantCodes[i] {
				t.Fatalf("%q: reply %d has code %v, want %v", in, i, gotCodes[i], wantCodes[i])
			}
		}
	})
}

// splitLinesKeepEnd splits b after each newline; a last line without one
// is kept too.
func splitLinesKeepEnd(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		out = append(out, b[:i])
		b = b[i:]
	}
	return out
}

// referenceGuard decides a line as the guard should (lines are shorter
// than MaxLine here): 0 passes it to the library, else the JSON-RPC
// error code of its answer. Keys are matched as encoding/json matches the
// library's struct fields: case-insensitively, the last one winning.
func referenceGuard(line []byte) float64 {
	msg := bytes.TrimSpace(line)
	switch {
	case len(msg) == 0:
		return 0
	case !json.Valid(msg):
		return -32700
	case msg[0] != '{':
		return -32600
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(msg, &obj); err != nil {
		return -32600
	}
	var id, method json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.Token() // {
	for dec.More() {
		tok, _ := dec.Token()
		key, _ := tok.(string)
		var v json.RawMessage
		dec.Decode(&v)
		switch {
		case strings.EqualFold(key, "id"):
			id = v
		case strings.EqualFold(key, "method"):
			method = v
		}
	}
	switch {
	case id == nil && method == nil:
		return -32600
	case id != nil && !(id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9') || string(id) == "null"):
		return -32600
	case !utf8.Valid(id):
		return -32600
	case method != nil && method[0] != '"' && string(method) != "null":
		return -32600
	}
	return 0
}
