//go:build unix

package extensions

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A command child_process started that never ends, and what it started
// in the background, are killed when the session ends: nothing is left
// in its process group.
func TestNodeChildKilledWithTheSession(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	path := writeExt(t, dir, "forever.js", `
import { spawn, exec } from "node:child_process";
export default function (pi) {
  pi.on("session_start", () => {
    spawn("sh", ["-c", "sleep 300 & echo $$ $! > `+pidFile+`; wait"]);
    exec("sleep 301");
  });
}`)
	r := Load(context.Background(), []Entry{{Path: path, Name: "forever"}}, Options{Cwd: dir})
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	r.Emit(context.Background(), "session_start", map[string]any{})
	var group, sleeper int
	for deadline := time.Now().Add(20 * time.Second); group == 0; {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			f := strings.Fields(string(b))
			group, _ = strconv.Atoi(f[0])
			sleeper, _ = strconv.Atoi(f[1])
		}
		if time.Now().After(deadline) {
			r.Close()
			t.Fatal("the child never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pg, _ := syscall.Getpgid(sleeper); pg != group {
		t.Errorf("the sleeper is in group %d, want the child's own group %d", pg, group)
	}
	r.Close() // returns once every child's group is killed
	// The background sleeper was reparented: its new parent reaps it.
	waitGone(t, -group, "the session")
}

// waitGone waits until no process answers to pid (a negative pid: no
// process is left in that group), failing the test when one still does
// after a generous deadline; after is what it should not have outlived.
func waitGone(t *testing.T, pid int, after string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		if err := syscall.Kill(pid, 0); err != nil {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d outlived %s", pid, after)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A command that prints more than maxBuffer (1 MiB unless the call says
// otherwise), run with exec, execFile or execSync, is stopped there with
// Node's error, instead of gopi holding all it prints in memory (a
// command printing without end grew gopi until the handler's budget or
// without bound).
func TestNodeChildMaxBuffer(t *testing.T) {
	dir := t.TempDir()
	r := loadOne(t, dir, "flood.ts", `
import { exec, execFile, execSync } from "node:child_process";
import { promisify } from "node:util";
export default function (pi) {
  pi.registerTool({
    name: "flood",
    description: "floods",
    parameters: { type: "object", properties: {} },
    async execute() {
      const out = [];
      const err = await new Promise((resolve) => exec("head -c 3000000 /dev/zero", (e, stdout) => resolve([e, stdout])));
      out.push("exec=" + (err[0] && err[0].code) + ":" + err[1].length);
      const err2 = await new Promise((resolve) => execFile("head", ["-c", "3000000", "/dev/zero"], { maxBuffer: 1000 }, (e, stdout) => resolve([e, stdout])));
      out.push("execFile=" + (err2[0] && err2[0].code) + ":" + err2[1].length);
      try { execSync("head -c 3000000 /dev/zero"); out.push("execSync=none"); } catch (e) { out.push("execSync=" + e.code); }
      const endless = await new Promise((resolve) => exec("yes", (e, stdout) => resolve([e, stdout])));
      out.push("yes=" + (endless[0] && endless[0].code) + ":" + endless[1].length);
      try { execSync("yes"); } catch (e) { out.push("yesSync=" + e.code); }
      const ok = await promisify(exec)("head -c 2000000 /dev/zero | tr '\\0' x", { maxBuffer: 4 * 1024 * 1024 });
      out.push("big=" + ok.stdout.length);
      return out.join(" ");
    },
  });
}`, Options{Cwd: dir})
	got := runTool(t, r, nil)
	want := "exec=ERR_CHILD_PROCESS_STDIO_MAXBUFFER:1048576 execFile=ERR_CHILD_PROCESS_STDIO_MAXBUFFER:1000 execSync=ENOBUFS yes=ERR_CHILD_PROCESS_STDIO_MAXBUFFER:1048576 yesSync=ENOBUFS big=2000000"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
