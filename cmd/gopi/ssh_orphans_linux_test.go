package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/sshtest"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// kill -9 of gopi while the ssh tool runs a long command on a real sshd:
// the guard ends the ssh client, and the dropped connection ends the
// remote command (which carries no mark of gopi's: only the connection
// ties it to gopi).
func TestKill9EndsRemoteSSHCommand(t *testing.T) {
	srv := sshtest.Start(t)
	r := newOrphanRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("ssh", map[string]any{"host": "box", "command": "sleep 1003.25"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never reached")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "ssh.json"), []byte(srv.HostsJSON("box")), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Environ = srv.Environ(r.Environ)
	remoteSleep := func() bool {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && string(b) == "sleep\x001003.25\x00" {
				return true
			}
		}
		return false
	}
	gopi := r.start(t)
	testwait.Until(t, "the remote command to run", remoteSleep)
	if !strings.Contains(strings.Join(r.commands(), "\n"), "ssh ") {
		t.Fatalf("no marked ssh client: %q", r.commands())
	}
	if err := gopi.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = gopi.Wait()
	testwait.Until(t, "the ssh client to end", func() bool { return len(r.commands()) == 0 })
	testwait.Until(t, "the remote command to end", func() bool { return !remoteSleep() })
}
