package acp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// By default (no acp.requirePermission) the editor is asked before every
// call that writes or runs — bash, write and edit, inside the project or
// out of it — and not before reads; with every request rejected nothing
// runs and the model is told each time.
func TestDefaultPermissions(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{
			toolCallBlock("bash", map[string]any{"command": "echo ran > ran.txt"}),
			toolCallBlock("write", map[string]any{"path": "../outside.txt", "content": "escaped\n"}),
			toolCallBlock("edit", map[string]any{"path": "greet.go", "edits": []any{map[string]any{"old_text": `"Hello"`, "new_text": `"Bye"`}}}),
			toolCallBlock("read", map[string]any{"path": "greet.go"}),
		}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Nothing was allowed.")}},
	)
	r.settings(`{"edit": {"mode": "replace"}}`)
	r.write(filepath.Join(r.project, "greet.go"), greetGo)
	r.connect(sdk.FileSystemCapabilities{})
	r.client.answer = answer(permission.RejectOnce)
	sess := r.newSession()
	if got := r.prompt(sess.SessionId, "change things"); got != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	var asked []string
	for _, p := range r.client.asked() {
		asked = append(asked, fmt.Sprintf("%s %s", *p.ToolCall.Kind, *p.ToolCall.Title))
		if len(p.Options) != 4 || p.Options[0].Kind != sdk.PermissionOptionKindAllowOnce || p.Options[1].Kind != sdk.PermissionOptionKindAllowAlways ||
			p.Options[2].Kind != sdk.PermissionOptionKindRejectOnce || p.Options[3].Kind != sdk.PermissionOptionKindRejectAlways {
			t.Errorf("options %+v", p.Options)
		}
	}
	outside := filepath.Join(filepath.Dir(r.project), "outside.txt")
	want := []string{"execute Run echo ran > ran.txt", "edit Write " + outside, "edit Edit " + filepath.Join(r.project, "greet.go")}
	if strings.Join(asked, "\n") != strings.Join(want, "\n") {
		t.Fatalf("asked about:\n%s\nwant:\n%s", strings.Join(asked, "\n"), strings.Join(want, "\n"))
	}
	if fileExists(filepath.Join(r.project, "ran.txt")) || fileExists(outside) || r.read("greet.go") != greetGo {
		t.Fatal("a rejected call ran")
	}
	body := r.requestText(1)
	for _, tool := range []string{"bash", "write", "edit"} {
		if !strings.Contains(body, "The user rejected this "+tool+" call") {
			t.Errorf("the model was not told that %s was rejected", tool)
		}
	}
	if !strings.Contains(body, `return \"Hello\"`) {
		t.Error("the read did not run")
	}
}

// "Always allow" and "always reject" hold for the rest of the session
// and not for the next one.
func TestAlwaysAnswersArePerSession(t *testing.T) {
	t.Parallel()
	bash := func(s string) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("bash", map[string]any{"command": "echo " + s + " >> log.txt"})}}
	}
	done := mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}}
	r := newRig(t, bash("one"), done, bash("two"), done, bash("three"), bash("four"), done)
	r.connect(sdk.FileSystemCapabilities{})
	r.client.answer = answer(permission.AllowAlways)
	first := r.newSession()
	r.prompt(first.SessionId, "log one")
	r.prompt(first.SessionId, "log two")
	if n := len(r.client.asked()); n != 1 {
		t.Fatalf("%d requests in the first session, want 1 (allow always)", n)
	}
	if got := r.read("log.txt"); got != "one\ntwo\n" {
		t.Fatalf("log.txt %q", got)
	}
	r.client.answer = answer(permission.RejectAlways)
	second := r.newSession()
	r.prompt(second.SessionId, "log three and four")
	if n := len(r.client.asked()); n != 2 {
		t.Fatalf("%d requests after the second session, want 2 (asked again once, then reject always)", n)
	}
	if got := r.read("log.txt"); got != "one\ntwo\n" {
		t.Fatalf("log.txt %q: a rejected bash ran", got)
	}
	if body := r.requestText(6); !strings.Contains(body, "The user rejected every bash call for the rest of this session") {
		t.Fatalf("the model was not told of the lasting rejection:\n%s", body)
	}
}

