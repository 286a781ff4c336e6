package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// fakeGhWatchScript plays gh for a run_watch of run 777: the first poll
// finds the run in progress (build done, test running), the next ones
// find it passed.
const fakeGhWatchScript = `#!/bin/sh
dir="$(dirname "$0")"
case "$*" in
*/actions/runs/777/jobs*)
  if [ "$(cat "$dir/polls")" = 1 ]; then cat "$dir/jobs1.json"; else cat "$dir/jobs2.json"; fi ;;
*/actions/runs/777*)
  n=$(( $(cat "$dir/polls" 2>/dev/null || echo 0) + 1 )); echo $n > "$dir/polls"
  if [ $n = 1 ]; then cat "$dir/run1.json"; else cat "$dir/run2.json"; fi ;;
*) echo "unexpected gh $*" >&2; exit 1 ;;
esac
`

// On a real terminal, a run_watch card follows the run live (the running
// job marked as running), then shows every job passed.
func TestTUIGithubRunWatchInTmux(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("github", map[string]any{"op": "run_watch", "run": "777", "repo": "gopi-agent/gopi"})}},
		mockllm.Turn{Blocks: []mockllm.Block{text("CI passed.")}},
	)
	bin := t.TempDir()
	run := `{"id":777,"name":"CI","display_title":"Cache issue views","status":"%s","conclusion":%s,"head_branch":"feature/cache","head_sha":"0123456789abcdef","html_url":"https://github.com/gopi-agent/gopi/actions/runs/777"}`
	job := `{"id":%d,"name":"%s","status":"%s","conclusion":%s,"started_at":"2026-11-12T08:00:10Z"%s,"html_url":"https://github.com/gopi-agent/gopi/actions/runs/777/job/%d"}`
	files := map[string]string{
		"gh":        fakeGhWatchScript,
		"run1.json": fmt.Sprintf(run, "in_progress", "null"),
		"run2.json": fmt.Sprintf(run, "completed", `"success"`),
		"jobs1.json": `{"total_count":2,"jobs":[` + fmt.Sprintf(job, 1, "build", "completed", `"success"`, `,"completed_at":"2026-11-12T08:00:50Z"`, 1) + "," +
			fmt.Sprintf(job, 2, "unit tests", "in_progress", "null", "", 2) + `]}`,
		"jobs2.json": `{"total_count":2,"jobs":[` + fmt.Sprintf(job, 1, "build", "completed", `"success"`, `,"completed_at":"2026-11-12T08:00:50Z"`, 1) + "," +
			fmt.Sprintf(job, 2, "unit tests", "completed", `"success"`, `,"completed_at":"2026-11-12T08:02:10Z"`, 2) + `]}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("github:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(append([]string{}, r.Environ...), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	x := startTmux(t, 90, 30, r.Project, env, "--no-title")
	x.waitFor("Message gopi")
	x.typ("watch CI")
	x.keys("Enter")
	// The live card, during the 3 s before the second poll.
	x.waitFor("GitHub Run Watch · #777 · gopi-agent/gopi", "watching run #777 on gopi-agent/gopi", "CI  feature/cache  #777", "✓ build", "40s", "● unit tests")
	// The finished card.
	x.waitFor("✓ GitHub Run Watch · #777", "run #777 on gopi-agent/gopi", "✓ unit tests", "120s", "CI passed.")
	x.keys("C-d")
	x.waitFor("EXITED 0")
}
