package share

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// FuzzMuxMessages feeds the mux arbitrary messages from two connections
// and the server: whatever arrives, it does not panic, and its document
// table stays consistent (every document is open by someone, and each
// connection's open set matches it).
func FuzzMuxMessages(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"method":"initialize","params":{}}` + "\n" + `S{"id":1,"result":{"capabilities":{}}}`,
		`{"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","version":1,"text":"x"}}}` + "\n" +
			`B{"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a","version":4,"text":"y"}}}` + "\n" +
			`S{"method":"textDocument/publishDiagnostics","params":{"uri":"file:///a","version":2,"diagnostics":[]}}`,
		`{"method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a","version":2},"contentChanges":[{"range":{},"text":"z"}]}}`,
		`{"id":"q","method":"textDocument/rename","params":{}}` + "\n" + `S{"id":1,"result":{"documentChanges":[{"textDocument":{"uri":"file:///a","version":1},"edits":[]}]}}`,
		`S{"id":7,"method":"workspace/applyEdit","params":{"edit":{"documentChanges":[{"textDocument":{"uri":"file:///a","version":1}}]}}}` + "\n" + `{"id":"gopi-share-1","result":{"applied":true}}`,
		`S{"method":"$/progress","params":{"token":1,"value":{"kind":"begin"}}}` + "\n" + `S{"method":"$/progress","params":{"token":1,"value":{"kind":"end"}}}`,
		`{"method":"$/cancelRequest","params":{"id":"q"}}` + "\n" + `{"method":"exit"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// A mux without a server process or timers: only the routing runs.
		m := &mux{
			name: "fuzz", root: "/w", done: make(chan struct{}), conns: map[*conn]bool{}, gone: map[int64]chan struct{}{},
			rt: routes{pending: map[int64]pendingCall{}, outgoing: map[string]serverCall{}},
			st: serverState{docs: map[string]*sharedDoc{}, diags: map[string]published{}, progress: map[string]bool{}},
		}
		m.srv = newOutbox(io.Discard, nil)
		a, b := testConn(m), testConn(m)
		defer func() {
			for _, o := range []*outbox{m.srv, a.out, b.out} {
				o.close()
			}
		}()
		for _, line := range bytes.Split(data, []byte("\n")) {
			from := a
			switch {
			case bytes.HasPrefix(line, []byte("S")):
				var msg message
				if json.Unmarshal(line[1:], &msg) == nil {
					m.fromServer(&msg)
				}
				continue
			case bytes.HasPrefix(line, []byte("B")):
				from, line = b, line[1:]
			}
			var msg message
			if json.Unmarshal(line, &msg) == nil {
				m.fromConn(from, &msg)
			}
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		for uri, d := range m.st.docs {
			if len(d.openBy) == 0 {
				t.Fatalf("%s is open at the server for nobody", uri)
			}
			for c := range d.openBy {
				if !c.docs[uri] {
					t.Fatalf("%s: a connection in openBy does not list it", uri)
				}
			}
		}
		for _, c := range []*conn{a, b} {
			for uri := range c.docs {
				if d := m.st.docs[uri]; d == nil || !hasConn(d, c) {
					t.Fatalf("%s: listed by a connection, not open for it at the server", uri)
				}
			}
		}
	})
}

func hasConn(d *sharedDoc, c *conn) bool { _, ok := d.openBy[c]; return ok }