// A task's subagents, and theirs, go through the same gate: each of their
// calls that writes or runs is asked about, named after its subagent,
// shown as its own tool call and closed when it ends; a rejection blocks
// a subagent's call as it does the session's.
func TestSubagentPermissions(t *testing.T) {
	t.Parallel()
	task := func(id, assignment string) mockllm.Block {
		return toolCallBlock("task", map[string]any{"agent": "implement", "tasks": []map[string]string{{"id": id, "description": id, "assignment": assignment}}})
	}
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{task("Fix", "ASSIGN-FIX: log, write and delegate")}},
		mockllm.Turn{Match: "ASSIGN-FIX", Blocks: []mockllm.Block{
			toolCallBlock("bash", map[string]any{"command": "echo child >> log.txt"}),
			toolCallBlock("write", map[string]any{"path": "child.txt", "content": "child\n"}),
		}},
		mockllm.Turn{Match: "ASSIGN-FIX", Blocks: []mockllm.Block{task("Deep", "ASSIGN-DEEP: write deep.txt")}},
		mockllm.Turn{Match: "ASSIGN-DEEP", Blocks: []mockllm.Block{toolCallBlock("write", map[string]any{"path": "deep.txt", "content": "deep\n"})}},
		mockllm.Turn{Match: "ASSIGN-DEEP", Blocks: []mockllm.Block{mockllm.Text("deep refused")}},
		mockllm.Turn{Match: "ASSIGN-FIX", Blocks: []mockllm.Block{mockllm.Text("child done")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("all done")}},
	)
	r.connect(sdk.FileSystemCapabilities{})
	r.client.answer = func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		if strings.Contains(*p.ToolCall.Title, "Deep") {
			return sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(permission.RejectOnce))
		}
		return sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(permission.AllowOnce))
	}
	sess := r.newSession()
	if got := r.prompt(sess.SessionId, "fix it with help"); got != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	asked := r.client.asked()
	if len(asked) != 3 {
		for _, p := range asked {
			t.Logf("asked: %s", *p.ToolCall.Title)
		}
		t.Fatalf("%d requests, want 3 (the subagent's bash and write, the sub-subagent's write)", len(asked))
	}
	for i, want := range []struct{ agent, title string }{
		{"Fix", "Run echo child >> log.txt"},
		{"Fix", "Write " + filepath.Join(r.project, "child.txt")},
		{"Deep", "Write " + filepath.Join(r.project, "deep.txt")},
	} {
		title := *asked[i].ToolCall.Title
		if !strings.HasPrefix(title, "Subagent ") || !strings.Contains(title, want.agent+": "+want.title) {
			t.Errorf("request %d: title %q, want subagent %s and %q", i, title, want.agent, want.title)
		}
	}
	if r.read("log.txt") != "child\n" || r.read("child.txt") != "child\n" || fileExists(filepath.Join(r.project, "deep.txt")) {
		t.Error("the allowed calls did not run, or the rejected one did")
	}
	_, byID := calls(r.client.take())
	for i, want := range []sdk.ToolCallStatus{sdk.ToolCallStatusCompleted, sdk.ToolCallStatusCompleted, sdk.ToolCallStatusFailed} {
		id := string(asked[i].ToolCall.ToolCallId)
		if v := byID[id]; v == nil || v.lastStatus() != want {
			t.Errorf("the card of request %d (%s) ended %+v, want %s", i, id, v, want)
		}
	}
	deep := false
	for _, req := range r.llm.Requests() {
		if b := string(req.Body); strings.Contains(b, "ASSIGN-DEEP") && strings.Contains(b, "The user rejected this write call") {
			deep = true
		}
	}
	if !deep {
		t.Error("the sub-subagent was not told that its write was rejected")
	}
}

// An editor that never answers does not hang the agent: session/cancel
// ends the turn and withdraws the pending request ($/cancel_request ends
// the editor's handler), and the call does not run.
func TestCancelWithdrawsPermissionRequest(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("bash", map[string]any{"command": "echo ran > ran.txt"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never asked for")}},
	)
	r.connect(sdk.FileSystemCapabilities{})
	waiting, withdrawn := make(chan struct{}), make(chan struct{})
	r.client.ask = func(ctx context.Context, _ sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		close(waiting)
		<-ctx.Done()
		close(withdrawn)
		return sdk.RequestPermissionResponse{}, ctx.Err()
	}
	sess := r.newSession()
	stop := make(chan sdk.StopReason, 1)
	go func() { stop <- r.prompt(sess.SessionId, "run it") }()
	select {
	case <-waiting:
	case got := <-stop:
		t.Fatalf("the prompt ended (%s) without asking the editor", got)
	}
	if err := r.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	if got := <-stop; got != sdk.StopReasonCancelled {
		t.Fatalf("stop reason %q", got)
	}
	<-withdrawn
	if fileExists(filepath.Join(r.project, "ran.txt")) {
		t.Fatal("the call ran although its request was withdrawn")
	}
	if n := len(r.llm.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
}

// Cancelling the prompt withdraws a subagent's pending request too: the
// subagent's run ends with its parent's.
func TestCancelWithdrawsSubagentRequest(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("task", map[string]any{"agent": "implement", "tasks": []map[string]string{
			{"id": "Fix", "description": "fix", "assignment": "ASSIGN-FIX: run it"},
		}})}},
		mockllm.Turn{Match: "ASSIGN-FIX", Blocks: []mockllm.Block{toolCallBlock("bash", map[string]any{"command": "echo ran > ran.txt"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("never asked for")}},
	)
	r.connect(sdk.FileSystemCapabilities{})
	waiting, withdrawn := make(chan string, 1), make(chan struct{})
	r.client.ask = func(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		waiting <- *p.ToolCall.Title
		<-ctx.Done()
		close(withdrawn)
		return sdk.RequestPermissionResponse{}, ctx.Err()
	}
	sess := r.newSession()
	stop := make(chan sdk.StopReason, 1)
	go func() { stop <- r.prompt(sess.SessionId, "delegate") }()
	select {
	case title := <-waiting:
		if !strings.HasPrefix(title, "Subagent ") {
			t.Fatalf("request %q is not the subagent's", title)
		}
	case got := <-stop:
		t.Fatalf("the prompt ended (%s) without asking the editor", got)
	}
	if err := r.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	if got := <-stop; got != sdk.StopReasonCancelled {
		t.Fatalf("stop reason %q", got)
	}
	<-withdrawn
	if fileExists(filepath.Join(r.project, "ran.txt")) {
		t.Fatal("the subagent's call ran although its request was withdrawn")
	}
}
