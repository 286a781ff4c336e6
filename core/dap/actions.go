package dap

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	godap "github.com/google/go-dap"
)

// Continue resumes the program and waits, at most timeout, for it to stop
// or end; a program still running then is not an error (TimedOut).
func (c Control) Continue(ctx context.Context, timeout time.Duration) (Outcome, error) {
	m := c.m
	return m.resume(ctx, "continue", timeout)
}

// StepOver runs to the next line of the current function.
func (c Control) StepOver(ctx context.Context, timeout time.Duration) (Outcome, error) {
	m := c.m
	return m.resume(ctx, "next", timeout)
}

// StepIn steps into the call on the current line.
func (c Control) StepIn(ctx context.Context, timeout time.Duration) (Outcome, error) {
	m := c.m
	return m.resume(ctx, "stepIn", timeout)
}

// StepOut runs until the current function returns.
func (c Control) StepOut(ctx context.Context, timeout time.Duration) (Outcome, error) {
	m := c.m
	return m.resume(ctx, "stepOut", timeout)
}

func (m *Manager) resume(ctx context.Context, command string, timeout time.Duration) (Outcome, error) {
	s, err := m.touch()
	if err != nil {
		return Outcome{}, err
	}
	thread, err := m.threadID(ctx, s, timeout)
	if err != nil {
		return Outcome{}, err
	}
	m.mu.Lock()
	s.stop, s.lastFrames, s.status = stopLocation{}, nil, StatusRunning
	m.mu.Unlock()
	w := s.client.Watch("stopped", "terminated", "exited")
	defer w.Stop()
	if err := m.request(ctx, s, command, map[string]any{"threadId": thread}, timeout, nil); err != nil {
		return Outcome{}, err
	}
	return m.outcome(ctx, s, w, timeout)
}

