package shell

import (
	"io"
	"slices"
	"strings"
	"time"
)

// Request is one command to run.
type Request struct {
	Command string            // shell text; the configured prefix is put before it
	Dir     string            // where to run it; "" is the shell's current directory
	Env     map[string]string // extra variables for this command only (names must be valid)
	Timeout time.Duration     // 0: no limit
	Output  io.Writer         // receives standard output and error, merged; nil discards
}

// Result says how a command ended.
type Result struct {
	ExitCode    int    // exit status (128+n for a signal); meaningful when Exited
	Exited      bool   // the command finished and reported a status
	TimedOut    bool   // Timeout passed; the process group was ended
	Cancelled   bool   // the context ended; the process group was ended
	ShellExited bool   // the persistent shell is gone (exit, a timeout, a cancel): its state is lost
	OneShot     bool   // the command ran in a one-shot shell
	Dir         string // the shell's working directory afterwards ("" when unknown)
}

// envAssignments returns the extra variables as sorted KEY=VALUE words.
func envAssignments(env map[string]string) []string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "=" + env[k]
	}
	return out
}

// exportLine returns `export K='v' …;` for pairs, or "", with bi (see
// Config.builtinWord) before export.
func exportLine(bi string, pairs [][2]string) string {
	if len(pairs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(bi)
	b.WriteString("export")
	for _, kv := range pairs {
		b.WriteByte(' ')
		b.WriteString(kv[0])
		b.WriteByte('=')
		b.WriteString(Quote(kv[1]))
	}
	b.WriteString("; ")
	return b.String()
}

// discard returns w, or io.Discard when it is nil.
func discard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
