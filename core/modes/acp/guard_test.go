package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/modes/acp/lineguard"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// Lines the library cannot take get JSON-RPC errors and the connection
// goes on: a message over the library's 10 MB line limit used to end the
// connection (and gopi acp with it), and invalid JSON, batches and objects
// with neither method nor id went unanswered (and an object id was
// echoed); an id of bytes that are not UTF-8 was echoed as they were (not
// JSON text), and a method that is not a string left a request unanswered.
func TestHostileLinesAreAnswered(t *testing.T) {
	t.Parallel()
	toAgent, editorOut := io.Pipe()
	editorIn, fromAgent := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), toAgent, fromAgent, Options{Environ: []string{"HOME=" + t.TempDir()}, Log: testLog{t, nil}})
		fromAgent.Close()
	}()
	replies := make(chan map[string]any, 16)
	go func() {
		sc := bufio.NewScanner(editorIn)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil || !utf8.Valid(sc.Bytes()) {
				t.Errorf("gopi wrote a line that is not JSON: %q", sc.Text())
				continue
			}
			replies <- m
		}
		close(replies)
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(editorOut, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		t.Helper()
		m, ok := testwait.Recv(t, "a reply", replies)
		if !ok {
			t.Fatal("the connection ended")
		}
		return m
	}
	errorOf := func(m map[string]any) (id any, code float64, msg string) {
		e, _ := m["error"].(map[string]any)
		if e == nil {
			t.Fatalf("not an error: %v", m)
		}
		c, _ := e["code"].(float64)
		s, _ := e["message"].(string)
		return m["id"], c, s
	}

	huge := `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"text","text":"` + strings.Repeat("x", lineguard.MaxLine) + `"}]}}`
	for _, tc := range []struct {
		line string
		id   any
		code float64
		text string
	}{
		{`{not json`, nil, -32700, "Parse error"},
		{`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`, nil, -32600, "JSON object"},
		{`{"jsonrpc":"2.0"}`, nil, -32600, `neither "method" nor "id"`},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"initialize","params":{"protocolVersion":1}}`, nil, -32600, `"id" must be`},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"session/list\",\"params\":{}}", nil, -32600, "not UTF-8"},
		{`{"jsonrpc":"2.0","id":9,"method":5}`, nil, -32600, `"method" must be a string`},
		{huge, float64(7), -32600, "more than the 10485760 gopi acp reads"},
	} {
		send(tc.line)
		id, code, msg := errorOf(next())
		if id != tc.id || code != tc.code || !strings.Contains(msg, tc.text) {
			t.Errorf("%.40s…: id %v, code %v, %q", tc.line, id, code, msg)
		}
	}
	// The connection is still up.
	send(`{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	if m := next(); m["id"] != float64(8) || m["result"] == nil {
		t.Fatalf("initialize after the hostile lines: %v", m)
	}
	editorOut.Close()
	testwait.Recv(t, "Serve to return after the input closed", done)
}
