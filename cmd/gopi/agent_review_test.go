package main

import (
	"os"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// "-r" without an id lists the sessions, as "--resume" does, wherever it
// stands among the flags.
func TestShortResumeWithoutIDLists(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("hello")}})
	if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "first message"); code != 0 {
		t.Fatalf("first run: %d %s", code, stderr)
	}
	for _, args := range [][]string{{"-r"}, {"--resume"}, {"-r", "-p"}, {"-p", "-r"}} {
		out, stderr, code := r.run("", args...)
		if code != 0 || !strings.Contains(out, "first message") {
			t.Errorf("gopi %v: exit %d, stdout %q, stderr %q; want the session list", args, code, out, stderr)
		}
	}
}

// An @file is read up to its limit whatever stat says: files under /proc
// report size 0 (and /proc/self/pagemap holds gigabytes), a log may grow
// while it is read.
func TestFileArgReadIsBounded(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	old := maxFileArg
	maxFileArg = 100
	defer func() { maxFileArg = old }()
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	if _, stderr, code := r.run("", "-p", "--no-session", "@/proc/self/status", "what is this?"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	msgs := mustMarshal(t, r.requestMessages(0))
	if strings.Contains(msgs, "VmRSS") || !strings.Contains(msgs, "skipped: too large") {
		t.Fatalf("a /proc file larger than the limit was inlined: %s", msgs)
	}
}
