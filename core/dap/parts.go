package dap

// The Manager's actions come in three parts, each a view of the same
// active session: breakpoints, execution control and inspection. The
// Manager itself starts, lists and ends sessions.

// Breakpoints sets and removes the active session's breakpoints: lines,
// functions, instructions and data (watchpoints).
type Breakpoints struct{ m *Manager }

// Control resumes, steps and pauses the active session's program.
type Control struct{ m *Manager }

// Inspector reads the active session's program: threads, frames, scopes,
// variables, expressions, memory, modules and sources, and sends any
// other request.
type Inspector struct{ m *Manager }

// Breakpoints returns the breakpoint actions.
func (m *Manager) Breakpoints() Breakpoints { return Breakpoints{m} }

// Control returns the execution control actions.
func (m *Manager) Control() Control { return Control{m} }

// Inspect returns the inspection actions.
func (m *Manager) Inspect() Inspector { return Inspector{m} }
