package agentsession

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/diagtest"
	"github.com/gopi-agent/gopi/core/tools/edit"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// diagRig is a session in replace edit mode whose file tools are checked
// by a scripted Diagnoser, waiting budgetMs; main.go is in the project.
func diagRig(t *testing.T, budgetMs string) (*taskRig, *diagtest.Fake, string) {
	t.Helper()
	fake := diagtest.New()
	r := newTaskRigWith(t, Options{Diagnostics: fake}, "edit:\n  mode: replace\nlsp:\n  diagnosticsBudgetMs: "+budgetMs+"\n")
	abs := filepath.Join(r.f.project, "main.go")
	if err := os.WriteFile(abs, []byte("package main\n\nfunc main() {\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return r, fake, abs
}

// editCall replaces old with new in main.go.
func editCall(old, new string) mockllm.Turn {
	return mockllm.Turn{Blocks: []mockllm.Block{call("edit", map[string]any{"path": "main.go", "edits": []any{map[string]any{"old_text": old, "new_text": new}}})}}
}

// body returns the body of the i-th provider request.
func (r *taskRig) body(i int) string {
	r.t.Helper()
	reqs := r.srv.Requests()
	if i >= len(reqs) {
		r.t.Fatalf("request %d of %d", i, len(reqs))
	}
	return string(reqs[i].Body)
}

// TestEditCarriesDiagnosticsThenClean: an edit that breaks the file gets
// the server's error in its own result; the fix's result says the file is
// clean again.
func TestEditCarriesDiagnosticsThenClean(t *testing.T) {
	t.Parallel()
	r, fake, abs := diagRig(t, "3600000")
	fake.Script(abs,
		diagtest.Answer{Servers: []string{"gopls"}, Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 3, 1, "undefined: x")}},
		diagtest.Answer{Servers: []string{"gopls"}})
	r.srv.Script(
		editCall("func main() {\n}", "func main() {\n\tx++\n}"),
		editCall("\tx++\n", "\tx := 0\n\t_ = x\n"),
		say2("Fixed."),
	)
	if err := r.s.Prompt(context.Background(), "break and fix", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if b := r.body(1); !strings.Contains(b, `LSP Diagnostics (1 error(s)):\n# main.go\n  4:2 [error] [fake] undefined: x`) {
		t.Errorf("the broken edit's result, as sent:\n%s", b)
	}
	if b := r.body(2); !strings.Contains(b, "LSP Diagnostics: no issues left in main.go.") {
		t.Errorf("the fix's result, as sent:\n%s", b)
	}
	if d, ok := r.end("edit").Result.Details.(*edit.Details); !ok || d.Diagnostics == nil || !d.Diagnostics.Errored || d.Diagnostics.Server != "gopls" {
		t.Errorf("the broken edit's details.diagnostics: %+v", r.end("edit").Result.Details)
	}
}

// TestLateDiagnosticsStartARunWhenIdle: diagnostics that miss the budget
// reach the model after the run ended, as a hidden message starting a
// run of their own.
func TestLateDiagnosticsStartARunWhenIdle(t *testing.T) {
	t.Parallel()
	r, fake, abs := diagRig(t, "0")
	release := make(chan struct{})
	fake.Script(abs, diagtest.Answer{Release: release, Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 3, 1, "undefined: x")}})
	r.srv.Script(editCall("func main() {\n}", "func main() {\n\tx++\n}"), say2("Edited."), say2("I will fix x."))
	if err := r.s.Prompt(context.Background(), "edit it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if b := r.body(1); strings.Contains(b, "LSP Diagnostics") {
		t.Errorf("held-back diagnostics in the edit's result:\n%s", b)
	}
	close(release)
	testwait.Until(t, "the late diagnostics' run", func() bool { return r.s.LastAssistantText() == "I will fix x." })
	if b := r.body(2); !strings.Contains(b, `Late LSP diagnostics for main.go (arrived after the edit tool returned):\n1 error(s)\nmain.go:4:2 [error] [fake] undefined: x`) {
		t.Errorf("the next request:\n%s", b)
	}
	var late *message.Custom
	for _, m := range r.s.Messages() {
		if c, ok := m.(*message.Custom); ok && c.CustomType == tool.LateDiagnosticType {
			late = c
		}
	}
	if late == nil || late.Display {
		t.Errorf("late message %+v: want a hidden lsp-late-diagnostic", late)
	}
}

