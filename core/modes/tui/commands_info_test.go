package tui

import (
	"os"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// /context breaks the window down by part, with shares; /usage sums the
// answers per model.
func TestSlashContextAndUsage(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("an answer")}, Usage: &mockllm.Usage{Input: 1200, Output: 300, CacheRead: 50}})
	r.typeAndSend("/usage")
	r.settle()
	if !r.printedHas("No usage yet") {
		t.Errorf("/usage before any answer:\n%s", r.transcript())
	}
	r.typeAndSend("a question with some words in it")
	r.idle()
	r.typeAndSend("/context")
	r.settle()
	for _, want := range []string{"Context usage", "mock/mock-model", "of 100.0k tokens", "System prompt", "Tool definitions", "Your messages", "Answers", "Tool results", "Compaction buffer", "Free", "%"} {
		if !r.printedHas(want) {
			t.Errorf("/context lacks %q:\n%s", want, r.transcript())
		}
	}
	cu := r.s.Conversation().ContextUsage()
	sum := 0
	for _, p := range cu.Parts {
		sum += p.Tokens
		if p.Label == "System prompt" && p.Tokens == 0 || p.Label == "Tool definitions" && p.Tokens == 0 {
			t.Errorf("%s counts no tokens", p.Label)
		}
	}
	if sum != cu.Used || cu.Used+cu.Buffer+cu.Free != cu.Window {
		t.Errorf("parts %d, used %d, buffer %d, free %d, window %d", sum, cu.Used, cu.Buffer, cu.Free, cu.Window)
	}
	r.typeAndSend("/usage")
	r.settle()
	if !r.printedHas("Usage of this session") || !r.printedHas("mock/mock-model") || !r.printedHas("1.2k") {
		t.Errorf("/usage:\n%s", r.transcript())
	}
	us := r.s.Conversation().UsageByModel()
	if len(us) != 1 || us[0].Requests != 1 || us[0].Tokens.Input != 1200 || us[0].Tokens.Output != 300 || us[0].Tokens.CacheRead != 50 {
		t.Errorf("usage %+v", us)
	}
}

// The listing commands answer with what the session has.
func TestSlashListings(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	for _, c := range []struct{ cmd, want string }{
		{"/tools", "Tools offered to the model"},
		{"/tools", "bash"},
		{"/jobs", "Background jobs"},
		{"/changelog", "gopi ships no changelog file"},
		{"/memory", "The memory backend is off in this session"},
		{"/memory frobnicate", "Usage: /memory <view|clear|reset|enqueue|rebuild|mm …>"},
		{"/browser", "Browser mode: headless"},
		{"/browser visible", "Browser mode: visible"},
		{"/browser", "Browser mode: visible"},
		{"/browser headless", "Browser mode: headless (no window)"},
		{"/browser sideways", "Usage: /browser [headless|visible]"},
		{"/marketplace", "No marketplace plugins to browse"},
		{"/marketplace frobnicate", "unknown subcommand \"frobnicate\""},
		{"/plugins", "No plugins installed"},
		{"/reload-plugins", "Plugins load when a session starts"},
		{"/background", "The agent is idle"},
		{"/bg", "The agent is idle"},
	} {
		r.printed = nil
		r.typeAndSend(c.cmd)
		r.settle()
		if !r.printedHas(c.want) {
			t.Errorf("%s lacks %q:\n%s", c.cmd, c.want, r.transcript())
		}
		if r.printedHas("Unknown command") {
			t.Errorf("%s is unknown", c.cmd)
		}
	}
}

// /help lists every command of the table, and aliases run their command.
func TestSlashHelpListsAll(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.typeAndSend("/help")
	r.settle()
	for _, c := range commands {
		if !r.printedHas("/" + c.name) {
			t.Errorf("/help lacks /%s", c.name)
		}
	}
	for alias := range commandAliases {
		if !BuiltinCommand(alias) {
			t.Errorf("alias /%s is not a built-in", alias)
		}
	}
	if !strings.Contains(r.transcript(), "/usage") {
		t.Error("no /usage")
	}
}

// /debug offers system facts, the conversation in a file, the artifacts.
func TestSlashDebug(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("an answer"))
	r.typeAndSend("/debug")
	if r.m.picker == nil || r.m.picker.title != "Debug" {
		t.Fatal("no debug picker")
	}
	r.key("enter")
	r.settle()
	if !r.printedHas("session     " + r.s.SessionFile()) {
		t.Errorf("system info:\n%s", r.transcript())
	}
	r.typeAndSend("/debug")
	r.key("down")
	r.key("enter")
	r.settle()
	if !r.printedHas("No messages to write yet") {
		t.Errorf("empty transcript:\n%s", r.transcript())
	}
	r.typeAndSend("hello")
	r.idle()
	r.printed = nil
	r.typeAndSend("/debug")
	r.key("down")
	r.key("enter")
	r.settle()
	_, path, ok := strings.Cut(r.transcript(), "Transcript written to:\n")
	path = strings.TrimSpace(path)
	data, err := os.ReadFile(path)
	if !ok || err != nil || !strings.Contains(string(data), "## User\n\nhello") {
		t.Errorf("transcript file %q (%v):\n%s", path, err, data)
	}
	os.Remove(path)
	r.typeAndSend("/debug")
	r.key("down")
	r.key("down")
	r.key("enter")
	r.settle()
	if !r.printedHas("No artifacts yet") && !r.printedHas("Artifacts: ") {
		t.Errorf("artifacts:\n%s", r.transcript())
	}
}
