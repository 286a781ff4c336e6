package tool

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool/diagtest"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// checkEnv is an Env whose writes are checked by fake, waiting budget.
func checkEnv(t *testing.T, fake *diagtest.Fake, budget time.Duration) (*Env, chan Notice) {
	t.Helper()
	env := NewEnv(t.TempDir())
	env.Diagnostics = fake
	env.WriteChecks = NewWriteChecks()
	env.Settings.LSP = LSP{Enabled: true, DiagnosticsOnWrite: true, DiagnosticsOnEdit: true, DiagnosticsBudget: budget}
	notices := make(chan Notice, 8)
	env.WriteChecks.SetDeliver(func(n Notice) { notices <- n })
	t.Cleanup(func() { env.WriteChecks.Close() })
	return env, notices
}

func TestWriteDiagInBudget(t *testing.T) {
	fake := diagtest.New()
	env, _ := checkEnv(t, fake, time.Hour)
	abs := filepath.Join(env.Cwd, "a.go")
	old := diagtest.Diag(protocol.SeverityError, 0, 0, "old problem")
	warn := diagtest.Diag(protocol.SeverityWarning, 9, 0, "old warning")
	fake.SetKnown(abs, old, warn)
	fake.Script(abs, diagtest.Answer{Diags: []protocol.Diagnostic{
		diagtest.Diag(protocol.SeverityError, 1, 0, "old problem"), // known: moved by the edit
		diagtest.Diag(protocol.SeverityWarning, 10, 0, "old warning"),
		diagtest.Diag(protocol.SeverityWarning, 4, 2, "new warning"),
		diagtest.Diag(protocol.SeverityWarning, 4, 2, "new warning"), // a second server's copy
	}, Servers: []string{"gopls"}})
	wd := env.BeginDiagnostics(abs, "edit", WriteEdit)
	fd := wd.After(context.Background(), []LineSpan{{First: 10, Last: 10}})
	if fd == nil {
		t.Fatal("no report")
	}
	want := []string{
		"a.go:5:3 [warning] [fake] new warning",  // new
		"a.go:11:1 [warning] [fake] old warning", // on a changed line
		"a.go:2:1 [error] [fake] old problem",    // the rest
	}
	if strings.Join(fd.Messages, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(fd.Messages, "\n"), strings.Join(want, "\n"))
	}
	if fd.Summary != "1 error(s), 2 warning(s)" || !fd.Errored || fd.Server != "gopls" {
		t.Errorf("report %+v", fd)
	}
	if env.WriteChecks.Pending() != 0 {
		t.Error("a fetch is still registered after it answered")
	}
}

func TestWriteDiagOffOrUnhandled(t *testing.T) {
	fake := diagtest.New()
	env, _ := checkEnv(t, fake, time.Hour)
	abs := filepath.Join(env.Cwd, "notes.txt")
	if fd := env.BeginDiagnostics(abs, "write", WriteWhole).After(context.Background(), nil); fd != nil {
		t.Errorf("a file no server handles got %+v", fd)
	}
	env.Settings.LSP.DiagnosticsOnEdit = false
	if env.BeginDiagnostics(abs, "edit", WriteEdit) != nil {
		t.Error("lsp.diagnosticsOnEdit off still checks edits")
	}
	env.Settings.LSP.DiagnosticsOnEdit, env.Settings.LSP.Enabled = true, false
	if env.BeginDiagnostics(abs, "edit", WriteEdit) != nil {
		t.Error("lsp.enabled off still checks")
	}
	env.Settings.LSP.Enabled, env.Diagnostics = true, nil
	if env.BeginDiagnostics(abs, "edit", WriteEdit) != nil {
		t.Error("no Diagnoser still checks")
	}
	var off *WriteDiag
	if off.After(context.Background(), nil) != nil {
		t.Error("a nil check reports")
	}
}

func TestWriteDiagFailedServer(t *testing.T) {
	fake := diagtest.New()
	env, _ := checkEnv(t, fake, time.Hour)
	abs := filepath.Join(env.Cwd, "a.go")
	fake.Script(abs, diagtest.Answer{Err: errors.New("gopls: exited"), Servers: []string{}})
	if fd := env.BeginDiagnostics(abs, "edit", WriteEdit).After(context.Background(), nil); fd != nil {
		t.Errorf("a failed server gave %+v", fd)
	}
	// One of two servers failing: the other's answer counts.
	fake.Script(abs, diagtest.Answer{Diags: []protocol.Diagnostic{diagtest.Diag(1, 0, 0, "x")}, Err: errors.New("vet failed"), Servers: []string{"gopls"}})
	fd := env.BeginDiagnostics(abs, "edit", WriteEdit).After(context.Background(), nil)
	if fd == nil || fd.Summary != "1 error(s)" {
		t.Errorf("partial answer: %+v", fd)
	}
}

func TestWriteDiagCleared(t *testing.T) {
	fake := diagtest.New()
	env, _ := checkEnv(t, fake, time.Hour)
	abs := filepath.Join(env.Cwd, "a.go")
	fake.SetKnown(abs, diagtest.Diag(protocol.SeverityError, 3, 0, "undefined: x"))
	fake.Script(abs, diagtest.Answer{})
	fd := env.BeginDiagnostics(abs, "edit", WriteEdit).After(context.Background(), nil)
	if fd == nil || fd.Summary != "OK" || len(fd.Messages) != 0 || len(fd.Cleared) != 1 || fd.Cleared[0] != "a.go" {
		t.Fatalf("report %+v", fd)
	}
	if got := fd.Notice(); got != "\n\nLSP Diagnostics: no issues left in a.go." {
		t.Errorf("notice %q", got)
	}
	// Clean before and after: nothing to say.
	fd = env.BeginDiagnostics(abs, "edit", WriteEdit).After(context.Background(), nil)
	if fd == nil || fd.Notice() != "" || fd.Cleared != nil {
		t.Errorf("clean again: %+v", fd)
	}
}

