package daptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"

	godap "github.com/google/go-dap"
)

// FakeEnv is the variable that turns a test binary into the fake adapter
// (see RunFakeIfAsked); its value is the mode.
const FakeEnv = "GOPI_FAKE_DAP"

// Fake modes.
const (
	FakeOK      = "ok"      // a small working adapter (see serveOK)
	FakeCrash   = "crash"   // exits with an error message at the first request
	FakeHang    = "hang"    // answers initialize, then nothing
	FakeGarbage = "garbage" // answers the first request with bytes that are not DAP framing
	FakeNoInit  = "noinit"  // never answers initialize
)

// FakeCommand returns the command (this test binary) and environment that
// run the fake adapter in mode.
func FakeCommand(mode string) (string, []string) {
	exe, _ := os.Executable()
	return exe, append(os.Environ(), FakeEnv+"="+mode)
}

// RunFakeIfAsked runs the fake adapter and exits when the process was
// started as one; TestMain calls it first.
func RunFakeIfAsked() {
	mode := os.Getenv(FakeEnv)
	if mode == "" {
		return
	}
	os.Exit(serve(mode))
}

type fake struct {
	r   *bufio.Reader
	seq int
}

func (f *fake) send(v map[string]any) {
	f.seq++
	v["seq"] = f.seq
	b, _ := json.Marshal(v)
	_ = godap.WriteBaseMessage(os.Stdout, b)
}

func (f *fake) respond(req map[string]any, body any) {
	f.send(map[string]any{"type": "response", "request_seq": req["seq"], "command": req["command"], "success": true, "body": body})
}

func (f *fake) event(name string, body any) {
	f.send(map[string]any{"type": "event", "event": name, "body": body})
}

func (f *fake) next() (map[string]any, bool) {
	b, err := godap.ReadBaseMessage(f.r)
	if err != nil {
		return nil, false
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil, false
	}
	return m, true
}

func serve(mode string) int {
	f := &fake{r: bufio.NewReader(os.Stdin)}
	for {
		req, ok := f.next()
		if !ok {
			return 0
		}
		if req["type"] != "request" {
			continue
		}
		cmd, _ := req["command"].(string)
		switch mode {
		case FakeCrash:
			fmt.Fprintln(os.Stderr, "fake adapter: cannot start the debugger")
			return 3
		case FakeHang:
			if cmd == "initialize" {
				f.respond(req, map[string]any{"supportsConfigurationDoneRequest": true})
			}
		case FakeGarbage:
			os.Stdout.WriteString("this is not DAP\r\n\r\n")
		case FakeNoInit:
		case FakeOK:
			if f.serveOK(req, cmd) {
				return 0
			}
		}
	}
}

// serveOK answers one request of the working fake: a program stopped on
// entry in main.go:3 of thread 1, with one local x = 42; continue prints
// "hello from the fake" and ends it. Launch asks gopi to start a
// "debuggee" (sleep) through runInTerminal and starts another itself in
// a session of its own, as real adapters do, so tests can check that
// nothing survives terminate. The request "crash" makes it exit with an
// error message.
func (f *fake) serveOK(req map[string]any, cmd string) (exit bool) {
	switch cmd {
	case "initialize":
		f.respond(req, map[string]any{"supportsConfigurationDoneRequest": true, "supportsTerminateRequest": false})
		f.event("initialized", nil)
	case "launch":
		f.send(map[string]any{"type": "request", "command": "runInTerminal",
			"arguments": map[string]any{"kind": "integrated", "args": []string{"sleep", "300"}}})
		own := exec.Command("sleep", "301")
		ownSession(own)
		_ = own.Start()
		f.respond(req, nil)
	case "configurationDone":
		f.respond(req, nil)
		f.event("stopped", map[string]any{"reason": "entry", "threadId": 1})
	case "threads":
		f.respond(req, map[string]any{"threads": []any{map[string]any{"id": 1, "name": "main"}}})
	case "stackTrace":
		f.respond(req, map[string]any{"stackFrames": []any{map[string]any{"id": 7, "name": "main.main", "line": 3, "column": 1,
			"source": map[string]any{"name": "main.go", "path": "/src/main.go"}}}, "totalFrames": 1})
	case "scopes":
		f.respond(req, map[string]any{"scopes": []any{map[string]any{"name": "Locals", "variablesReference": 100, "expensive": false}}})
	case "variables":
		f.respond(req, map[string]any{"variables": []any{map[string]any{"name": "x", "value": "42", "type": "int", "variablesReference": 0}}})
	case "evaluate":
		f.respond(req, map[string]any{"result": "43", "type": "int", "variablesReference": 0})
	case "setBreakpoints":
		args, _ := req["arguments"].(map[string]any)
		bps, _ := args["breakpoints"].([]any)
		out := []any{}
		for i, b := range bps {
			line := b.(map[string]any)["line"]
			out = append(out, map[string]any{"id": i + 1, "verified": true, "line": line})
		}
		f.respond(req, map[string]any{"breakpoints": out})
	case "continue":
		f.respond(req, map[string]any{"allThreadsContinued": true})
		f.event("output", map[string]any{"category": "stdout", "output": "hello from the fake\n"})
		f.event("exited", map[string]any{"exitCode": 0})
		f.event("terminated", nil)
	case "next", "stepIn", "stepOut":
		f.respond(req, nil)
		f.event("stopped", map[string]any{"reason": "step", "threadId": 1})
	case "crash": // a custom request that makes the adapter die mid-session
		fmt.Fprintln(os.Stderr, "fake adapter: crashed on request")
		os.Exit(4)
	case "disconnect":
		f.respond(req, nil)
		return false // keeps running: the client must end it
	default:
		f.send(map[string]any{"type": "response", "request_seq": req["seq"], "command": cmd, "success": false,
			"message": "fake adapter: unsupported request " + cmd})
	}
	return false
}
