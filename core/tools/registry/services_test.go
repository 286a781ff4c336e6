package registry

import (
	"context"
	"errors"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
	"github.com/gopi-agent/gopi/core/tools/todo"
)

// Close ends the jobs before the shell: a job still running when the
// session closes is cancelled (its command cannot go on in a shell that
// is gone), later jobs are refused, and the shell cannot start again.
// What the services hold in memory stays readable.
func TestServicesClose(t *testing.T) {
	t.Parallel()
	env := tool.NewEnv(t.TempDir())
	svc := NewServices(env)
	started := make(chan struct{})
	var shellAtCancel error
	id, err := svc.Jobs.Register("test", "wait", func(ctx context.Context, _ string, _ func(string, any)) (string, error) {
		close(started)
		<-ctx.Done()
		// The shell is still there when a job sees its cancellation.
		_, shellAtCancel = svc.Shell.Pool()
		return "", ctx.Err()
	}, job.RegisterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if _, err := svc.Todos.Set([]todo.Phase{{Name: "A"}}); err != nil {
		t.Fatal(err)
	}
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
	if s, _ := svc.Jobs.Get(id); s.Status != job.Cancelled {
		t.Fatalf("job after Close: %+v", s)
	}
	if shellAtCancel != nil {
		t.Fatalf("the shell was gone before the jobs ended: %v", shellAtCancel)
	}
	if _, err := svc.Jobs.Register("test", "late", func(context.Context, string, func(string, any)) (string, error) { return "", nil }, job.RegisterOptions{}); !errors.Is(err, job.ErrClosed) {
		t.Fatalf("a job after Close: %v", err)
	}
	if _, err := svc.Shell.Pool(); err == nil {
		t.Fatal("the shell starts after Close")
	}
	if p := svc.Todos.Phases(); len(p) != 1 {
		t.Fatalf("plan after Close: %+v", p)
	}
}

// The language servers exist while lsp.enabled is on: the lsp tool is
// offered and the file tools get them as env.Diagnostics; a subagent's
// services share its parent's and leave them running when they close.
func TestServicesLSP(t *testing.T) {
	t.Parallel()
	off := tool.NewEnv(t.TempDir())
	svc := NewServices(off)
	if svc.LSP != nil || off.Diagnostics != nil || hasTool(All(off, svc), "lsp") {
		t.Fatal("language servers without a configuration")
	}
	on := tool.NewEnv(t.TempDir())
	on.Settings.LSPServers = &config.LSPConfig{Enabled: true}
	parent := NewServices(on)
	if parent.LSP == nil || on.Diagnostics != tool.Diagnoser(parent.LSP) || !hasTool(All(on, parent), "lsp") {
		t.Fatal("language servers on but not offered")
	}
	childEnv := tool.NewEnv(on.Cwd)
	childEnv.Settings.LSPServers = on.Settings.LSPServers
	child := NewServices(childEnv)
	child.ShareLSP(childEnv, parent.LSP)
	if child.LSP != parent.LSP || childEnv.Diagnostics != tool.Diagnoser(parent.LSP) {
		t.Fatal("the child has servers of its own")
	}
	_ = child.Close()
	if _, _, err := parent.LSP.Client(context.Background(), &lsp.Server{Name: "x", Command: "/nonexistent"}); errors.Is(err, lsp.ErrClosed) {
		t.Fatal("the child's Close stopped the parent's servers")
	}
	// A Diagnoser the caller set (an SDK host's, a test's fake) is kept,
	// by a new session's services and by a subagent's.
	own := tool.NewEnv(on.Cwd)
	own.Settings.LSPServers = on.Settings.LSPServers
	own.Diagnostics = fakeDiagnoser{}
	ownSvc := NewServices(own)
	ownSvc.ShareLSP(own, parent.LSP)
	if own.Diagnostics != tool.Diagnoser(fakeDiagnoser{}) {
		t.Fatalf("the caller's Diagnoser was replaced by %T", own.Diagnostics)
	}
	_ = ownSvc.Close()
	_ = parent.Close()
	if _, _, err := parent.LSP.Client(context.Background(), &lsp.Server{Name: "x", Command: "/nonexistent"}); !errors.Is(err, lsp.ErrClosed) {
		t.Fatalf("after the parent's Close: %v", err)
	}
}

func hasTool(tools []tool.Tool, name string) bool {
	for _, tl := range tools {
		if tl.Definition().Name == name {
			return true
		}
	}
	return false
}

// fakeDiagnoser is a caller's own Diagnoser.
type fakeDiagnoser struct{}

func (fakeDiagnoser) Known(string) []protocol.Diagnostic { return nil }
func (fakeDiagnoser) Fresh(context.Context, string) ([]protocol.Diagnostic, []string, error) {
	return nil, nil, nil
}

// A subagent's services use the parent's browser: the subagent's Close
// leaves it open, the parent's closes it.
func TestServicesShareBrowser(t *testing.T) {
	parent := NewServices(tool.NewEnv(t.TempDir()))
	child := NewServices(tool.NewEnv(t.TempDir()))
	own := child.Browser
	child.ShareBrowser(parent.Browser)
	if child.Browser != parent.Browser || !own.Closed() {
		t.Fatal("the child kept a browser of its own")
	}
	if err := child.Close(); err != nil || parent.Browser.Closed() {
		t.Fatalf("the child's Close closed the parent's browser (%v)", err)
	}
	if err := parent.Close(); err != nil || !parent.Browser.Closed() {
		t.Fatalf("the parent's Close left its browser open (%v)", err)
	}
}
