package share

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// pipeServer is a Transport whose other end the test plays as the server.
type pipeServer struct {
	toServer   *io.PipeReader // what the mux wrote
	fromMux    *io.PipeWriter
	toMux      *io.PipeReader // what the test writes as the server
	fromServer *io.PipeWriter
	done       chan struct{}
	once       sync.Once
}

func newPipeServer() *pipeServer {
	p := &pipeServer{done: make(chan struct{})}
	p.toServer, p.fromMux = io.Pipe()
	p.toMux, p.fromServer = io.Pipe()
	return p
}

func (p *pipeServer) Read(b []byte) (int, error)  { return p.toMux.Read(b) }
func (p *pipeServer) Write(b []byte) (int, error) { return p.fromMux.Write(b) }
func (p *pipeServer) Close() error                { p.Kill(); return nil }
func (p *pipeServer) Done() <-chan struct{}       { return p.done }
func (p *pipeServer) Err() error                  { return nil }
func (p *pipeServer) Kill() {
	p.once.Do(func() {
		p.fromServer.Close()
		p.toServer.Close()
		close(p.done)
	})
}

var _ lsp.Transport = (*pipeServer)(nil)

// testConn is a connection registered with the mux without a socket.
func testConn(m *mux) *conn {
	c, ok := m.attach(nopRW{})
	if !ok {
		panic("the mux takes no connection")
	}
	return c
}

type nopRW struct{}

func (nopRW) Read([]byte) (int, error)    { return 0, io.EOF }
func (nopRW) Write(b []byte) (int, error) { return len(b), nil }
func (nopRW) Close() error                { return nil }

func newTestMux(t *testing.T) (*mux, *pipeServer) {
	p := newPipeServer()
	go io.Copy(io.Discard, p.toServer) // the server reads everything
	m := newMux("test", "/w", p, nil)
	t.Cleanup(func() { m.end(nil) })
	return m, p
}

func notify(t *testing.T, method string, params any) *message {
	b, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	return &message{Method: method, Params: b}
}

