// Package dap is gopi's Debug Adapter Protocol client: it starts a debug
// adapter (dlv, debugpy, gdb, lldb-dap, …), speaks DAP with it and keeps
// the state of one debug session for the debug tool.
//
// Three layers, each in its own files:
//
//   - Adapters (adapters.go, select.go): the built-in adapter definitions
//     (the same set and launch defaults omp 14.9.9 ships) and the choice
//     of one for a program: an explicit name wins; otherwise adapters
//     whose file types match the program's extension come first, then
//     those whose root markers are in the working directory, then the
//     native debuggers (gdb before lldb-dap) for extensionless binaries.
//     A missing adapter is answered with the command that installs it.
//   - Transport (wire.go, client.go, spawn.go): DAP's Content-Length
//     framing (github.com/google/go-dap) over the adapter's stdio, or over
//     a Unix socket for adapters that listen (dlv dap --listen). Requests
//     carry sequence numbers and time out; events reach the session's
//     handler first and then whoever waits for them; reverse requests
//     (runInTerminal, startDebugging) are answered. The adapter and all it
//     starts form one childproc.Tree, so closing the client leaves no
//     process behind, the debuggee included, even when the adapter gave
//     it a process group of its own.
//   - Sessions (manager.go, parts.go, breakpoints.go, actions.go,
//     summary.go, output.go): the Manager allows one live session at a
//     time, runs the initialize → launch/attach → initialized →
//     configurationDone handshake, caches breakpoints, the stop location
//     and the program's output (128 KiB, oldest text dropped first) and
//     ends idle sessions after ten minutes. Its actions are grouped in
//     three views of the active session: Breakpoints, Control (resume,
//     step, pause) and Inspector (threads, frames, variables, memory, any
//     request).
//
// Every call takes a context and a timeout; texts of errors the model
// sees follow omp's ("DAP request <command> timed out after <ms>ms",
// "No active debug session. Launch or attach first.", …).
package dap