// outcome waits for what a resume led to.
func (m *Manager) outcome(ctx context.Context, s *session, w *Watch, timeout time.Duration) (Outcome, error) {
	_, err := w.Wait(ctx, timeout)
	if err != nil && ctx.Err() != nil {
		return Outcome{}, ctx.Err()
	}
	if err == nil {
		m.fetchTopFrame(ctx, s, min(timeout, stopCaptureTimeout))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	o := Outcome{Summary: s.summaryLocked(), State: StatusRunning}
	switch {
	case s.status == StatusStopped || s.status == StatusTerminated:
		o.State = s.status
	case err != nil:
		o.TimedOut = s.status == StatusRunning
	}
	return o, nil
}

// Pause interrupts the program and waits for it to stop; a program
// already stopped is left as it is.
func (c Control) Pause(ctx context.Context, timeout time.Duration) (Summary, error) {
	m := c.m
	s, err := m.touch()
	if err != nil {
		return Summary{}, err
	}
	m.mu.Lock()
	stopped := s.status == StatusStopped
	m.mu.Unlock()
	if stopped {
		return m.summary(s), nil
	}
	thread, err := m.threadID(ctx, s, timeout)
	if err != nil {
		return Summary{}, err
	}
	w := s.client.Watch("stopped")
	defer w.Stop()
	if err := m.request(ctx, s, "pause", map[string]any{"threadId": thread}, timeout, nil); err != nil {
		return Summary{}, err
	}
	if _, err := w.Wait(ctx, timeout); err == nil {
		m.fetchTopFrame(ctx, s, min(timeout, stopCaptureTimeout))
	}
	return m.summary(s), nil
}

// threadID is the thread to act on: the stopped one, else the first
// known, else the first the adapter lists.
func (m *Manager) threadID(ctx context.Context, s *session, timeout time.Duration) (int, error) {
	m.mu.Lock()
	if s.stop.threadID != nil {
		id := *s.stop.threadID
		m.mu.Unlock()
		return id, nil
	}
	if len(s.threads) > 0 {
		id := s.threads[0].Id
		m.mu.Unlock()
		return id, nil
	}
	m.mu.Unlock()
	var resp godap.ThreadsResponseBody
	if err := s.client.RequestInto(ctx, "threads", nil, timeout, &resp); err != nil {
		return 0, err
	}
	m.mu.Lock()
	s.threads = resp.Threads
	m.mu.Unlock()
	if len(resp.Threads) == 0 {
		return 0, errors.New("Debugger reported no threads.")
	}
	return resp.Threads[0].Id, nil
}

// Threads lists the program's threads.
func (in Inspector) Threads(ctx context.Context, timeout time.Duration) ([]godap.Thread, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	var resp godap.ThreadsResponseBody
	if err := m.request(ctx, s, "threads", nil, timeout, &resp); err != nil {
		return nil, Summary{}, err
	}
	m.mu.Lock()
	s.threads = resp.Threads
	sum := s.summaryLocked()
	m.mu.Unlock()
	return resp.Threads, sum, nil
}

// StackTrace returns the frames of the current thread (at most levels,
// when given).
func (in Inspector) StackTrace(ctx context.Context, levels *int, timeout time.Duration) ([]godap.StackFrame, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	thread, err := m.threadID(ctx, s, timeout)
	if err != nil {
		return nil, Summary{}, err
	}
	args := map[string]any{"threadId": thread}
	if levels != nil {
		args["levels"] = *levels
	}
	var resp godap.StackTraceResponseBody
	if err := m.request(ctx, s, "stackTrace", args, timeout, &resp); err != nil {
		return nil, Summary{}, err
	}
	m.mu.Lock()
	s.lastFrames = resp.StackFrames
	if len(resp.StackFrames) > 0 {
		applyTopFrame(s, resp.StackFrames[0])
	}
	sum := s.summaryLocked()
	m.mu.Unlock()
	return resp.StackFrames, sum, nil
}

// Scopes returns the scopes of frame (the current frame when nil).
func (in Inspector) Scopes(ctx context.Context, frame *int, timeout time.Duration) ([]godap.Scope, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	m.mu.Lock()
	if frame == nil {
		frame = s.stop.frameID
	}
	m.mu.Unlock()
	if frame == nil {
		return nil, Summary{}, errors.New("No active stack frame. Run stack_trace first or supply frame_id.")
	}
	var resp godap.ScopesResponseBody
	if err := m.request(ctx, s, "scopes", map[string]any{"frameId": *frame}, timeout, &resp); err != nil {
		return nil, Summary{}, err
	}
	return resp.Scopes, m.summary(s), nil
}

// Variables returns the variables of a variables reference.
func (in Inspector) Variables(ctx context.Context, ref int, timeout time.Duration) ([]godap.Variable, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	var resp godap.VariablesResponseBody
	if err := m.request(ctx, s, "variables", map[string]any{"variablesReference": ref}, timeout, &resp); err != nil {
		return nil, Summary{}, err
	}
	return resp.Variables, m.summary(s), nil
}

// Evaluate evaluates expression in context ("repl", "watch", …) in frame
// (the current frame when nil).
func (in Inspector) Evaluate(ctx context.Context, expression, evalContext string, frame *int, timeout time.Duration) (godap.EvaluateResponseBody, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return godap.EvaluateResponseBody{}, Summary{}, err
	}
	m.mu.Lock()
	if frame == nil {
		frame = s.stop.frameID
	}
	m.mu.Unlock()
	args := map[string]any{"expression": expression, "context": evalContext}
	if frame != nil {
		args["frameId"] = *frame
	}
	var resp godap.EvaluateResponseBody
	if err := m.request(ctx, s, "evaluate", args, timeout, &resp); err != nil {
		return resp, Summary{}, err
	}
	return resp, m.summary(s), nil
}

// Disassemble disassembles count instructions around ref.
func (in Inspector) Disassemble(ctx context.Context, ref string, count int, offset, instructionOffset *int, resolveSymbols *bool, timeout time.Duration) ([]godap.DisassembledInstruction, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	args := map[string]any{"memoryReference": ref, "instructionCount": count}
	setOpt(args, "offset", offset)
	setOpt(args, "instructionOffset", instructionOffset)
	if resolveSymbols != nil {
		args["resolveSymbols"] = *resolveSymbols
	}
	var resp godap.DisassembleResponseBody
	if err := m.request(ctx, s, "disassemble", args, timeout, &resp); err != nil {
		return nil, Summary{}, err
	}
	return resp.Instructions, m.summary(s), nil
}

// MemoryRead is what read_memory found.
type MemoryRead struct {
	Address         string // where the read started
	Data            string // base64
	UnreadableBytes *int   // bytes after Data that could not be read
}

