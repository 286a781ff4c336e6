package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// /fork continues in a copy of the whole session; the original stays.
func TestSlashFork(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("first answer"), answer("answer in the fork"))
	r.typeAndSend("hello")
	r.idle()
	old := r.s.SessionFile()
	r.typeAndSend("/fork")
	r.until("the fork", func() bool { return r.printedHas("Session forked to") || r.printedHas("✗") })
	r.idle()
	forked := r.s.SessionFile()
	if forked == old || !r.printedHas("Session forked to "+filepath.Base(forked)) {
		t.Fatalf("/fork: file %s (was %s):\n%s", forked, old, r.transcript())
	}
	if len(r.s.Messages()) != 2 {
		t.Errorf("the fork holds %d messages, want the 2 of the original", len(r.s.Messages()))
	}
	data, err := os.ReadFile(forked)
	if err != nil || !strings.Contains(string(data), "first answer") || !strings.Contains(string(data), `"parentSession"`) {
		t.Errorf("forked file (%v):\n%s", err, data)
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("the original is gone: %v", err)
	}
	r.typeAndSend("go on")
	r.idle()
	if data, _ := os.ReadFile(old); strings.Contains(string(data), "go on") {
		t.Error("a message after the fork reached the original file")
	}
}

// /drop deletes the session file and starts a new session.
func TestSlashDrop(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("an answer"))
	r.typeAndSend("hello")
	r.idle()
	old := r.s.SessionFile()
	r.typeAndSend("/drop")
	r.until("the drop", func() bool { return r.printedHas("session dropped") || r.printedHas("✗") })
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the dropped file is still there: %v", err)
	}
	if r.s.SessionFile() == old || len(r.s.Messages()) != 0 {
		t.Errorf("no new session after /drop: %s, %d messages", r.s.SessionFile(), len(r.s.Messages()))
	}
}

// /move takes the session file to another directory's session folder and
// records the new cwd; /rename names the session.
func TestSlashMoveAndRename(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("an answer"))
	r.typeAndSend("hello")
	r.idle()
	old := r.s.SessionFile()
	other := filepath.Join(filepath.Dir(r.project), "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	r.typeAndSend("/move ../other")
	r.until("the move", func() bool { return r.printedHas("Session moved to") || r.printedHas("✗") })
	r.settle()
	moved := r.s.SessionFile()
	if !r.printedHas("Session moved to "+other) || moved == old || filepath.Base(moved) != filepath.Base(old) {
		t.Fatalf("/move: %s → %s:\n%s", old, moved, r.transcript())
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the old file is still there: %v", err)
	}
	data, _ := os.ReadFile(moved)
	if !strings.Contains(string(data), `"cwd":"`+other+`"`) {
		t.Errorf("the moved header does not record %s:\n%s", other, data)
	}
	if r.s.Tools().Env().Cwd != other || r.m.opts.Cwd != other {
		t.Errorf("the tools work in %s, the UI in %s", r.s.Tools().Env().Cwd, r.m.opts.Cwd)
	}
	r.typeAndSend("/move no-such-dir")
	r.until("the refusal", func() bool { return r.printedHas("Directory does not exist") })

	r.typeAndSend("/rename  The   big job ")
	r.settle()
	if got := r.s.State().SessionName; got != "The big job" {
		t.Errorf("name %q", got)
	}
	if data, _ := os.ReadFile(moved); !strings.Contains(string(data), `"title":"The big job"`) {
		t.Errorf("the name is not in the file:\n%s", data)
	}
	r.typeAndSend("/rename")
	r.settle()
	if !r.printedHas("Usage: /rename <title>") {
		t.Errorf("/rename without a title:\n%s", r.transcript())
	}
}

