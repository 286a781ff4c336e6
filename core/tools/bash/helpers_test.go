package bash

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
)

// newEnv returns a session Env in a temporary directory with a
// non-login bash, an artifact store, and a check that no process is left
// when the test ends.
func newEnv(t *testing.T) *testEnv {
	t.Helper()
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	env := withServices(tool.NewEnv(dir))
	env.Settings.Shell.Path = "/bin/bash"
	env.Settings.Shell.Environ = []string{"PATH=/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin", "HOME=" + t.TempDir(), "LC_ALL=C", shelltest.Mark(t)}
	env.Artifacts = artifact.NewStore(filepath.Join(t.TempDir(), "artifacts"))
	t.Cleanup(func() { env.Close() })
	return env
}

// testEnv is a session's Env with the services the bash tool uses, as
// the session's services hold them: the job manager (made on first use,
// with the settings then) and the shell.
type testEnv struct {
	*tool.Env
	once  sync.Once
	jobs  *job.Manager
	shell *Shell
}

func withServices(env *tool.Env) *testEnv { return &testEnv{Env: env, shell: NewShell(env)} }

// manager returns the session's job manager.
func (e *testEnv) manager() *job.Manager {
	e.once.Do(func() { e.jobs = job.NewManagerFor(e.Env) })
	return e.jobs
}

// tool returns the bash tool of the session.
func (e *testEnv) tool() tool.Tool { return New(e.Env, e.manager(), e.shell) }

// Close ends the jobs, then the shell, as the session's services do.
func (e *testEnv) Close() error {
	e.manager().Close()
	return e.shell.Close()
}

// outcome is one call's answer.
type outcome struct {
	text    string
	isError bool
	details *Details
	aborted bool
}

// callTool runs one bash call with JSON arguments.
func callTool(t *testing.T, env *testEnv, args string) outcome {
	t.Helper()
	return callCtx(context.Background(), t, env, args, nil)
}

func callCtx(ctx context.Context, t *testing.T, env *testEnv, args string, onUpdate tool.UpdateFunc) outcome {
	t.Helper()
	return callToolCtx(ctx, t, env.tool(), args, onUpdate)
}

// callToolCtx is callCtx with the tool given.
func callToolCtx(ctx context.Context, t *testing.T, tl tool.Tool, args string, onUpdate tool.UpdateFunc) outcome {
	t.Helper()
	res, err := tool.Run(ctx, tl, json.RawMessage(args), onUpdate)
	o := outcome{text: res.FirstText(), isError: res.IsError}
	if err != nil {
		if !errors.Is(err, tool.ErrAborted) {
			t.Fatal(err)
		}
		o.aborted = true
	}
	if d, ok := res.Details.(*Details); ok {
		o.details = d
	}
	return o
}

// jsonArgs encodes a map of arguments.
func jsonArgs(t *testing.T, m map[string]any) string {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// updates collects a call's live updates.
type updates struct {
	mu    sync.Mutex
	texts []string
}

func (u *updates) fn(r *tool.Result) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.texts = append(u.texts, r.FirstText())
}

func (u *updates) all() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.texts...)
}

func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return true
		}
	}
	return false
}
