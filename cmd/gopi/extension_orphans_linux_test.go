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

// spawnExtension is a user extension whose child_process commands
// never end: one started when it loads (with a grandchild of its own)
// and one its tool starts.
const spawnExtension = `
import { spawn, exec } from "node:child_process";
export default function (pi) {
	spawn("sh", ["-c", "sleep 1010 & sleep 1011"]);
	pi.registerTool({
		name: "forever",
		description: "Starts a command that never ends",
		parameters: { type: "object", properties: {} },
		async execute() {
			exec("sleep 1012");
			return "started";
		},
	});
}
`

// An extension's child_process commands that never end are killed with
// the session: when gopi ends normally and when it is sent SIGTERM,
// nothing they started outlives it.
func TestExtensionChildrenEndWithGopi(t *testing.T) {
	for _, how := range []string{"exit", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			turns := []mockllm.Turn{
				{Blocks: []mockllm.Block{agentrig.ToolCall("forever", map[string]any{})}},
				{Blocks: []mockllm.Block{mockllm.Text("done")}},
			}
			if how == "sigterm" {
				turns[1] = mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": "sleep 1013", "timeout": 3000})}}
			}
			r := newOrphanRig(t, turns...)
			dir := filepath.Join(r.AgentDir, "extensions")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "forever.ts"), []byte(spawnExtension), 0o644); err != nil {
				t.Fatal(err)
			}
			gopi := r.start(t)
			if how == "exit" {
				if err := gopi.Wait(); err != nil {
					t.Fatalf("gopi: %v", err)
				}
				if reqs := r.Srv.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "started") {
					t.Fatalf("the extension's tool did not run: %d requests", len(reqs))
				}
			} else {
				testwait.Until(t, "the extension's commands and the bash command to run", func() bool {
					return r.running("sleep 1010") && r.running("sleep 1011") && r.running("sleep 1012") && r.running("sleep 1013")
				})
				if err := gopi.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
				_ = gopi.Wait()
			}
			testwait.Until(t, "every process gopi started to end", func() bool { return len(r.commands()) == 0 })
		})
	}
}
