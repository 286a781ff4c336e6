package agentrig

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/sdk/rpcclient"
)

// frameWait bounds the wait for a frame: long enough for a 10 MB prompt
// under the race detector on a loaded machine (it only stops a hung test).
const frameWait = 2 * time.Minute

// RPC is an RPC server running in-process against the rig's mock, with a
// client and the transcript: commands in ("> "), frames out ("< "),
// message_update frames counted rather than kept (their number depends on
// how deltas merge).
type RPC struct {
	*Rig
	C     *rpcclient.Client // the host's client
	Stdin *io.PipeWriter    // the server's standard input (close it to end the server)
	Exit  chan int          // the server's exit status, once it ends
	// NoRecord turns the transcript off (benchmarks).
	NoRecord bool

	mu     sync.Mutex
	lines  []string
	update int
}

// StartRPC runs serve — an RPC server reading commands from in and
// writing frames to out until in closes, returning its exit status — and
// connects a client to it; it fails the test when no ready frame comes.
func (r *Rig) StartRPC(serve func(in io.Reader, out io.Writer) int) *RPC {
	t := r.T
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	rr := &RPC{Rig: r, Stdin: inW, Exit: make(chan int, 1)}
	go func() {
		code := serve(inR, outW)
		outW.Close()
		rr.Exit <- code
	}()
	rr.C = rpcclient.New(io.TeeReader(outR, rr), &recordingWriter{rig: rr, w: inW})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("transcript so far:\n%s", rr.Transcript())
		}
	})
	select {
	case <-rr.C.Ready():
	case <-time.After(frameWait):
		t.Fatal("no ready frame")
	}
	return rr
}

// Write records frames from gopi (the TeeReader feeds whole chunks; frames
// are split at newlines). Benchmarks turn recording off.
func (rr *RPC) Write(p []byte) (int, error) {
	if rr.NoRecord {
		return len(p), nil
	}
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, `{"type":"message_update"`) {
			rr.update++
			continue
		}
		rr.flushUpdates()
		rr.lines = append(rr.lines, "< "+line)
	}
	return len(p), nil
}

func (rr *RPC) flushUpdates() {
	if rr.update > 0 {
		rr.lines = append(rr.lines, "< (message_update frames)")
		rr.update = 0
	}
}

// recordingWriter records commands sent to gopi.
type recordingWriter struct {
	rig *RPC
	w   io.WriteCloser
}

func (w *recordingWriter) Write(p []byte) (int, error) {
	w.rig.mu.Lock()
	w.rig.flushUpdates()
	w.rig.lines = append(w.rig.lines, "> "+strings.TrimRight(string(p), "\n"))
	w.rig.mu.Unlock()
	return w.w.Write(p)
}

func (w *recordingWriter) Close() error { return w.w.Close() }

// Raw sends a line as is.
func (rr *RPC) Raw(line string) {
	rr.mu.Lock()
	rr.flushUpdates()
	rr.lines = append(rr.lines, "> "+line)
	rr.mu.Unlock()
	io.WriteString(rr.Stdin, line+"\n")
}

// Expect starts waiting for a frame; the returned function waits for it.
func (rr *RPC) Expect(types ...string) func() rpcclient.Frame {
	e := rr.C.Expect(types...)
	return func() rpcclient.Frame {
		rr.T.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), frameWait)
		defer cancel()
		f, err := e.Wait(ctx)
		if err != nil {
			rr.T.Fatalf("waiting for %v: %v", types, err)
		}
		return f
	}
}

// Call sends a command and returns its response, failing the test when
// none comes.
func (rr *RPC) Call(typ string, fields map[string]any) *rpcclient.Response {
	rr.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), frameWait)
	defer cancel()
	r, err := rr.C.Call(ctx, typ, fields)
	if r == nil {
		rr.T.Fatalf("%s: %v", typ, err)
	}
	return r
}

var (
	rpcPort      = regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
	rpcSystem    = regexp.MustCompile(`"systemPrompt":"(?:[^"\\]|\\.)*"`)
	rpcDumpTools = regexp.MustCompile(`"dumpTools":\[.*?\]\}(,|\})`)
	rpcSession   = regexp.MustCompile(`"(sessionFile|sessionId|entryId)":"[^"]*"`)
	rpcMessages  = regexp.MustCompile(`"data":\{"messages":\[.*\]\}\}$`)
)

// Transcript returns the normalised transcript.
func (rr *RPC) Transcript() string {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.flushUpdates()
	out := make([]string, len(rr.lines))
	for i, l := range rr.lines {
		l = strings.ReplaceAll(l, rr.Project, "$WORK")
		l = rpcPort.ReplaceAllString(l, "http://127.0.0.1:PORT")
		l = rpcSystem.ReplaceAllString(l, `"systemPrompt":"…"`)
		l = rpcDumpTools.ReplaceAllString(l, `"dumpTools":[…]}$1`)
		l = rpcSession.ReplaceAllString(l, `"$1":"…"`)
		if strings.Contains(l, `"command":"get_messages"`) {
			n := strings.Count(l, `"role":`)
			l = rpcMessages.ReplaceAllString(l, fmt.Sprintf(`"data":{"messages":[%d messages]}}`, n))
		}
		out[i] = NormalizeEvents(l)
	}
	return strings.Join(out, "\n") + "\n"
}

// Lines returns the transcript's lines as recorded so far, without
// normalisation ("> " commands, "< " frames; message_update frames not
// yet counted into a line are left out).
func (rr *RPC) Lines() []string {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return append([]string(nil), rr.lines...)
}
