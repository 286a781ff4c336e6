package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/headless"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// kill -9 of gopi while the browser tool's Chromium runs (a run waiting
// in a tab): the Chromium and every helper process it started end too.
func TestKill9LeavesNoChromium(t *testing.T) {
	needChromium(t)
	srv := pageServer(t)
	r, gopi, chromium := startWaitingBrowser(t, map[string]any{"action": "open", "url": srv.URL})
	testwait.Until(t, "Chromium to run a tab", func() bool { return chromium() > 1 && len(r.Srv.Requests()) >= 2 })
	t.Logf("running: %d chromium processes", chromium())
	if err := gopi.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = gopi.Wait()
	testwait.Until(t, "every Chromium process to end", func() bool { return len(r.commands()) == 0 })
}

// kill -9 of gopi while an app it spawned for app.path runs (here a
// script that starts a Chromium): the app and every process it started
// end too, though omp would leave the app running.
func TestKill9LeavesNoSpawnedApp(t *testing.T) {
	needChromium(t)
	srv := pageServer(t)
	dir := t.TempDir()
	app := filepath.Join(dir, "app.sh")
	script := "#!/bin/sh\nexec " + headless.Find("", exec.LookPath) + " --headless=new --no-sandbox --disable-gpu --no-first-run --password-store=basic --use-mock-keychain --disable-dev-shm-usage --user-data-dir=" +
		filepath.Join(dir, "profile") + " \"$@\" about:blank\n"
	if err := os.WriteFile(app, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r, gopi, chromium := startWaitingBrowser(t, map[string]any{"action": "open",
		"app": map[string]any{"path": app}, "url": srv.URL, "wait_until": "load"})
	testwait.Until(t, "the model to have the open's result", func() bool { return len(r.Srv.Requests()) >= 2 })
	if msgs := agentrig.MustMarshal(t, r.RequestMessages(1)); !strings.Contains(msgs, `Opened tab \"main\" on spawned `+app) {
		t.Fatalf("open result: %s", msgs)
	}
	testwait.Until(t, "the spawned app to run a tab", func() bool { return chromium() > 1 })
	if err := gopi.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = gopi.Wait()
	testwait.Until(t, "every process of the app to end", func() bool { return len(r.commands()) == 0 })
}

// startWaitingBrowser starts gopi with the browser tool on, scripted to
// make the browser call open and then a run that waits 29 s in the tab.
// It returns the rig, gopi's process and a count of the Chromium
// processes among gopi's descendants.
func startWaitingBrowser(t *testing.T, open map[string]any) (*orphanRig, *exec.Cmd, func() int) {
	t.Helper()
	r := newOrphanRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("browser", open)}},
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
	return r, gopi, chromium
}
