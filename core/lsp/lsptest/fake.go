package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// FakeEnv is the environment variable that makes the test binary a fake
// language server; its value is the mode.
const FakeEnv = "GOPI_LSPTEST_FAKE"

// Modes of the fake server.
const (
	FakeOK      = "ok"      // a working server (see fake.handle)
	FakeNoInit  = "noinit"  // never answers initialize
	FakeHang    = "hang"    // answers initialize, then nothing
	FakeGarbage = "garbage" // answers initialize, then any request with bytes that are not JSON
	FakeHuge    = "huge"    // publishes HugeCount diagnostics for every document
	FakeSlow    = "slow"    // answers initialize after SlowInit, then as FakeOK
)

// SlowInit is how long FakeSlow takes to answer initialize.
const SlowInit = 300 * time.Millisecond

// HugeCount is how many diagnostics FakeHuge publishes per document.
const HugeCount = 500

// Fake server behaviour in FakeOK mode:
//   - every opened or changed document gets diagnostics: one error for each
//     line containing "BAD" (message "bad thing", source "fake"), with the
//     document's version;
//   - textDocument/definition answers a LocationLink to line 1 of the same
//     file; textDocument/hover answers markdown "**hover** text";
//   - "test/crash" writes "fatal: boom" to stderr and exits with code 3;
//   - "test/echo" answers its params;
//   - "test/applyEdit" sends the client a workspace/applyEdit (an empty
//     edit labelled "fake") and answers with the client's reply;
//   - "test/never" is never answered; "test/cancels" answers how many
//     $/cancelRequest notifications arrived;
//   - the edit-producing methods are described in fakeedits.go;
//   - shutdown answers null, exit ends the process.

// Env returns the environment that runs the test binary as a fake in
// mode.
func Env(mode string) []string { return append(os.Environ(), FakeEnv+"="+mode) }

// RunFakeIfAsked serves as the fake language server and exits when
// FakeEnv is set; otherwise it returns at once.
func RunFakeIfAsked() {
	mode := os.Getenv(FakeEnv)
	if mode == "" {
		return
	}
	f := &fake{mode: mode, out: os.Stdout, versions: map[protocol.DocumentURI]int{}}
	stream := jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{})
	var h jsonrpc2.Handler = unanswered{jsonrpc2.HandlerWithError(f.handle), f}
	if mode == FakeHang {
		h = jsonrpc2.AsyncHandler(h) // the hung requests do not stop shutdown from being read
	}
	conn := jsonrpc2.NewConn(context.Background(), stream, h, jsonrpc2.SetLogger(nopLogger{}))
	<-conn.DisconnectNotify()
	os.Exit(0)
}

type nopLogger struct{}

func (nopLogger) Printf(string, ...any) {}

// stdio is the process's standard input and output as one stream.
type stdio struct{}

func (stdio) Read(b []byte) (int, error)  { return os.Stdin.Read(b) }
func (stdio) Write(b []byte) (int, error) { return os.Stdout.Write(b) }
func (stdio) Close() error                { return nil }

// unanswered leaves "test/never" without an answer and counts
// cancellations; the rest goes to the fake's handler.
type unanswered struct {
	jsonrpc2.Handler
	f *fake
}

func (u unanswered) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	switch req.Method {
	case "test/never":
		return
	case "test/applyEdit":
		// Ask the client to apply an edit and answer with its reply (apart
		// from the reader, which must read that reply).
		go func() {
			var reply json.RawMessage
			edit := map[string]any{"label": "fake", "edit": map[string]any{"changes": map[string]any{}}}
			if err := conn.Call(ctx, "workspace/applyEdit", edit, &reply); err != nil {
				_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()})
				return
			}
			_ = conn.Reply(ctx, req.ID, reply)
		}()
		return
	case "workspace/executeCommand":
		// Runs apart from the reader, which must read the client's reply
		// to the applyEdit it sends.
		go runCommand(ctx, conn, req)
		return
	case "$/cancelRequest":
		u.f.mu.Lock()
		u.f.cancels++
		u.f.mu.Unlock()
		return
	}
	u.Handler.Handle(ctx, conn, req)
}

