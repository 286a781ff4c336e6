package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

const greetGo = "package main\n\nfunc greet() string {\n\treturn \"Hello\"\n}\n"

// A prompt streams the thinking and the text as chunks, announces each
// tool call with its kind, title and location, reports its progress and
// outcome, shows the edit as a diff of the whole file, and ends the turn;
// session/load then replays the conversation and the session goes on.
func TestPromptToolCallsDiffAndLoad(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Thinking("Look first.", "sig"), mockllm.Text("Reading it."), toolCallBlock("read", map[string]any{"path": "greet.go"})}},
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("edit", map[string]any{"path": "greet.go", "edits": []any{map[string]any{"old_text": `"Hello"`, "new_text": `"Hello, world!"`}}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("It says Hello, world!")}},
	)
	r.settings(`{"edit": {"mode": "replace"}}`)
	r.write(filepath.Join(r.project, "greet.go"), greetGo)
	r.connect(sdk.FileSystemCapabilities{})
	r.client.answer = answer(permission.AllowOnce)
	sess := r.newSession()
	if len(sess.ConfigOptions) != 2 || sess.ConfigOptions[0].Select.CurrentValue != "mock/mock-model" || sess.Models.CurrentModelId != "mock/mock-model" {
		t.Fatalf("config options %+v, models %+v", sess.ConfigOptions, sess.Models)
	}

	if got := r.prompt(sess.SessionId, "make greet say Hello, world!"); got != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	updates := r.client.take()
	if got := text(updates, true); got != "Look first." {
		t.Errorf("thoughts %q", got)
	}
	if got := text(updates, false); got != "Reading it.Done." {
		t.Errorf("message %q", got)
	}
	ids, byID := calls(updates)
	if len(ids) != 2 {
		t.Fatalf("tool calls %v", ids)
	}
	abs := filepath.Join(r.project, "greet.go")
	read, edit := byID[ids[0]], byID[ids[1]]
	if read.kind != sdk.ToolKindRead || read.title != "Read "+abs || read.lastStatus() != sdk.ToolCallStatusCompleted || !strings.Contains(read.contentText(), `return "Hello"`) {
		t.Errorf("read call %+v", read)
	}
	if read.statuses[0] != sdk.ToolCallStatusPending || !contains(read.statuses, sdk.ToolCallStatusInProgress) {
		t.Errorf("read statuses %v", read.statuses)
	}
	if len(read.locations) == 0 || read.locations[0] != abs {
		t.Errorf("read locations %v", read.locations)
	}
	if edit.kind != sdk.ToolKindEdit || edit.lastStatus() != sdk.ToolCallStatusCompleted {
		t.Errorf("edit call %+v", edit)
	}
	want := strings.Replace(greetGo, `"Hello"`, `"Hello, world!"`, 1)
	d := edit.diffs()
	if len(d) != 1 || d[0].Path != abs || d[0].OldText == nil || *d[0].OldText != greetGo || d[0].NewText != want {
		t.Fatalf("edit diff %+v", d)
	}
	if r.read("greet.go") != want {
		t.Fatal("the edit did not reach the disk")
	}

	// A new connection (the editor restarted) loads the session: the
	// conversation is replayed before the answer.
	r.connect(sdk.FileSystemCapabilities{})
	if _, err := r.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: r.project, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	replayed := r.client.take()
	var user strings.Builder
	for _, u := range replayed {
		if u.UserMessageChunk != nil && u.UserMessageChunk.Content.Text != nil {
			user.WriteString(u.UserMessageChunk.Content.Text.Text)
		}
	}
	if user.String() != "make greet say Hello, world!" || text(replayed, false) != "Reading it.Done." || text(replayed, true) != "Look first." {
		t.Errorf("replayed user %q, agent %q, thoughts %q", user.String(), text(replayed, false), text(replayed, true))
	}
	rids, rcalls := calls(replayed)
	if len(rids) != 2 || rids[0] != ids[0] || rcalls[rids[0]].lastStatus() != sdk.ToolCallStatusCompleted || rcalls[rids[1]].kind != sdk.ToolKindEdit {
		t.Fatalf("replayed calls %v %+v", rids, rcalls)
	}
	if rd := rcalls[rids[1]].diffs(); len(rd) != 1 || rd[0].Path != abs || !strings.Contains(rd[0].NewText, "Hello, world!") || !strings.Contains(*rd[0].OldText, `"Hello"`) {
		t.Fatalf("replayed diff %+v", rd)
	}
	if got := r.prompt(sess.SessionId, "what does it say now?"); got != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason after load %q", got)
	}
	if body := r.requestText(3); !strings.Contains(body, "make greet say Hello, world!") || !strings.Contains(body, "what does it say now?") {
		t.Fatalf("the request after load lacks the history:\n%s", body)
	}
}

