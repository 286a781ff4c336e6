package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// orphanRig runs gopi (the test binary as gopi) as a separate process
// whose every descendant carries a marker, so that the test can see them
// all, and with a temporary directory of its own.
type orphanRig struct {
	*agentRig
	mark string // KEY=VALUE in the environment of gopi and all it starts
	tmp  string // gopi's TMPDIR
}

func newOrphanRig(t *testing.T, turns ...mockllm.Turn) *orphanRig {
	r := &orphanRig{agentRig: newAgentRig(t, turns...), mark: shelltest.MarkerVar + "=orphans-" + strconv.Itoa(os.Getpid()) + "-" + t.Name(), tmp: t.TempDir()}
	r.mark = strings.ReplaceAll(r.mark, "/", "-")
	t.Cleanup(func() { // whatever a failed test leaves
		for _, p := range shelltest.Marked(r.mark) {
			pid, _ := strconv.Atoi(strings.Fields(p)[0])
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return r
}

// start starts gopi -p with the rig's models and the given prompt.
func (r *orphanRig) start(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-p", "--model", "mock/mock-model", "go")
	cmd.Dir = r.Project
	cmd.Env = append(r.Environ, "GOPI_TEST_RUN_MAIN=1", "TMPDIR="+r.tmp, r.mark)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// commands returns the command lines of the live marked processes.
func (r *orphanRig) commands() []string {
	var out []string
	for _, p := range shelltest.Marked(r.mark) {
		_, cmd, _ := strings.Cut(p, " ")
		out = append(out, cmd)
	}
	return out
}

func (r *orphanRig) running(prefix string) bool {
	for _, c := range r.commands() {
		if strings.HasPrefix(c, prefix) {
			return true
		}
	}
	return false
}

// shellDirs lists the shell directories in gopi's TMPDIR.
func (r *orphanRig) shellDirs() []string {
	m, _ := filepath.Glob(filepath.Join(r.tmp, "gopi-shell-*"))
	return m
}

// kill -9 of gopi while a foreground command (with a background job of
// its own), an async job and an MCP stdio server (with a child of its
// own) run: nothing it started outlives it, and its shell's temporary
// directory goes too. They used to keep running under PID 1.
func TestKill9LeavesNoOrphans(t *testing.T) {
	fake, fakeArgs := mcptest.FakeServer()
	r := newOrphanRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": "sleep 1002", "async": true})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": "sleep 1000 & sleep 1001", "timeout": 3000})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never reached")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("async:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.writeMCPConfig(map[string]any{
		"fake": map[string]any{"command": fake, "args": fakeArgs, "env": map[string]string{mcptest.EnvMode: "grandchild", mcptest.EnvPIDFile: filepath.Join(r.Project, "mcp-child.pid")}},
	})
	gopi := r.start(t)
	testwait.Until(t, "the commands, the job and the MCP server to run", func() bool {
		return r.running("sleep 1000") && r.running("sleep 1001") && r.running("sleep 1002") && r.running("sleep 300") && len(r.shellDirs()) > 0
	})
	t.Logf("running: %q", r.commands())
	if err := gopi.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = gopi.Wait()
	testwait.Until(t, "every process gopi started to end", func() bool { return len(r.commands()) == 0 })
	testwait.Until(t, "the shell directory to be removed", func() bool { return len(r.shellDirs()) == 0 })
}

// When the guard dies with gopi (both killed at once, say), the shell
// directory gopi left is removed by the next gopi that starts a child,
// and only that one: a live gopi's directory, another user's or one
// named otherwise stays.
func TestStaleShellDirRemovedAtNextStart(t *testing.T) {
	r := newOrphanRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": "sleep 1003", "timeout": 3000})}},
		// The next gopi's turns.
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": "true"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}},
	)
	gopi := r.start(t)
	testwait.Until(t, "the command to run", func() bool { return r.running("sleep 1003") && len(r.shellDirs()) == 1 })
	stale := r.shellDirs()[0]
	// gopi, its guard and the shell's group go at once, the guard first:
	// a guard still alive when gopi goes cleans up (it did when the test
	// was descheduled between two kills).
	marked := shelltest.Marked(r.mark)
	for _, guard := range []bool{true, false} {
		for _, p := range marked {
			if strings.Contains(p, " "+childproc.GuardArg+" ") == guard {
				pid, _ := strconv.Atoi(strings.Fields(p)[0])
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	_ = gopi.Wait()
	testwait.Until(t, "everything to be gone", func() bool { return len(r.commands()) == 0 })
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("the shell directory went with its owner already: %v", err)
	}
	// Directories that must stay: one of a live process (this one), one
	// named otherwise.
	live, err := os.MkdirTemp(r.tmp, "gopi-shell-"+strconv.Itoa(os.Getpid())+"-"+selfStartTime(t)+"-"+pidNamespace(t)+"-")
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(r.tmp, "gopi-shell-notours")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}

	next := r.start(t)
	if err := next.Wait(); err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, "the stale directory to be removed", func() bool {
		_, err := os.Stat(stale)
		return os.IsNotExist(err)
	})
	testwait.Until(t, "the next gopi's guard to end", func() bool { return len(r.commands()) == 0 })
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// selfStartTime is this process's start time from /proc/self/stat.
func selfStartTime(t *testing.T) string {
	t.Helper()
	data := string(mustRead(t, "/proc/self/stat"))
	f := strings.Fields(data[strings.LastIndexByte(data, ')')+1:])
	return f[19]
}

// pidNamespace is the inode of this process's pid namespace.
func pidNamespace(t *testing.T) string {
	t.Helper()
	fi, err := os.Stat("/proc/self/ns/pid")
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatUint(fi.Sys().(*syscall.Stat_t).Ino, 10)
}