// TestLateDiagnosticsFollowTheRunningTurn: diagnostics that arrive while
// the model still works are in its next request.
func TestLateDiagnosticsFollowTheRunningTurn(t *testing.T) {
	t.Parallel()
	r, fake, abs := diagRig(t, "0")
	release, hold, delivered := make(chan struct{}), make(chan struct{}), make(chan struct{})
	fake.Script(abs, diagtest.Answer{Release: release, Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 3, 1, "undefined: x")}})
	r.s.svc.WriteChecks.SetDeliver(func(n tool.Notice) {
		r.s.deliverNotice(n)
		close(delivered)
	})
	r.srv.Script(editCall("func main() {\n}", "func main() {\n\tx++\n}"), mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Edited.")}, Hold: hold}, say2("Fixing x."))
	done := make(chan error, 1)
	go func() { done <- r.s.Prompt(context.Background(), "edit it", PromptOptions{}) }()
	// The second request carries the edit's result: the edit has
	// returned, so what the servers say now is late.
	testwait.Until(t, "the request after the edit", func() bool { return len(r.srv.Requests()) == 2 })
	close(release)
	testwait.Recv(t, "the delivery", delivered)
	close(hold)
	if err, _ := testwait.Recv(t, "the prompt", done); err != nil {
		t.Fatal(err)
	}
	if n := len(r.srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
	if b := r.body(2); !strings.Contains(b, "Late LSP diagnostics for main.go") {
		t.Errorf("the request after the delivery:\n%s", b)
	}
}

// TestSecondEditCancelsFirstFetch: a second edit of the file cancels the
// background fetch of the first, which then delivers nothing.
func TestSecondEditCancelsFirstFetch(t *testing.T) {
	t.Parallel()
	r, fake, abs := diagRig(t, "0")
	fake.Script(abs, diagtest.Answer{Never: true}, diagtest.Answer{})
	r.srv.Script(
		editCall("func main() {\n}", "func main() {\n\tx++\n}"),
		editCall("\tx++\n", "\tprintln()\n"),
		say2("Done."),
	)
	if err := r.s.Prompt(context.Background(), "edit twice", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	first, _ := testwait.Recv(t, "the first fetch", fake.Calls())
	testwait.Recv(t, "the first fetch to end", first.Ended)
	if !errors.Is(first.Err, context.Canceled) {
		t.Errorf("the first fetch ended with %v, want cancelled by the second edit", first.Err)
	}
	r.s.Close()
	for i, q := range r.srv.Requests() {
		if strings.Contains(string(q.Body), "Late LSP diagnostics") {
			t.Errorf("request %d carries a late message from a cancelled fetch", i)
		}
	}
}

// TestCloseStopsFetches: closing the session cancels the fetches still
// running and waits for them.
func TestCloseStopsFetches(t *testing.T) {
	t.Parallel()
	r, fake, abs := diagRig(t, "0")
	fake.Script(abs, diagtest.Answer{Never: true})
	r.srv.Script(editCall("func main() {\n}", "func main() {\n\tx++\n}"), say2("Edited."))
	if err := r.s.Prompt(context.Background(), "edit it", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	c, _ := testwait.Recv(t, "the fetch", fake.Calls())
	if n := r.s.svc.WriteChecks.Pending(); n != 1 {
		t.Fatalf("%d fetches running before Close, want 1", n)
	}
	r.s.Close()
	select {
	case <-c.Ended:
	default:
		t.Fatal("Close returned with the fetch still running")
	}
	if !errors.Is(c.Err, context.Canceled) || r.s.svc.WriteChecks.Pending() != 0 {
		t.Errorf("fetch ended with %v; %d pending", c.Err, r.s.svc.WriteChecks.Pending())
	}
}
