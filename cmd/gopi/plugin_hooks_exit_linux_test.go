package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// A plugin's Stop or SessionEnd hook that never ends: gopi sent SIGTERM
// while it runs ends soon, and the hook's commands go with it.
func TestPluginHookNeverEndingAtExit(t *testing.T) {
	for _, event := range []string{"Stop", "SessionEnd"} {
		t.Run(event, func(t *testing.T) {
			r := newOrphanRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}})
			dir := filepath.Join(t.TempDir(), "stuck")
			writeTree(t, dir, map[string]string{
				".claude-plugin/plugin.json": `{"name":"stuck"}`,
				"hooks/hooks.json":           `{"hooks":{"` + event + `":[{"hooks":[{"type":"command","command":"sleep 1031; true","timeout":600}]}]}}`,
			})
			cmd := exec.Command(os.Args[0], "-p", "--model", "mock/mock-model", "--plugin-dir", dir, "go")
			cmd.Dir = r.Project
			cmd.Env = append(r.Environ, "GOPI_TEST_RUN_MAIN=1", "TMPDIR="+r.tmp, r.mark)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			testwait.Until(t, "the hook to run", func() bool { return r.running("sleep 1031") })
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatal("gopi did not end within 30s of SIGTERM while a hook ran")
			}
			testwait.Until(t, "every process gopi started to end", func() bool { return len(r.commands()) == 0 })
		})
	}
}
