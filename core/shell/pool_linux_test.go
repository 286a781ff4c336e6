package shell

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Daemons that leave the process group (setsid, setsid -f, one ignoring
// SIGTERM, one started by a one-shot command) are ended with the pool.
func TestPoolCloseEndsEscapedDaemons(t *testing.T) {
	cfg := testConfig(t)
	cfg.Grace = 200 * time.Millisecond
	p := NewPool(cfg, t.TempDir())
	defer p.Close()
	ctx := context.Background()
	var out buffer
	cmd := `setsid sleep 300 & setsid -f sleep 301; setsid bash -c 'trap "" TERM; sleep 302' & echo ok`
	if res, err := p.Run(ctx, Request{Command: cmd, Output: &out}); err != nil || res.OneShot || out.String() != "ok\n" {
		t.Fatalf("%+v %v %q", res, err, out.String())
	}
	// The one-shot shell waits until its daemon has left the group, which
	// the shell's end kills.
	once := `setsid -f sh -c 'echo > started; exec sleep 303'; until [ -e started ]; do sleep 0.01; done`
	if res, err := p.RunOnce(ctx, Request{Command: once}); err != nil || res.ExitCode != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	waitFor(t, "the daemons to start", func() bool {
		n := 0
		for _, ps := range markedProcs(p.owner.mark) {
			if cmd, _ := readCmdline(ps.pid); strings.HasPrefix(cmd, "sleep 30") {
				n++
			}
		}
		return n == 4
	})
	p.Close()
	if left := markedProcs(p.owner.mark); len(left) > 0 {
		t.Fatalf("still running after Close: %v", left)
	}
	// The marker check of testConfig proves nothing is left either.
}

// readCmdline returns a process's command line, arguments joined by
// spaces.
func readCmdline(pid int) (string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return string(bytes.TrimSpace(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))), err
}