func TestWriteDiagLate(t *testing.T) {
	fake := diagtest.New()
	env, notices := checkEnv(t, fake, 0)
	abs := filepath.Join(env.Cwd, "a.go")
	release := make(chan struct{})
	fake.Script(abs, diagtest.Answer{Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 2, 4, "undefined: y")}, Release: release})
	if fd := env.BeginDiagnostics(abs, "edit", WriteEdit).After(context.Background(), nil); fd != nil {
		t.Fatalf("an answer held back came within a zero budget: %+v", fd)
	}
	call, _ := testwait.Recv(t, "the fetch", fake.Calls())
	close(release)
	n, _ := testwait.Recv(t, "the late notice", notices)
	want := "Late LSP diagnostics for a.go (arrived after the edit tool returned):\n1 error(s)\na.go:3:5 [error] [fake] undefined: y"
	if n.CustomType != LateDiagnosticType || n.Text != want {
		t.Errorf("notice %+v", n)
	}
	<-call.Ended
}

func TestWriteDiagLateNothingNew(t *testing.T) {
	fake := diagtest.New()
	env, notices := checkEnv(t, fake, 0)
	abs := filepath.Join(env.Cwd, "a.go")
	same := diagtest.Diag(protocol.SeverityError, 2, 4, "undefined: y")
	fake.SetKnown(abs, same)
	release := make(chan struct{})
	fake.Script(abs, diagtest.Answer{Diags: []protocol.Diagnostic{same}, Release: release})
	env.BeginDiagnostics(abs, "write", WriteWhole).After(context.Background(), []LineSpan{{First: 7, Last: 9}})
	call, _ := testwait.Recv(t, "the fetch", fake.Calls())
	close(release)
	<-call.Ended
	env.WriteChecks.Close() // waits for the fetch's goroutine
	select {
	case n := <-notices:
		t.Errorf("nothing new, yet delivered %q", n.Text)
	default:
	}
}

func TestWriteDiagNewWriteCancelsOldFetch(t *testing.T) {
	fake := diagtest.New()
	env, notices := checkEnv(t, fake, 0)
	abs := filepath.Join(env.Cwd, "a.go")
	fake.Script(abs, diagtest.Answer{Never: true}, diagtest.Answer{Diags: []protocol.Diagnostic{diagtest.Diag(1, 0, 0, "second")}, Release: make(chan struct{})})
	env.BeginDiagnostics(abs, "edit", WriteEdit).After(context.Background(), nil)
	first, _ := testwait.Recv(t, "the first fetch", fake.Calls())
	wd := env.BeginDiagnostics(abs, "edit", WriteEdit) // the next write of the file
	<-first.Ended
	if !errors.Is(first.Err, context.Canceled) {
		t.Errorf("the first fetch ended with %v, want cancelled", first.Err)
	}
	wd.After(context.Background(), nil)
	testwait.Recv(t, "the second fetch", fake.Calls())
	if n := env.WriteChecks.Pending(); n != 1 {
		t.Errorf("%d fetches pending, want the second one", n)
	}
	env.WriteChecks.Close()
	if n := env.WriteChecks.Pending(); n != 0 {
		t.Errorf("%d fetches pending after Close", n)
	}
	select {
	case n := <-notices:
		t.Errorf("a cancelled fetch delivered %q", n.Text)
	default:
	}
	// After Close, writes fetch nothing.
	if fd := env.BeginDiagnostics(abs, "edit", WriteEdit).After(context.Background(), nil); fd != nil {
		t.Errorf("after Close: %+v", fd)
	}
}

func TestWriteDiagCallCancelled(t *testing.T) {
	fake := diagtest.New()
	env, _ := checkEnv(t, fake, time.Hour)
	abs := filepath.Join(env.Cwd, "a.go")
	fake.Script(abs, diagtest.Answer{Never: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *FileDiagnostics)
	go func() { done <- env.BeginDiagnostics(abs, "write", WriteWhole).After(ctx, nil) }()
	call, _ := testwait.Recv(t, "the fetch", fake.Calls())
	cancel()
	if fd, _ := testwait.Recv(t, "After to return", done); fd != nil {
		t.Errorf("aborted call reported %+v", fd)
	}
	<-call.Ended
	if !errors.Is(call.Err, context.Canceled) {
		t.Errorf("fetch ended with %v", call.Err)
	}
}

// TestWriteChecksCloseLeavesNoGoroutine: Close ends every background
// fetch; nothing of the owner runs after it.
func TestWriteChecksCloseLeavesNoGoroutine(t *testing.T) {
	base := runtime.NumGoroutine()
	fake := diagtest.New()
	env, _ := checkEnv(t, fake, 0)
	for _, name := range []string{"a.go", "b.go", "c.go"} {
		abs := filepath.Join(env.Cwd, name)
		fake.Script(abs, diagtest.Answer{Never: true})
		env.BeginDiagnostics(abs, "edit", WriteEdit).After(context.Background(), nil)
	}
	if n := env.WriteChecks.Pending(); n != 3 {
		t.Fatalf("%d fetches running, want 3", n)
	}
	env.WriteChecks.Close()
	testwait.Until(t, "the fetches' goroutines to end", func() bool { return runtime.NumGoroutine() <= base })
}