// /retry sends a failed turn again; with nothing failed it says so.
func TestSlashRetry(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Status: 400, ErrorMessage: "bad request today"}, answer("it worked now"))
	r.typeAndSend("/retry")
	r.settle()
	if !strings.Contains(r.view(), "Nothing to retry") {
		t.Errorf("/retry with nothing failed: %s", r.view())
	}
	r.typeAndSend("try this")
	r.idle()
	if !r.printedHas("bad request today") {
		t.Fatalf("no error shown:\n%s", r.transcript())
	}
	r.typeAndSend("/retry")
	r.until("the retry", func() bool { return r.printedHas("it worked now") })
	r.idle()
	msgs := r.s.Messages()
	if len(msgs) != 2 {
		t.Fatalf("%d messages after the retry, want the prompt and the new answer", len(msgs))
	}
	if a, ok := msgs[1].(*ai.AssistantMessage); !ok || a.StopReason == ai.StopReasonError {
		t.Errorf("last message %#v", msgs[1])
	}
	if n := len(r.llm.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// /btw asks about the conversation without changing it.
func TestSlashBtw(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("the answer is 42"), answer("You asked about the answer."))
	r.typeAndSend("what is the answer?")
	r.idle()
	r.typeAndSend("/btw what did I ask?")
	r.until("the side answer", func() bool { return r.printedHas("You asked about the answer.") || r.printedHas("✗") })
	if !r.printedHas("btw: what did I ask?") {
		t.Errorf("transcript:\n%s", r.transcript())
	}
	if n := len(r.s.Messages()); n != 2 {
		t.Errorf("/btw changed the conversation: %d messages", n)
	}
	reqs := r.llm.Requests()
	last := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(last, "what did I ask?") || !strings.Contains(last, "the answer is 42") {
		t.Errorf("the side question lacks the question or the conversation:\n%s", last)
	}
	r.typeAndSend("/btw")
	r.settle()
	if !r.printedHas("Usage: /btw <question>") {
		t.Error("/btw without a question")
	}
}

// /dump needs a conversation; its text comes from TranscriptText.
func TestSlashDump(t *testing.T) {
	t.Parallel()
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{mockllm.Thinking("hmm", "sig"), text("Here."), mockllm.ToolCall("bash", `{"command":"echo hi"}`)}}, answer("done"))
	r.typeAndSend("/dump")
	r.settle()
	if !r.printedHas("No messages to dump yet") {
		t.Errorf("/dump on an empty session:\n%s", r.transcript())
	}
	r.typeAndSend("run it")
	r.idle()
	r.typeAndSend("/dump")
	r.settle()
	if !strings.Contains(r.view(), "Session copied to clipboard") {
		t.Errorf("/dump: %s", r.view())
	}
	tr := r.s.Conversation().Text()
	for _, want := range []string{"## System Prompt", "Model: mock/mock-model", "## Available Tools", "### bash", "## User\n\nrun it", "<thinking>\nhmm\n</thinking>", "Tool call `bash`", `"command":"echo hi"`, "### Tool Result: bash", "hi\n", "## Assistant\n\ndone"} {
		if !strings.Contains(tr, want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
}

// /session delete asks first, deletes the file, starts a new session and
// offers the others.
func TestSlashSessionDelete(t *testing.T) {
	t.Parallel()
	r := newRig(t, answer("an answer"))
	r.typeAndSend("/session delete")
	r.settle()
	if !r.printedHas("has not been saved yet") {
		t.Errorf("an unsaved session:\n%s", r.transcript())
	}
	r.typeAndSend("hello")
	r.idle()
	old := r.s.SessionFile()
	r.typeAndSend("/session delete")
	if r.m.picker == nil {
		t.Fatal("no confirmation")
	}
	r.key("enter") // "Keep the session" comes first
	r.settle()
	if _, err := os.Stat(old); err != nil {
		t.Fatalf("kept session deleted: %v", err)
	}
	r.typeAndSend("/session delete")
	r.key("down")
	r.key("enter")
	r.until("the deletion", func() bool { return r.printedHas("session deleted") })
	r.settle()
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the file is still there: %v", err)
	}
	if r.s.SessionFile() == old || len(r.s.Messages()) != 0 {
		t.Error("no new session after the deletion")
	}
	r.typeAndSend("/session frob")
	r.settle()
	if !r.printedHas("Usage: /session [info|delete]") {
		t.Errorf("bad argument:\n%s", r.transcript())
	}
}

// A side question waiting for its answer shows in the live area; Esc
// dismisses it and its answer is not printed.
func TestSlashBtwDismissed(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	r := newRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("too late")}, Hold: hold})
	r.typeAndSend("/btw is it raining?")
	if !strings.Contains(r.view(), "btw: is it raining?") {
		t.Fatalf("view:\n%s", r.view())
	}
	r.key("esc")
	if strings.Contains(r.view(), "btw: is it raining?") || !strings.Contains(r.view(), "Side question dismissed") {
		t.Errorf("after Esc:\n%s", r.view())
	}
	close(hold)
	r.settle()
	if r.printedHas("too late") {
		t.Errorf("a dismissed answer was printed:\n%s", r.transcript())
	}
}
