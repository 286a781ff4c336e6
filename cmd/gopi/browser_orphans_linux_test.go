package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// kill -9 of gopi while the browser tool's Chromium runs (a run waiting
// in a tab): the Chromium and every helper process it started end too.
func TestKill9LeavesNoChromium(t *testing.T) {
	needChromium(t)
	srv := pageServer(t)
	r := newOrphanRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("browser", map[string]any{"action": "open", "url": srv.URL})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("browser", map[string]any{"action": "run",
			"code": `await tab.evaluate(() => document.title = "waiting"); await wait(29000);`})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never reached")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("browser:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gopi := r.start(t)
	chromium := func() int {
		n := 0
		for _, c := range r.commands() {
			if strings.Contains(c, "chrom") {
				n++
			}
		}
		return n
	}
	testwait.Until(t, "Chromium to run a tab", func() bool { return chromium() > 1 && len(r.Srv.Requests()) >= 2 })
	t.Logf("running: %d chromium processes", chromium())
	if err := gopi.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = gopi.Wait()
	testwait.Until(t, "every Chromium process to end", func() bool { return len(r.commands()) == 0 })
}
