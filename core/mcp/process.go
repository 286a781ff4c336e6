package mcp

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/internal/tailbuf"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// stderrKeep is how much of a server's stderr is kept for error messages.
const stderrKeep = 2048

// process is what one connection holds beyond the SDK's session: for a
// stdio server its child process (command, stderr tail, the group kill
// that ends whatever it started), and for every transport the context
// its long-lived streams run under.
type process struct {
	cmd    *exec.Cmd          // stdio: the child; nil for http and sse
	stderr *tailbuf.Buffer    // stdio: the end of its stderr
	cancel context.CancelFunc // ends the connection's streams; nil until set
	once   sync.Once
}

// newProcess prepares cmd: stderr is captured, the child is started under
// gopi's process policy (childproc: its own process group where the
// platform has them, ended with gopi however gopi ends), and Wait gives
// up on pipes a grandchild keeps open after a second.
func newProcess(cmd *exec.Cmd) *process {
	p := &process{cmd: cmd, stderr: tailbuf.New(stderrKeep)}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second
	childproc.Prepare(cmd)
	return p
}

// kill ends the connection's streams and, once the child was started,
// its process group. Safe on nil.
func (p *process) kill() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		if p.cancel != nil {
			p.cancel()
		}
		if p.cmd != nil && p.cmd.Process != nil {
			killGroup(p.cmd)
		}
	})
}

// stderrTail returns the last line(s) the server wrote to stderr, on one
// line. Safe on nil.
func (p *process) stderrTail() string {
	if p == nil || p.stderr == nil {
		return ""
	}
	return stderrTailOf(p.stderr)
}

// stderrTailOf returns the kept text, trimmed, with newlines shown as " | ".
func stderrTailOf(b *tailbuf.Buffer) string {
	s := b.String()
	for !utf8.ValidString(s) && len(s) > 0 {
		s = s[1:]
	}
	lines := strings.Fields(strings.ReplaceAll(strings.TrimSpace(s), "\n", " \x00 "))
	return strings.ReplaceAll(strings.Join(lines, " "), "\x00", "|")
}
