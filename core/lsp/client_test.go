package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
)

func TestMain(m *testing.M) {
	lsptest.RunFakeIfAsked()
	os.Exit(m.Run())
}

var _ tool.Diagnoser = (*Manager)(nil)

// fakeWorkspace is a root with a marker and the fake server handling
// .txt files, run in mode.
func fakeWorkspace(t *testing.T, mode string, opts ManagerOptions) (*Manager, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "fake.marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts.Root = root
	opts.Builtins = []*Server{{Name: "fake", Command: exe, FileTypes: []string{".txt"}, RootMarkers: []string{"fake.marker"}}}
	opts.Dial = Spawn(lsptest.Env(mode))
	if opts.ProjectLoadTimeout == 0 {
		opts.ProjectLoadTimeout = time.Millisecond // the fake reports no progress
	}
	m := NewManager(opts)
	t.Cleanup(func() { m.Close() })
	return m, root
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Diagnostics follow the file on disk: a fresh request after each write
// sees the server's answer for that content, Known returns it without
// waiting, and a byte order mark is not sent.
func TestFreshDiagnosticsFollowTheFile(t *testing.T) {
	m, root := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{})
	p := filepath.Join(root, "a.txt")
	write(t, p, "\xef\xbb\xbfBAD\nfine\nBAD too\n")
	ctx := context.Background()
	d, servers, err := m.Fresh(ctx, p)
	if err != nil || len(servers) != 1 || servers[0] != "fake" || len(d) != 2 || d[0].Message != "bad thing" || d[0].Range.Start.Line != 0 {
		t.Fatalf("Fresh = %+v %v %v", d, servers, err)
	}
	if k := m.Known(p); len(k) != 2 {
		t.Fatalf("Known = %+v", k)
	}
	write(t, p, "all fine\n")
	if d, _, err := m.Fresh(ctx, p); err != nil || len(d) != 0 {
		t.Fatalf("after the fix: %+v %v", d, err)
	}
	// Unchanged content: the cached answer, nothing sent.
	if d, _, err := m.Fresh(ctx, p); err != nil || len(d) != 0 {
		t.Fatalf("unchanged: %+v %v", d, err)
	}
	if k := m.Known(filepath.Join(root, "other.go")); k != nil {
		t.Fatalf("a file no server handles: %+v", k)
	}
	if d, s, err := m.Fresh(ctx, filepath.Join(root, "x.go")); d != nil || s != nil || err != nil {
		t.Fatalf("no server: %v %v %v", d, s, err)
	}
}

// One client per server and root, however many callers.
func TestOneClientPerServer(t *testing.T) {
	m, root := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{})
	s := m.Servers().List[0]
	ctx := context.Background()
	got := make(chan *Client, 8)
	for range 8 {
		go func() {
			c, _, err := m.Client(ctx, s)
			if err != nil {
				t.Error(err)
			}
			got <- c
		}()
	}
	first := <-got
	for range 7 {
		if c := <-got; c != first {
			t.Fatal("two clients for one server")
		}
	}
	if n := len(m.Running()); n != 1 {
		t.Fatalf("%d running", n)
	}
	var echo map[string]string
	if err := first.Request(ctx, "test/echo", map[string]string{"a": "b"}, &echo); err != nil || echo["a"] != "b" {
		t.Fatalf("echo %v %v", echo, err)
	}
	_ = root
}

// A crashed server fails its pending request with its exit code and
// stderr, and the next call starts it again with a note.
func TestCrashRestartsWithNote(t *testing.T) {
	m, _ := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{})
	s := m.Servers().List[0]
	ctx := context.Background()
	c, note, err := m.Client(ctx, s)
	if err != nil || note != "" {
		t.Fatal(err, note)
	}
	err = c.Request(ctx, "test/crash", nil, nil)
	if err == nil || err.Error() != "LSP server exited (code 3): fatal: boom" {
		t.Fatalf("crash: %v", err)
	}
	c2, note, err := m.Client(ctx, s)
	if err != nil || c2 == c || !strings.Contains(note, "fake had stopped (LSP server exited (code 3): fatal: boom)") {
		t.Fatalf("restart: %v %q", err, note)
	}
	if _, note, _ := m.Client(ctx, s); note != "" {
		t.Fatalf("a second note: %q", note)
	}
}