func contains[T comparable](list []T, x T) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// Tools listed in acp.requirePermission ask the editor first: a rejection
// blocks the call (nothing is written, the model is told), "always allow"
// stops the questions for that tool, and other tools never ask.
func TestPermissions(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("write", map[string]any{"path": "new.txt", "content": "one\n"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("I will not write it.")}},
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("write", map[string]any{"path": "new.txt", "content": "one\n"}), toolCallBlock("read", map[string]any{"path": "new.txt"})}},
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("write", map[string]any{"path": "new.txt", "content": "two\n"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Written twice.")}},
	)
	r.settings(`{"acp": {"requirePermission": ["write", "edit"]}}`)
	r.connect(sdk.FileSystemCapabilities{})
	sess := r.newSession()

	r.client.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(permission.RejectOnce))
	}
	if got := r.prompt(sess.SessionId, "write new.txt"); got != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	if len(r.client.permissions) != 1 {
		t.Fatalf("%d permission requests", len(r.client.permissions))
	}
	p := r.client.permissions[0]
	abs := filepath.Join(r.project, "new.txt")
	if *p.ToolCall.Kind != sdk.ToolKindEdit || *p.ToolCall.Title != "Write "+abs || len(p.ToolCall.Locations) != 1 || p.ToolCall.Locations[0].Path != abs || len(p.Options) != 4 {
		t.Errorf("permission request %+v", p)
	}
	_, byID := calls(r.client.take())
	if v := byID[string(p.ToolCall.ToolCallId)]; v == nil || v.lastStatus() != sdk.ToolCallStatusFailed || contains(v.statuses, sdk.ToolCallStatusInProgress) || !strings.Contains(v.contentText(), "rejected") {
		t.Errorf("the rejected call %+v", v)
	}
	if fileExists(abs) {
		t.Fatal("a rejected write wrote the file")
	}
	if body := r.requestText(1); !strings.Contains(body, "The user rejected this write call") {
		t.Fatalf("the model was not told of the rejection:\n%s", body)
	}

	r.client.permissions = nil
	r.client.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(permission.AllowAlways))
	}
	if got := r.prompt(sess.SessionId, "write it after all"); got != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	if len(r.client.permissions) != 1 {
		t.Fatalf("%d permission requests after allow-always (the read and the second write must not ask)", len(r.client.permissions))
	}
	if r.read("new.txt") != "two\n" {
		t.Fatalf("new.txt is %q", r.read("new.txt"))
	}
	ids, byID := calls(r.client.take())
	if len(ids) != 3 {
		t.Fatalf("calls %v", ids)
	}
	first, last := byID[ids[0]], byID[ids[2]]
	if first.lastStatus() != sdk.ToolCallStatusCompleted || len(first.diffs()) != 1 || first.diffs()[0].OldText != nil || first.diffs()[0].NewText != "one\n" {
		t.Errorf("first write %+v", first)
	}
	if d := last.diffs(); len(d) != 1 || d[0].OldText == nil || *d[0].OldText != "one\n" || d[0].NewText != "two\n" {
		t.Errorf("second write diff %+v", d)
	}
}

// When the editor offers its file system, the tools read its buffers
// (unsaved text included) and write through it; the disk is left alone.
func TestEditorFiles(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("read", map[string]any{"path": "greet.go"})}},
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("edit", map[string]any{"path": "greet.go", "edits": []any{map[string]any{"old_text": "Unsaved", "new_text": "Saved by gopi"}}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}},
	)
	r.settings(`{"edit": {"mode": "replace"}}`)
	abs := filepath.Join(r.project, "greet.go")
	r.write(abs, greetGo)
	r.connect(sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true})
	buffer := strings.Replace(greetGo, "Hello", "Unsaved", 1)
	r.client.buffers[abs] = buffer
	r.client.answer = answer(permission.AllowOnce)
	sess := r.newSession()
	if got := r.prompt(sess.SessionId, "fix greet"); got != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got)
	}
	if body := r.requestText(1); !strings.Contains(body, "Unsaved") {
		t.Fatalf("the read did not show the editor's buffer:\n%s", body)
	}
	want := strings.Replace(greetGo, "Hello", "Saved by gopi", 1)
	if r.client.writes[abs] != want {
		t.Fatalf("the editor was asked to write %q", r.client.writes[abs])
	}
	if r.read("greet.go") != greetGo {
		t.Fatal("the edit went to the disk instead of the editor")
	}
	ids, byID := calls(r.client.take())
	if d := byID[ids[1]].diffs(); len(d) != 1 || *d[0].OldText != buffer || d[0].NewText != want {
		t.Fatalf("diff %+v", d)
	}
}