// ReadMemory reads count bytes at ref+offset.
func (in Inspector) ReadMemory(ctx context.Context, ref string, count int, offset *int, timeout time.Duration) (MemoryRead, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return MemoryRead{}, Summary{}, err
	}
	args := map[string]any{"memoryReference": ref, "count": count}
	setOpt(args, "offset", offset)
	var resp struct {
		Address         string `json:"address"`
		Data            string `json:"data"`
		UnreadableBytes *int   `json:"unreadableBytes"`
	}
	if err := m.request(ctx, s, "readMemory", args, timeout, &resp); err != nil {
		return MemoryRead{}, Summary{}, err
	}
	if resp.Address == "" {
		resp.Address = ref
	}
	return MemoryRead{Address: resp.Address, Data: resp.Data, UnreadableBytes: resp.UnreadableBytes}, m.summary(s), nil
}

// MemoryWrite is what write_memory did.
type MemoryWrite struct {
	Offset       *int // where the write started, when the adapter says
	BytesWritten *int // how many bytes were written, when the adapter says
}

// WriteMemory writes base64 data at ref+offset.
func (in Inspector) WriteMemory(ctx context.Context, ref, data string, offset *int, allowPartial *bool, timeout time.Duration) (MemoryWrite, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return MemoryWrite{}, Summary{}, err
	}
	args := map[string]any{"memoryReference": ref, "data": data}
	setOpt(args, "offset", offset)
	if allowPartial != nil {
		args["allowPartial"] = *allowPartial
	}
	var resp struct {
		Offset       *int `json:"offset"`
		BytesWritten *int `json:"bytesWritten"`
	}
	if err := m.request(ctx, s, "writeMemory", args, timeout, &resp); err != nil {
		return MemoryWrite{}, Summary{}, err
	}
	return MemoryWrite{Offset: resp.Offset, BytesWritten: resp.BytesWritten}, m.summary(s), nil
}

// Modules lists the program's modules (a page of them when start or
// count is given).
func (in Inspector) Modules(ctx context.Context, start, count *int, timeout time.Duration) ([]godap.Module, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	args := map[string]any{}
	setOpt(args, "startModule", start)
	setOpt(args, "moduleCount", count)
	var resp godap.ModulesResponseBody
	if err := m.request(ctx, s, "modules", args, timeout, &resp); err != nil {
		return nil, Summary{}, err
	}
	return resp.Modules, m.summary(s), nil
}

// LoadedSources lists the sources the program has loaded.
func (in Inspector) LoadedSources(ctx context.Context, timeout time.Duration) ([]godap.Source, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	var resp godap.LoadedSourcesResponseBody
	if err := m.request(ctx, s, "loadedSources", map[string]any{}, timeout, &resp); err != nil {
		return nil, Summary{}, err
	}
	return resp.Sources, m.summary(s), nil
}

// Custom sends any request and returns its body as sent.
func (in Inspector) Custom(ctx context.Context, command string, args map[string]any, timeout time.Duration) (json.RawMessage, Summary, error) {
	m := in.m
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	var body json.RawMessage
	var a any
	if args != nil {
		a = args
	}
	if err := m.request(ctx, s, command, a, timeout, &body); err != nil {
		return nil, Summary{}, err
	}
	return body, m.summary(s), nil
}

// Output returns the program's captured output.
func (m *Manager) Output() (string, Summary, error) {
	s, err := m.touch()
	if err != nil {
		return "", Summary{}, err
	}
	text, _, _ := s.output.snapshot()
	return text, m.summary(s), nil
}

// Terminate ends the active session: terminate (when the adapter offers
// it) and disconnect with terminateDebuggee, failures ignored, then the
// adapter's whole process tree. It reports false when there was no
// session.
func (m *Manager) Terminate(ctx context.Context, timeout time.Duration) (Summary, bool) {
	m.mu.Lock()
	s := m.active
	if s != nil {
		s.lastUsedAt = m.opts.Now()
	}
	m.mu.Unlock()
	if s == nil {
		return Summary{}, false
	}
	m.mu.Lock()
	live := s.status != StatusTerminated
	m.mu.Unlock()
	if live && s.client.Alive() {
		if s.client.Capabilities().SupportsTerminateRequest {
			_, _ = s.client.Request(ctx, "terminate", nil, timeout)
		}
		_, _ = s.client.Request(ctx, "disconnect", map[string]any{"terminateDebuggee": true}, timeout)
	}
	m.mu.Lock()
	s.status = StatusTerminated
	sum := s.summaryLocked()
	m.mu.Unlock()
	m.dispose(s)
	return sum, true
}

func setOpt(args map[string]any, key string, v *int) {
	if v != nil {
		args[key] = *v
	}
}