// Versions in workspace edits and published diagnostics are translated
// into each connection's own: the server's current version becomes the
// connection's, an older one -1, a document the connection has not open
// stays as it is.
func TestVersionsTranslated(t *testing.T) {
	m, _ := newTestMux(t)
	a, b := testConn(m), testConn(m)
	const uri = "file:///w/a.go"
	open := func(c *conn, v int, text string) {
		m.fromConn(c, notify(t, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": v, "text": text}}))
	}
	open(a, 7, "one") // server version 1
	open(b, 3, "two") // different text: server version 2
	open(a, 8, "two") // a catches up: the same text, no change sent
	m.mu.Lock()
	defer m.mu.Unlock()
	if d := m.st.docs[uri]; d.version != 2 || d.openBy[a] != 8 || d.openBy[b] != 3 {
		t.Fatalf("document state: %+v", d)
	}
	edit := `{"changes":{},"documentChanges":[{"textDocument":{"uri":"file:///w/a.go","version":2},"edits":[]},` +
		`{"textDocument":{"uri":"file:///w/a.go","version":1},"edits":[]},{"textDocument":{"uri":"file:///w/other.go","version":2},"edits":[]}]}`
	var got struct {
		DocumentChanges []struct {
			TextDocument protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
		} `json:"documentChanges"`
	}
	if err := json.Unmarshal(m.rewriteVersionsLocked(json.RawMessage(edit), a), &got); err != nil {
		t.Fatal(err)
	}
	var versions []int
	for _, dc := range got.DocumentChanges {
		versions = append(versions, *dc.TextDocument.Version)
	}
	if len(versions) != 3 || versions[0] != 8 || versions[1] != -1 || versions[2] != 2 {
		t.Fatalf("versions for a: %v", versions)
	}
	plain := json.RawMessage(`{"contents":"no edits here"}`)
	if string(m.rewriteVersionsLocked(plain, a)) != string(plain) {
		t.Fatal("a result without edits was changed")
	}
	two := 2
	params, _ := json.Marshal(map[string]any{"uri": uri, "version": 2, "diagnostics": []any{}})
	var pub struct{ Version int }
	_ = json.Unmarshal(m.diagnosticsFor(b, uri, published{params, &two}), &pub)
	if pub.Version != 3 {
		t.Fatalf("b sees diagnostics of version %d, want its own 3", pub.Version)
	}
}

// A document closed by one connection stays open at the server for the
// other; it is closed there when the last one closes it or goes.
func TestDocumentsCountedOpen(t *testing.T) {
	m, _ := newTestMux(t)
	a, b := testConn(m), testConn(m)
	const uri = "file:///w/a.go"
	for _, c := range []*conn{a, b} {
		m.fromConn(c, notify(t, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": "x"}}))
	}
	m.fromConn(a, notify(t, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}}))
	m.mu.Lock()
	d := m.st.docs[uri]
	m.mu.Unlock()
	if d == nil || len(d.openBy) != 1 {
		t.Fatalf("after one close: %+v", d)
	}
	m.mu.Lock()
	m.closeDocLocked(b, uri)
	_, still := m.st.docs[uri]
	m.mu.Unlock()
	if still {
		t.Fatal("the document stayed open at the server after the last close")
	}
}

// A second initialize is answered from the first one's result without
// reaching the server; shutdown is answered by the mux.
func TestInitializeAnsweredOnce(t *testing.T) {
	p := newPipeServer()
	m := newMux("test", "/w", p, nil)
	t.Cleanup(func() { m.end(nil) })
	serverIn := bufio.NewReader(p.toServer)
	c1, c2 := net.Pipe()
	c, _ := m.attach(c2)
	go m.serve(c, bufio.NewReader(c2))
	defer c1.Close()
	clientIn := bufio.NewReader(c1)
	send := func(msg message) {
		b, _ := json.Marshal(msg)
		if err := codec.WriteObject(c1, json.RawMessage(b)); err != nil {
			t.Fatal(err)
		}
	}
	send(message{ID: json.RawMessage("1"), Method: "initialize", Params: json.RawMessage(`{"processId":1}`)})
	init, err := readMessage(serverIn)
	if err != nil || init.Method != "initialize" || !strings.Contains(string(init.Params), `"processId":`) {
		t.Fatalf("server got %+v %v", init, err)
	}
	var params struct{ ProcessID int }
	_ = json.Unmarshal(init.Params, &params)
	if params.ProcessID != os.Getpid() {
		t.Fatalf("processId %d, want the host's %d", params.ProcessID, os.Getpid())
	}
	b, _ := json.Marshal(message{ID: init.ID, Result: json.RawMessage(`{"capabilities":{"hoverProvider":true}}`)})
	go codec.WriteObject(p.fromServer, json.RawMessage(b))
	ans, err := readMessage(clientIn)
	if err != nil || string(ans.ID) != "1" || !strings.Contains(string(ans.Result), "hoverProvider") {
		t.Fatalf("first initialize answered %+v %v", ans, err)
	}
	send(message{ID: json.RawMessage(`"again"`), Method: "initialize", Params: json.RawMessage(`{}`)})
	ans, err = readMessage(clientIn)
	if err != nil || string(ans.ID) != `"again"` || !strings.Contains(string(ans.Result), "hoverProvider") {
		t.Fatalf("second initialize answered %+v %v", ans, err)
	}
	send(message{ID: json.RawMessage("2"), Method: "shutdown"})
	ans, err = readMessage(clientIn)
	if err != nil || string(ans.ID) != "2" || string(ans.Result) != "null" {
		t.Fatalf("shutdown answered %+v %v", ans, err)
	}
}

// A share directory others can enter is not used: the server is this
// process's own, and nothing is created in it.
func TestOpenDirectoryNotUsed(t *testing.T) {
	root, _, marker := workspace(t)
	dir := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var logged []string
	s := fakeServer(t)
	m := lsp.NewManager(lsp.ManagerOptions{
		Root: root, Config: nil, Builtins: []*lsp.Server{s},
		Dial: Dial(Options{Dir: dir, Env: append(lsptest.Env(lsptest.FakeOK), markerEnv+"="+marker), Log: func(l string) { logged = append(logged, l) }}),
	})
	defer m.Close()
	if _, _, err := m.Client(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 || len(logged) != 1 || !strings.Contains(logged[0], "other users") {
		t.Fatalf("entries %v, log %q", ents, logged)
	}
}

// A socket left by a host that died (nobody holds its lock) is replaced.
func TestStaleSocketReplaced(t *testing.T) {
	root, dir, marker := workspace(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s := fakeServer(t)
	sock, _ := paths(dir, Key(s, root))
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	m := newManager(root, dir, marker, s)
	defer m.Close()
	if _, _, err := m.Client(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if n := len(fakes(t, marker)); n != 1 {
		t.Fatalf("%d servers", n)
	}
}

// The server's requests reach a connection and its answer the server:
// workspace/applyEdit through the shared stream to the client's handler.
func TestServerRequestRoutedToClient(t *testing.T) {
	root, dir, marker := workspace(t)
	s := fakeServer(t)
	m := newManager(root, dir, marker, s)
	defer m.Close()
	other := newManager(root, dir, marker, s)
	defer other.Close()
	ctx := context.Background()
	if _, _, err := other.Client(ctx, s); err != nil {
		t.Fatal(err)
	}
	c, _, err := m.Client(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	var res protocol.ApplyWorkspaceEditResult
	if err := c.Request(ctx, "test/applyEdit", nil, &res); err != nil {
		t.Fatal(err)
	}
	if res.Applied || !strings.Contains(res.FailureReason, "applies no edits") {
		t.Fatalf("answer %+v: not the asking client's", res)
	}
}

// Sockets and locks left by hosts that died are removed; a live host's
// stay.
func TestSweepStale(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"dead.lock", "dead.sock", "live.lock", "live.sock"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	live, ok, err := tryLock(filepath.Join(dir, "live.lock"))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	defer live.Close()
	sweepStale(dir)
	var left []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "live.lock live.sock" {
		t.Fatalf("left %v", left)
	}
}

// Servers are shared only when program, arguments, options, settings and
// root all agree; the socket path stays short.
func TestKey(t *testing.T) {
	base := &lsp.Server{Name: "gopls", Command: "gopls", Path: "/bin/gopls", Args: []string{"serve"}}
	k := Key(base, "/w")
	if k != Key(&lsp.Server{Name: "other name", Command: "gopls", Path: "/bin/gopls", Args: []string{"serve"}}, "/w/") {
		t.Fatal("the same program and root got another key")
	}
	for _, s := range []*lsp.Server{
		{Path: "/usr/bin/gopls", Args: []string{"serve"}},
		{Path: "/bin/gopls"},
		{Path: "/bin/gopls", Args: []string{"serve"}, InitOptions: []byte(`{"a":1}`)},
		{Path: "/bin/gopls", Args: []string{"serve"}, Settings: map[string]any{"gopls": map[string]any{"x": true}}},
	} {
		if Key(s, "/w") == k {
			t.Fatalf("%+v shares the key of %+v", s, base)
		}
	}
	if Key(base, "/v") == k {
		t.Fatal("another root shares the key")
	}
	sock, lock := paths("/run/user/1000/gopi-lsp", k)
	if len(sock) > 100 || filepath.Dir(lock) != "/run/user/1000/gopi-lsp" {
		t.Fatalf("paths %s %s", sock, lock)
	}
}