// session/cancel aborts the run mid-answer: the prompt answers
// "cancelled", and the session takes the next prompt.
func TestCancel(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("This answer is long and will never end because the server stalls.")}, StallAfterDeltas: 2, ChunkSize: 4},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Back.")}},
	)
	r.connect(sdk.FileSystemCapabilities{})
	sess := r.newSession()
	cancelled := make(chan struct{})
	r.client.onUpdate = func(n sdk.SessionNotification) {
		if n.Update.AgentMessageChunk != nil {
			select {
			case <-cancelled:
			default:
				close(cancelled)
				go r.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: sess.SessionId})
			}
		}
	}
	if got := r.prompt(sess.SessionId, "talk"); got != sdk.StopReasonCancelled {
		t.Fatalf("stop reason %q", got)
	}
	r.client.onUpdate = nil
	r.client.take()
	if got := r.prompt(sess.SessionId, "again"); got != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason after cancel %q", got)
	}
	if got := text(r.client.take(), false); got != "Back." {
		t.Fatalf("answer after cancel %q", got)
	}
}

// The output limit ends the turn with max_tokens, a refusal with refusal,
// and a provider failure is an error carrying its message.
func TestStopReasons(t *testing.T) {
	t.Parallel()
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("cut")}, Stop: mockllm.StopLength},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("no")}, Stop: mockllm.StopRefusal},
		mockllm.Turn{Status: 400, ErrorMessage: "bad request from the mock"},
	)
	r.connect(sdk.FileSystemCapabilities{})
	sess := r.newSession()
	if got := r.prompt(sess.SessionId, "one"); got != sdk.StopReasonMaxTokens {
		t.Errorf("length: %q", got)
	}
	if got := r.prompt(sess.SessionId, "two"); got != sdk.StopReasonRefusal {
		t.Errorf("refusal: %q", got)
	}
	_, err := r.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("three")}})
	if err == nil || !strings.Contains(err.Error(), "bad request from the mock") {
		t.Errorf("failure: %v", err)
	}
}

// The model and the thinking level are configuration options; unknown
// options, values and modes are refused with a message.
func TestConfigOptions(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.connect(sdk.FileSystemCapabilities{})
	sess := r.newSession()
	set := func(id, value string) (sdk.SetSessionConfigOptionResponse, error) {
		return r.conn.SetSessionConfigOption(context.Background(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: sess.SessionId, ConfigId: sdk.SessionConfigId(id), Value: sdk.SessionConfigValueId(value)}})
	}
	resp, err := set(configModel, "mock/mock-model")
	if err != nil || len(resp.ConfigOptions) != 2 {
		t.Fatalf("%v %+v", err, resp)
	}
	// The mock model does not reason: off is its only level.
	if th := resp.ConfigOptions[1].Select; th.CurrentValue != "off" || len(*th.Options.Ungrouped) != 1 {
		t.Errorf("thinking option %+v", th)
	}
	for _, c := range []struct{ id, value, want string }{
		{configModel, "no-such-model", "no-such-model"},
		{configThinking, "lots", "unknown thinking level"},
		{"colour", "blue", "unknown configuration option"},
	} {
		if _, err := set(c.id, c.value); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%s: %v", c.id, c.value, err)
		}
	}
	if _, err := r.conn.SetSessionMode(context.Background(), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "code"}); err == nil || !strings.Contains(err.Error(), "no session modes") {
		t.Errorf("set mode: %v", err)
	}
	if _, err := r.conn.UnstableSetSessionModel(context.Background(), sdk.UnstableSetSessionModelRequest{SessionId: sess.SessionId, ModelId: "mock/mock-model"}); err != nil {
		t.Errorf("set model: %v", err)
	}
	if _, err := r.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: "nope", Cwd: r.project, McpServers: []sdk.McpServer{}}); err == nil || !strings.Contains(err.Error(), "no stored gopi session") {
		t.Errorf("load of an unknown id: %v", err)
	}
	if _, err := r.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: "relative/dir", McpServers: []sdk.McpServer{}}); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Errorf("relative cwd: %v", err)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