// A server that never answers: the request's timeout names the method.
func TestHungServerTimesOut(t *testing.T) {
	m, _ := fakeWorkspace(t, lsptest.FakeHang, ManagerOptions{RequestTimeout: 50 * time.Millisecond})
	c, _, err := m.Client(context.Background(), m.Servers().List[0])
	if err != nil {
		t.Fatal(err)
	}
	err = c.Request(context.Background(), "textDocument/hover", nil, nil)
	if err == nil || err.Error() != "LSP request textDocument/hover timed out after 50ms" {
		t.Fatalf("hang: %v", err)
	}
	// The caller's deadline, when shorter, is the one named.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	c.opts.RequestTimeout = time.Hour
	err = c.Request(ctx, "textDocument/definition", nil, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "LSP request textDocument/definition timed out after ") {
		t.Fatalf("deadline: %v", err)
	}
	// The caller's cancellation is its own error.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if err := c.Request(ctx, "x", nil, nil); err != context.Canceled {
		t.Fatalf("cancel: %v", err)
	}
}

// A caller that gives up while a server starts leaves it starting: the
// next call gets the same server, started once.
func TestStartOutlivesImpatientCaller(t *testing.T) {
	m, _ := fakeWorkspace(t, lsptest.FakeSlow, ManagerOptions{})
	s := m.Servers().List[0]
	var dials atomic.Int32
	dial := m.opts.Dial
	m.opts.Dial = func(ctx context.Context, s *Server, root string) (Transport, error) {
		dials.Add(1)
		return dial(ctx, s, root)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := m.Client(ctx, s); err != context.Canceled {
		t.Fatalf("impatient: %v", err)
	}
	c, note, err := m.Client(context.Background(), s)
	if err != nil || note != "" {
		t.Fatalf("patient: %v %q", err, note)
	}
	if c2, _, _ := m.Client(context.Background(), s); c2 != c || dials.Load() != 1 {
		t.Fatalf("%d starts", dials.Load())
	}
}

// A request given up on is cancelled at the server, after a timeout as
// after the caller's cancellation.
func TestCancelRequestSent(t *testing.T) {
	m, _ := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{RequestTimeout: 20 * time.Millisecond})
	c, _, err := m.Client(context.Background(), m.Servers().List[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Request(context.Background(), "test/never", nil, nil); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("never: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the request still goes out; waiting for it ends at once
	c.opts.RequestTimeout = time.Hour
	if err := c.Request(ctx, "test/never", nil, nil); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
	var n int
	if err := c.Request(context.Background(), "test/cancels", nil, &n); err != nil || n != 2 {
		t.Fatalf("cancels %d %v", n, err)
	}
}

// A server's workspace/applyEdit goes to the injected function; without
// one it is refused with the reason.
func TestServerAppliesEdit(t *testing.T) {
	ctx := context.Background()
	m, _ := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{})
	c, _, err := m.Client(ctx, m.Servers().List[0])
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Applied       bool   `json:"applied"`
		FailureReason string `json:"failureReason"`
	}
	if err := c.Request(ctx, "test/applyEdit", nil, &reply); err != nil || reply.Applied || reply.FailureReason != noApplier {
		t.Fatalf("%+v %v", reply, err)
	}
	var got *protocol.WorkspaceEdit
	m2, _ := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{ApplyEdit: func(_ context.Context, _ *Client, p protocol.ApplyWorkspaceEditParams) protocol.ApplyWorkspaceEditResult {
		got = &p.Edit
		return protocol.ApplyWorkspaceEditResult{Applied: true}
	}})
	c2, _, err := m2.Client(ctx, m2.Servers().List[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := c2.Request(ctx, "test/applyEdit", nil, &reply); err != nil || !reply.Applied || got == nil {
		t.Fatalf("%+v %v %v", reply, err, got)
	}
}

// A server that never answers initialize fails to start, named.
func TestNoInitialize(t *testing.T) {
	m, _ := fakeWorkspace(t, lsptest.FakeNoInit, ManagerOptions{InitTimeout: 50 * time.Millisecond})
	_, _, err := m.Client(context.Background(), m.Servers().List[0])
	if err == nil || err.Error() != "language server fake failed to start: LSP request initialize timed out after 50ms" {
		t.Fatalf("%v", err)
	}
	if n := len(m.Running()); n != 0 {
		t.Fatalf("%d running", n)
	}
}

// Bytes that are not a message end the server; the call says so and the
// next one starts it again.
func TestGarbageFrame(t *testing.T) {
	m, _ := fakeWorkspace(t, lsptest.FakeGarbage, ManagerOptions{})
	s := m.Servers().List[0]
	c, _, err := m.Client(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Request(context.Background(), "textDocument/hover", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "sent a message gopi could not read") {
		t.Fatalf("garbage: %v", err)
	}
	<-c.Done()
	if _, note, err := m.Client(context.Background(), s); err != nil || !strings.Contains(note, "had stopped") {
		t.Fatalf("restart: %v %q", err, note)
	}
}

// Many diagnostics arrive whole (the tool caps what it shows).
func TestHugeDiagnostics(t *testing.T) {
	m, root := fakeWorkspace(t, lsptest.FakeHuge, ManagerOptions{})
	p := filepath.Join(root, "a.txt")
	write(t, p, "x\n")
	d, _, err := m.Fresh(context.Background(), p)
	if err != nil || len(d) != lsptest.HugeCount {
		t.Fatalf("%d %v", len(d), err)
	}
}

// Close ends every server process; calls after it fail.
func TestCloseEndsServers(t *testing.T) {
	m, _ := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{})
	c, _, err := m.Client(context.Background(), m.Servers().List[0])
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	<-c.Done()
	if _, _, err := m.Client(context.Background(), m.Servers().List[0]); err != ErrClosed {
		t.Fatalf("after Close: %v", err)
	}
}

// Idle servers stop by the manager's clock.
func TestIdleSweep(t *testing.T) {
	now := time.Unix(1000, 0)
	ms := 1000.0
	m, _ := fakeWorkspace(t, lsptest.FakeOK, ManagerOptions{
		Now:    func() time.Time { return now },
		Config: &config.LSPConfig{Enabled: true, Files: []config.LSPFile{{IdleTimeoutMs: &ms}}},
	})
	c, _, err := m.Client(context.Background(), m.Servers().List[0])
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Second)
	m.SweepIdle()
	if len(m.Running()) != 1 {
		t.Fatal("stopped before its time")
	}
	now = now.Add(time.Millisecond)
	m.SweepIdle()
	<-c.Done()
	if len(m.Running()) != 0 {
		t.Fatal("still running")
	}
}

// The server's requests are answered: configuration from its settings
// by section, progress tokens and registrations with null, the rest as
// unknown.
func TestServerRequests(t *testing.T) {
	c := &Client{opts: ClientOptions{Root: "/w", Server: &Server{Settings: map[string]any{
		"gopls":  map[string]any{"staticcheck": true},
		"python": map[string]any{"analysis": map[string]any{"mode": "x"}},
	}}}}
	got, rerr := c.handle("workspace/configuration", false, json.RawMessage(`{"items":[{"section":"gopls"},{"section":"python.analysis"},{"section":"nope"}]}`))
	b, _ := json.Marshal(got)
	if rerr != nil || string(b) != `[{"staticcheck":true},{"mode":"x"},{}]` {
		t.Fatalf("configuration: %s %v", b, rerr)
	}
	if r, rerr := c.handle("window/workDoneProgress/create", false, nil); r != nil || rerr != nil {
		t.Fatal(r, rerr)
	}
	if _, rerr := c.handle("custom/thing", false, nil); rerr == nil || rerr.Code != -32601 {
		t.Fatal(rerr)
	}
}

func TestDedupeSorts(t *testing.T) {
	r := func(l int) protocol.Range { return protocol.Range{Start: protocol.Position{Line: l}} }
	got := Dedupe([]protocol.Diagnostic{
		{Range: r(3), Severity: protocol.SeverityWarning, Message: "w"},
		{Range: r(5), Message: "e"},
		{Range: r(5), Severity: protocol.SeverityError, Message: "e"},
		{Range: r(1), Severity: protocol.SeverityHint, Message: "h"},
		{Range: r(2), Severity: protocol.SeverityError, Message: "e2"},
	})
	var msgs []string
	for _, d := range got {
		msgs = append(msgs, d.Message)
	}
	if strings.Join(msgs, ",") != "e2,e,w,h" {
		t.Fatal(msgs)
	}
}
