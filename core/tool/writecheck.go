package tool

import (
	"context"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// LateDiagnosticType is the custom type of the hidden message that brings
// diagnostics which arrived after the tool call that asked for them
// returned (omp's "lsp-late-diagnostic").
const LateDiagnosticType = "lsp-late-diagnostic"

// LateDiagnosticsTimeout bounds the background wait for diagnostics that
// missed a call's budget (omp gives its deferred fetch 25 s).
const LateDiagnosticsTimeout = 25 * time.Second

// Notice is a message a tool's background work hands to the model after
// the call returned: hidden from the user's transcript, seen by the model
// on its next turn (the session delivers it; see WriteChecks.SetDeliver).
type Notice struct {
	CustomType string // what it is, e.g. LateDiagnosticType
	Text       string // what the model reads
}

// WriteKind says which tool wrote a file, for the setting that turns its
// diagnostics on.
type WriteKind int

// Write kinds.
const (
	WriteWhole WriteKind = iota // the write tool: lsp.diagnosticsOnWrite
	WriteEdit                   // edit (every mode), ast_edit: lsp.diagnosticsOnEdit
)

// LineSpan is a range of lines of a file after a change, zero-based and
// inclusive: where the change put new text or removed some.
type LineSpan struct{ First, Last int }

// WriteChecks owns the diagnostics fetches of one session's file tools:
// a call waits for the language servers up to its budget, a fetch that
// takes longer goes on in the background until LateDiagnosticsTimeout and
// hands what it finds to the model as a hidden Notice, a new write of the
// same file cancels the fetch of the old content, and Close stops them
// all. The tools reach it through Env.WriteChecks (Env.BeginDiagnostics);
// the session's services own it (core/tools/registry.Services).
type WriteChecks struct {
	ctx    context.Context // parent of every fetch, ended by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // background fetches

	mu      sync.Mutex
	deliver func(Notice)      // nil: late results are dropped
	pending map[string]*fetch // running fetch per absolute path
	closed  bool              // Close was called
}

// NewWriteChecks returns an owner with no fetch running and no delivery
// set.
func NewWriteChecks() *WriteChecks {
	ctx, cancel := context.WithCancel(context.Background())
	return &WriteChecks{ctx: ctx, cancel: cancel, pending: map[string]*fetch{}}
}

// SetDeliver sets how late diagnostics reach the model (the session's
// hidden-message delivery); nil drops them. fn runs on a background
// goroutine and must not block for long.
func (w *WriteChecks) SetDeliver(fn func(Notice)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.deliver = fn
}

// Pending returns how many fetches are running.
func (w *WriteChecks) Pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending)
}

// Close cancels every fetch and waits for them to end; nothing is
// delivered after it returns, and later writes fetch nothing.
func (w *WriteChecks) Close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
	return nil
}

// fetch is one Diagnoser.Fresh call running for a written file.
type fetch struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when Fresh returned
	diags  []protocol.Diagnostic
	srvs   []string
	err    error
	late   bool // the call stopped waiting: the result goes to deliver
}

// cancelPending stops the fetch running for abs, if any.
func (w *WriteChecks) cancelPending(abs string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if f := w.pending[abs]; f != nil {
		f.cancel()
		delete(w.pending, abs)
	}
}

// start runs Fresh for abs in the background, registered as the file's
// pending fetch (replacing, and cancelling, an older one). It returns
// nil once the owner is closed.
func (w *WriteChecks) start(d Diagnoser, abs string, onLate func(*fetch)) *fetch {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	if old := w.pending[abs]; old != nil {
		old.cancel()
	}
	ctx, cancel := context.WithTimeout(w.ctx, LateDiagnosticsTimeout)
	f := &fetch{cancel: cancel, done: make(chan struct{})}
	w.pending[abs] = f
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer cancel()
		f.diags, f.srvs, f.err = d.Fresh(ctx, abs)
		// Done and deregistered in one step under the lock: a caller
		// woken by done finds the fetch no longer pending, and
		// stopWaiting (which checks done under the lock) sees either
		// both or neither.
		w.mu.Lock()
		close(f.done)
		current := w.pending[abs] == f
		if current {
			delete(w.pending, abs)
		}
		late, deliver := f.late, w.deliver
		w.mu.Unlock()
		// A fetch replaced by a newer write, cancelled, or whose owner
		// closed says nothing; one the call stopped waiting for says
		// what it found, if anything.
		if late && current && ctx.Err() == nil && deliver != nil {
			onLate(f)
		}
	}()
	return f
}

