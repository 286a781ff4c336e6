package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// /fast switches the priority tier and records it in the session.
func TestSlashFast(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("ok"))
	r.typeAndSend("/fast")
	r.settle()
	if !r.s.Model().FastMode() || !strings.Contains(r.view(), "Fast mode enabled") || !strings.Contains(r.m.footer(), "· fast") {
		t.Fatalf("/fast did not turn it on: %s", r.view())
	}
	r.typeAndSend("/fast status")
	r.settle()
	if !strings.Contains(r.view(), "Fast mode is on") {
		t.Errorf("/fast status: %s", r.view())
	}
	r.typeAndSend("hello")
	r.idle()
	data, _ := os.ReadFile(r.s.SessionFile())
	if !strings.Contains(string(data), `"type":"service_tier_change"`) || !strings.Contains(string(data), `"serviceTier":"priority"`) {
		t.Errorf("no service tier entry:\n%s", data)
	}
	r.typeAndSend("/fast off")
	r.settle()
	if r.s.Model().FastMode() {
		t.Error("/fast off left it on")
	}
	r.typeAndSend("/fast maybe")
	r.settle()
	if !r.printedHas("Usage: /fast [on|off|status]") {
		t.Errorf("bad argument:\n%s", r.transcript())
	}
}

// /force makes the next call use the tool named; a prompt after it is sent.
func TestSlashForce(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"echo forced"}`)}}, answer("done"))
	r.typeAndSend("/force nosuchtool")
	r.settle()
	if !r.printedHas(`No tool "nosuchtool" is offered`) {
		t.Errorf("unknown tool:\n%s", r.transcript())
	}
	r.typeAndSend("/force bash list the files")
	r.until("the run", func() bool { return r.printedHas("done") })
	r.idle()
	reqs := r.llm.Requests()
	if len(reqs) == 0 || !strings.Contains(string(reqs[0].Body), `"tool_choice":{"name":"bash","type":"tool"}`) && !strings.Contains(string(reqs[0].Body), `"tool_choice":{"type":"tool","name":"bash"}`) {
		t.Errorf("the first request does not force bash:\n%s", reqs[0].Body)
	}
	if !strings.Contains(string(reqs[0].Body), "list the files") {
		t.Error("the prompt after the tool's name was not sent")
	}
}

// /loop 2 sends the next prompt again twice, then turns itself off.
func TestSlashLoopWithCount(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("one"), answer("two"), answer("three"), answer("never"))
	r.typeAndSend("/loop 2")
	r.settle()
	if !r.printedHas("Loop mode enabled. Limited to 2 repeats.") {
		t.Fatalf("/loop 2:\n%s", r.transcript())
	}
	r.typeAndSend("check the build")
	r.until("the loop to end", func() bool { return r.printedHas("Loop limit reached") })
	r.idle()
	if n := len(r.llm.Requests()); n != 3 {
		t.Errorf("%d requests, want the prompt and 2 repeats", n)
	}
	if r.m.loop.on {
		t.Error("the loop is still on")
	}
	r.typeAndSend("/loop 3 fortnights")
	r.settle()
	if !r.printedHas("unit must be seconds, minutes or hours") || r.m.loop.on {
		t.Errorf("bad unit:\n%s", r.transcript())
	}
}

// /loop again turns it off; Esc pauses it (the prompt is forgotten).
func TestSlashLoopOffAndPause(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("one"))
	r.typeAndSend("/loop")
	r.settle()
	r.m.loopSent("again")
	r.key("esc")
	if r.m.loop.prompt != "" || !r.m.loop.on {
		t.Errorf("Esc: %+v", r.m.loop)
	}
	r.typeAndSend("/loop")
	r.settle()
	if r.m.loop.on || !r.printedHas("Loop mode disabled") {
		t.Errorf("/loop again:\n%s", r.transcript())
	}
	// A stale resend (the loop changed since) does nothing.
	if cmd := r.m.onLoopResend(loopResendMsg{gen: r.m.loop.gen - 1}); cmd != nil {
		t.Error("a stale resend ran")
	}
}

func TestParseLoopLimit(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "10": "10 repeats", "1": "1 repeat", "10m": "10 minutes", "10min": "10 minutes", "2 hours": "2 hours",
		"90s": "90 seconds", "1h": "1 hour", "120 m": "2 hours",
	} {
		l, err := parseLoopLimit(in)
		got := ""
		if l != nil {
			got = l.String()
		}
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "-3", "ten", "10 parsecs", "1 2 3", "5x", "m", "99999999999999999999", "9999999999999h"} {
		if l, err := parseLoopLimit(in); err == nil {
			t.Errorf("%q parsed as %v", in, l)
		}
	}
}

func FuzzParseLoopLimit(f *testing.F) {
	for _, s := range []string{"", "10", "10m", "2 hours", "0", "1 2 3", "9999999999999h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := parseLoopLimit(s)
		if err == nil && l != nil {
			if (l.runs > 0) == (l.d > 0) || l.runs < 0 || l.d < 0 {
				t.Fatalf("%q: %+v", s, l)
			}
			_ = l.String()
		}
	})
}

// /share exports the page and publishes it with gh as a secret gist.
func TestSlashShare(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("an answer"))
	r.typeAndSend("hello")
	r.idle()
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$*\" >> " + log + "\ncase \"$1\" in auth) exit 0;; gist) test -s \"$4\" || exit 3; echo https://gist.github.com/me/f00d;; esac\n"
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r.m.opts.Environ = []string{"PATH=" + dir + ":/usr/bin:/bin"}
	r.typeAndSend("/share")
	r.until("the share", func() bool { return r.printedHas("Share URL") || r.printedHas("✗") })
	if !r.printedHas("Share URL: https://gistpreview.github.io/?f00d") || !r.printedHas("Gist: https://gist.github.com/me/f00d") {
		t.Errorf("/share:\n%s", r.transcript())
	}
	calls, _ := os.ReadFile(log)
	if !strings.Contains(string(calls), "gist create --public=false ") {
		t.Errorf("gh calls:\n%s", calls)
	}
	r.m.opts.Environ = []string{"PATH=" + t.TempDir()}
	r.typeAndSend("/share")
	r.until("the failure", func() bool { return r.printedHas("GitHub CLI (gh) is not installed") })
}

// /background while the agent works ends the UI; the agent goes on.
func TestSlashBackgroundWhileWorking(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("slow answer")}, Hold: hold})
	r.typeAndSend("work")
	r.until("the run to start", func() bool { return r.m.running })
	r.typeAndSend("/background")
	if !r.m.backgrounded || !r.m.quitting {
		t.Fatalf("/background: backgrounded %v, quitting %v", r.m.backgrounded, r.m.quitting)
	}
	close(hold)
	done := make(chan struct{})
	go func() { waitInBackground(r.m.ctx, r.s, nil); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the agent did not finish in the background")
	}
	if got := r.s.LastAssistantText(); got != "slow answer" {
		t.Errorf("the answer was %q", got)
	}
}

// loop.mode reset starts a new session before each repeat.
func TestSlashLoopResetMode(t *testing.T) {
	t.Parallel()
	r := newRigWith(t, "loop:\n  mode: reset\n", answer("one"), answer("two"))
	r.typeAndSend("/loop 1")
	r.settle()
	if !strings.Contains(r.m.footer(), "· loop") {
		t.Errorf("footer %q", r.m.footer())
	}
	r.typeAndSend("check the build")
	r.until("the loop to end", func() bool { return r.printedHas("Loop limit reached") })
	r.idle()
	if !r.printedHas("new session (loop)") || len(r.s.Messages()) != 2 {
		t.Errorf("the repeat did not start afresh: %d messages\n%s", len(r.s.Messages()), r.transcript())
	}
	if reqs := r.llm.Requests(); len(reqs) != 2 || strings.Contains(string(reqs[1].Body), `"one"`) {
		t.Errorf("%d requests; the second carries the first conversation", len(reqs))
	}
}

// /copy takes the last answer, its code blocks, or the last command.
func TestSlashCopyForms(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"go test ./..."}`)}},
		answer("Two blocks:\n\n```go\nfmt.Println(1)\n```\n\nand\n\n```sh\nmake\n```\n"))
	r.typeAndSend("run")
	r.idle()
	for _, c := range []struct{ cmd, want string }{
		{"/copy", "Copied the last answer"},
		{"/copy code", "Copied the last code block"},
		{"/copy all", "Copied 2 code block(s)"},
		{"/copy cmd", "Copied the last bash command"},
	} {
		r.typeAndSend(c.cmd)
		r.settle()
		if !strings.Contains(r.view(), c.want) {
			t.Errorf("%s: %s", c.cmd, r.view())
		}
	}
	r.typeAndSend("/copy sideways")
	r.settle()
	if !r.printedHas(`Unknown /copy argument "sideways"`) {
		t.Errorf("bad argument:\n%s", r.transcript())
	}
	r.typeAndSend("/export --copy")
	r.settle()
	if !r.printedHas("/dump copies the session") {
		t.Errorf("/export --copy:\n%s", r.transcript())
	}
}
