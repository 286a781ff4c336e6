package registry

import (
	"context"
	"errors"
	"testing"

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
