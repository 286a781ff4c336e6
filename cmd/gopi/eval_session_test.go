package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// A new session (RPC new_session) gets its own Python kernel and
// JavaScript globals: the first session's variables are gone, and its
// kernel has stopped with the child process a cell started.
func TestEvalNewSessionFreshKernels(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("python3 is not installed; run scripts/setup.sh")
	}
	pidFile := filepath.Join(t.TempDir(), "sleep.pid")
	py := "*** Cell py\nimport subprocess\ntry:\n    print('old v', v)\nexcept NameError:\n    print('fresh python')\nv = 1\n" +
		"p = subprocess.Popen(['sleep', '1000'])\nopen(" + strconv.Quote(pidFile) + ", 'w').write(str(p.pid))"
	js := "*** Cell js\nconst seen = typeof jv === 'undefined' ? 'fresh js' : 'old jv ' + jv\nglobalThis.jv = 1\nseen"
	turn := func(id string) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("eval", map[string]any{"input": py + "\n" + js})}}
	}
	r := newAgentRig(t, turn("a"), mockllm.Turn{Blocks: []mockllm.Block{text("one")}}, turn("b"), mockllm.Turn{Blocks: []mockllm.Block{text("two")}})
	rr := startRPC(t, r)
	prompt := func() string {
		end := rr.Expect("agent_end")
		if resp := rr.Call("prompt", map[string]any{"message": "go"}); !resp.Success {
			t.Fatalf("prompt: %+v", resp)
		}
		end()
		return string(rr.Call("get_messages", nil).Data)
	}
	first := prompt()
	if !strings.Contains(first, "fresh python") || !strings.Contains(first, "fresh js") {
		t.Fatalf("first session: %s", first)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	if resp := rr.Call("new_session", nil); !resp.Success {
		t.Fatalf("new_session: %+v", resp)
	}
	if alive(pid) {
		t.Errorf("the first session's kernel child (sleep, pid %d) outlived new_session", pid)
	}
	second := prompt()
	if strings.Contains(second, "old v 1") || strings.Contains(second, "old jv 1") ||
		!strings.Contains(second, "fresh python") || !strings.Contains(second, "fresh js") {
		t.Fatalf("the new session saw the old one's state: %s", second)
	}
	// The second session's kernel ends with gopi, its child with it.
	if b, err = os.ReadFile(pidFile); err != nil {
		t.Fatal(err)
	}
	pid, _ = strconv.Atoi(string(b))
	rr.Stdin.Close()
	testwait.Recv(t, "gopi to exit", rr.Exit)
	if alive(pid) {
		t.Errorf("the second session's kernel child (sleep, pid %d) outlived gopi", pid)
	}
}

// alive reports whether pid runs (a zombie waiting for its parent counts
// as ended).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
