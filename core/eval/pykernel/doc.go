// Package pykernel runs the eval tool's Python cells in long-lived
// python3 processes ("kernels") that keep their variables between cells.
//
// A kernel is `python3 -u runner.py`: the runner and the prelude it loads
// (helpers such as display, read and write, and IPython's magics) are
// embedded in gopi and written once per Pool to a temporary directory.
// gopi and the runner speak NDJSON over the runner's stdin and stdout
// (runner.py documents the frames); the runner turns the descriptors a
// cell writes to into pipes it reads itself, so a child process's output
// arrives like print's and nothing a cell starts can read the protocol.
//
// Lifecycle. A Pool owns the kernels of one gopi process: at most
// MaxKernels (4) at a time, the least recently used idle one stopped to
// make room, and any idle for IdleTimeout (5 minutes) stopped by a sweep.
// Each session takes a Session from the pool (subagents take their own,
// from the same pool) and runs its cells through it; Session.Close, the
// session's end, stops its kernel. Each kernel is started under a
// childproc.Tree, so stopping it (reset, eviction, close, a kill after an
// ignored interrupt) ends every process its cells started, forked and
// daemonised ones included; the childproc guard covers gopi's own death.
//
// Interruption. A cell's timeout or the call's cancellation sends SIGINT
// to the runner, which raises KeyboardInterrupt in the cell and keeps the
// kernel and its variables. A kernel that does not answer within
// InterruptGrace (stuck in C code) is killed; the next cell starts a new
// one with a note saying the variables are gone. A kernel that dies by
// itself (os._exit, a segfault) is handled the same way.
//
// The environment a kernel gets is filtered (FilterEnv): a short list of
// safe variables, never the providers' API keys unless the configuration
// names them (python.passEnv).
package pykernel
