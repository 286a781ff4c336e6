// Package diagtest is a scripted tool.Diagnoser for tests of the file
// tools' diagnostics: per file, a queue of answers that come at once,
// when the test releases them, never (until the caller gives up), or as
// an error; every Fresh call is reported on a channel as it begins, with
// a channel closed when it returns.
package diagtest

import (
	"context"
	"sync"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// Answer is one scripted answer of Fresh.
type Answer struct {
	Diags    []protocol.Diagnostic
	Servers  []string        // the servers that answered; nil: "fake"
	Err      error           // returned with the diagnostics
	Release  <-chan struct{} // set: answer once it is closed (or the caller gives up first)
	Never    bool            // answer only when the caller gives up
	NoServer bool            // no server handles the file: no servers, no error
}

// Call is one Fresh call.
type Call struct {
	Path  string
	Ended chan struct{} // closed when Fresh returned
	Err   error         // what it returned (read after Ended)
}

// Fake is the scripted Diagnoser. A file without a script is handled by
// no server.
type Fake struct {
	mu      sync.Mutex
	known   map[string][]protocol.Diagnostic
	answers map[string][]Answer
	replay  map[string]bool // the one answer left of a file has been played and repeats
	calls   chan *Call
}

// New returns a Fake without scripts; up to 64 calls wait on Calls.
func New() *Fake {
	return &Fake{known: map[string][]protocol.Diagnostic{}, answers: map[string][]Answer{}, replay: map[string]bool{}, calls: make(chan *Call, 64)}
}

// SetKnown sets what Known returns for abs.
func (f *Fake) SetKnown(abs string, diags ...protocol.Diagnostic) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.known[abs] = diags
}

// Script queues answers for the next Fresh calls of abs, one per call.
// The last one repeats for further calls until Script is called again.
func (f *Fake) Script(abs string, answers ...Answer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.replay[abs] {
		f.answers[abs], f.replay[abs] = nil, false
	}
	f.answers[abs] = append(f.answers[abs], answers...)
}

// Calls delivers each Fresh call as it begins.
func (f *Fake) Calls() <-chan *Call { return f.calls }

// Known returns what SetKnown set, or what the last answer of abs
// published.
func (f *Fake) Known(abs string) []protocol.Diagnostic {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.known[abs]
}

// Fresh plays the next scripted answer of abs.
func (f *Fake) Fresh(ctx context.Context, abs string) ([]protocol.Diagnostic, []string, error) {
	f.mu.Lock()
	q := f.answers[abs]
	var a Answer
	switch {
	case len(q) == 0:
		a.NoServer = true
	case len(q) == 1:
		a, f.replay[abs] = q[0], true
	default:
		a, f.answers[abs] = q[0], q[1:]
	}
	f.mu.Unlock()
	c := &Call{Path: abs, Ended: make(chan struct{})}
	select {
	case f.calls <- c:
	default:
	}
	defer close(c.Ended)
	if a.NoServer {
		return nil, nil, nil
	}
	wait := a.Release
	if a.Never {
		wait = make(chan struct{})
	}
	if wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
			c.Err = ctx.Err()
			return nil, nil, c.Err
		}
	}
	servers := a.Servers
	if servers == nil {
		servers = []string{"fake"}
	}
	if a.Err == nil {
		f.mu.Lock()
		f.known[abs] = a.Diags
		f.mu.Unlock()
	}
	c.Err = a.Err
	return a.Diags, servers, a.Err
}

// Diag returns a diagnostic at a zero-based line and character.
func Diag(sev protocol.DiagnosticSeverity, line, char int, msg string) protocol.Diagnostic {
	return protocol.Diagnostic{
		Range:    protocol.Range{Start: protocol.Position{Line: line, Character: char}, End: protocol.Position{Line: line, Character: char + 1}},
		Severity: sev,
		Source:   "fake",
		Message:  msg,
	}
}