// stopWaiting marks f as left to the background (its result goes to the
// delivery) unless it has ended; it reports whether it had.
func (w *WriteChecks) stopWaiting(f *fetch) (ended bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case <-f.done:
		return true
	default:
		f.late = true
		return false
	}
}

// deliverNotice hands n to the delivery, if one is set.
func (w *WriteChecks) deliverNotice(n Notice) {
	w.mu.Lock()
	fn := w.deliver
	w.mu.Unlock()
	if fn != nil {
		fn(n)
	}
}

// WriteDiag is the diagnostics check of one file a tool call writes:
// begun before the write (Env.BeginDiagnostics), finished after it
// (After). A nil *WriteDiag is a check that is off; its methods do
// nothing.
type WriteDiag struct {
	env   *Env
	d     Diagnoser
	owner *WriteChecks
	abs   string
	tool  string                // the tool's name, for the late message
	known []protocol.Diagnostic // what the servers had published before the write
}

// BeginDiagnostics starts the diagnostics check of a write of abs by the
// named tool, before it writes: it cancels the background fetch still
// running for the file's previous content and takes what the servers
// published before the change. Nil when the check is off: no language
// servers (Diagnostics unset), no owner (WriteChecks unset), or the
// setting for kind (lsp.diagnosticsOnWrite, lsp.diagnosticsOnEdit) off.
func (e *Env) BeginDiagnostics(abs, toolName string, kind WriteKind) *WriteDiag {
	if e == nil || e.Diagnostics == nil || e.WriteChecks == nil || !e.Settings.LSP.enabled(kind) {
		return nil
	}
	e.WriteChecks.cancelPending(abs)
	return &WriteDiag{env: e, d: e.Diagnostics, owner: e.WriteChecks, abs: abs, tool: toolName, known: e.Diagnostics.Known(abs)}
}

// After asks the servers about the file as written, waiting up to the
// session's budget (lsp.diagnosticsBudgetMs) or until ctx ends, and
// returns their report: problems on the lines in changed or not known
// before the write first, then the rest. Nil when no server handles the
// file, no server answered within the budget or ctx ended. A fetch that
// misses the budget goes on in the background; what it finds reaches the
// model as a hidden Notice if it is worth saying (new or touched
// problems, or a file that became clean).
func (w *WriteDiag) After(ctx context.Context, changed []LineSpan) *FileDiagnostics {
	if w == nil {
		return nil
	}
	shown := w.env.DisplayPath(w.abs)
	f := w.owner.start(w.d, w.abs, func(f *fetch) {
		if f.err != nil && len(f.srvs) == 0 {
			return
		}
		r := w.report(shown, f.diags, f.srvs, changed)
		if r.worthSaying {
			w.owner.deliverNotice(Notice{CustomType: LateDiagnosticType, Text: lateText(shown, w.tool, r.FileDiagnostics)})
		}
	})
	if f == nil {
		return nil
	}
	budget := time.NewTimer(max(w.env.Settings.LSP.DiagnosticsBudget, 0))
	defer budget.Stop()
	select {
	case <-f.done:
	case <-budget.C:
		if !w.owner.stopWaiting(f) {
			return nil
		}
	case <-ctx.Done():
		f.cancel()
		return nil
	}
	if f.err != nil && len(f.srvs) == 0 {
		return nil
	}
	return w.report(shown, f.diags, f.srvs, changed).FileDiagnostics
}

// AfterAll is After for the files one call wrote, waited for at once
// (each up to the budget): reports[i] is wds[i]'s, with changed[i] its
// changed lines (changed may be shorter, or nil).
func AfterAll(ctx context.Context, wds []*WriteDiag, changed [][]LineSpan) []*FileDiagnostics {
	reports := make([]*FileDiagnostics, len(wds))
	var wg sync.WaitGroup
	for i, wd := range wds {
		var spans []LineSpan
		if i < len(changed) {
			spans = changed[i]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i] = wd.After(ctx, spans)
		}()
	}
	wg.Wait()
	return reports
}