type fake struct {
	cancels  int
	mode     string
	out      io.Writer
	mu       sync.Mutex
	versions map[protocol.DocumentURI]int
}

func (f *fake) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	if req.Method == "initialize" {
		if f.mode == FakeNoInit {
			select {} // never answer
		}
		if f.mode == FakeSlow {
			time.Sleep(SlowInit) // a server that takes its time to start
		}
		return map[string]any{"capabilities": map[string]any{
			"hoverProvider": true, "definitionProvider": true, "textDocumentSync": 1,
		}, "serverInfo": map[string]string{"name": "fake"}}, nil
	}
	if req.Method == "exit" {
		os.Exit(0)
	}
	if req.Method == "shutdown" {
		return nil, nil
	}
	switch f.mode {
	case FakeHang:
		if !req.Notif {
			select {}
		}
		return nil, nil
	case FakeGarbage:
		if !req.Notif {
			f.mu.Lock()
			fmt.Fprintf(os.Stdout, "Content-Length: 9\r\n\r\n{garbage}")
			f.mu.Unlock()
			select {}
		}
		return nil, nil
	}
	switch req.Method {
	case "textDocument/didOpen":
		var p struct {
			TextDocument protocol.TextDocumentItem `json:"textDocument"`
		}
		_ = json.Unmarshal(params, &p)
		f.publish(ctx, conn, p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
	case "textDocument/didChange":
		var p struct {
			TextDocument struct {
				URI     protocol.DocumentURI `json:"uri"`
				Version int                  `json:"version"`
			} `json:"textDocument"`
			ContentChanges []struct {
				Text string `json:"text"`
			} `json:"contentChanges"`
		}
		_ = json.Unmarshal(params, &p)
		if len(p.ContentChanges) > 0 {
			f.publish(ctx, conn, p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges[0].Text)
		}
	case "textDocument/definition":
		var p protocol.TextDocumentPositionParams
		_ = json.Unmarshal(params, &p)
		r := protocol.Range{Start: protocol.Position{Line: 0, Character: 0}, End: protocol.Position{Line: 0, Character: 4}}
		return []protocol.LocationLink{{TargetURI: p.TextDocument.URI, TargetRange: r, TargetSelectionRange: &r}}, nil
	case "textDocument/hover":
		return map[string]any{"contents": map[string]string{"kind": "markdown", "value": "**hover** text"}}, nil
	case "workspace/willRenameFiles", "textDocument/codeAction", "codeAction/resolve":
		return handleEdits(req.Method, params), nil
	case "test/crash":
		fmt.Fprintln(os.Stderr, "fatal: boom")
		os.Exit(3)
	case "test/echo":
		return params, nil
	case "test/cancels":
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.cancels, nil
	default:
		if !req.Notif {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "unhandled method " + req.Method}
		}
	}
	return nil, nil
}

// publish sends the document's diagnostics.
func (f *fake) publish(ctx context.Context, conn *jsonrpc2.Conn, uri protocol.DocumentURI, version int, text string) {
	var diags []protocol.Diagnostic
	if f.mode == FakeHuge {
		for i := range HugeCount {
			diags = append(diags, protocol.Diagnostic{Range: line(i), Severity: protocol.SeverityWarning, Message: fmt.Sprintf("warning %d", i), Source: "fake"})
		}
	}
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "BAD") {
			diags = append(diags, protocol.Diagnostic{Range: line(i), Severity: protocol.SeverityError, Message: "bad thing", Source: "fake"})
		}
	}
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	_ = conn.Notify(ctx, "textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: uri, Version: &version, Diagnostics: diags})
}

func line(i int) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: i}, End: protocol.Position{Line: i, Character: 3}}
}
