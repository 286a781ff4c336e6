package dap

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/daptest"
)

// fakeManager returns a manager whose adapter is the fake in mode.
func fakeManager(t *testing.T, mode string) (*Manager, *Resolved) {
	t.Helper()
	exe, env := daptest.FakeCommand(mode)
	m := NewManager(Options{Env: env})
	t.Cleanup(func() { _ = m.Close() })
	a := &Resolved{Adapter: Adapter{Name: "fake", Connect: ConnectStdio,
		LaunchDefaults: map[string]any{"request": "launch", "stopOnEntry": true}}, Path: exe}
	return m, a
}

// A whole session against the fake: launch stops on entry with the top
// frame fetched; inspection, breakpoints and continue to the end work;
// the program's output is kept; and terminate leaves none of the
// processes behind — the adapter, the program it asked gopi to start
// (runInTerminal) and the one it started in a session of its own.
func TestFakeSession(t *testing.T) {
	t.Parallel()
	m, a := fakeManager(t, daptest.FakeOK)
	ctx := context.Background()
	sum, err := m.Launch(ctx, LaunchOptions{Adapter: a, Program: "/src/main.go", Cwd: t.TempDir()}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != StatusStopped || sum.StopReason != "entry" || sum.Line == nil || *sum.Line != 3 || sum.FrameName != "main.main" || sum.NeedsConfigurationDone {
		t.Fatalf("after launch: %+v", sum)
	}
	pids := m.Pids()
	if len(pids) < 3 { // the adapter and two sleeps
		t.Fatalf("processes of the session: %v", pids)
	}
	if _, err := m.Launch(ctx, LaunchOptions{Adapter: a, Program: "/src/main.go", Cwd: t.TempDir()}, 10*time.Second); err == nil || err.Error() != "Debug session debug-1 is still active. Terminate it before launching another." {
		t.Fatalf("second launch: %v", err)
	}
	scopes, _, err := m.Inspect().Scopes(ctx, nil, 5*time.Second)
	if err != nil || len(scopes) != 1 || scopes[0].VariablesReference != 100 {
		t.Fatalf("scopes %+v %v", scopes, err)
	}
	vars, _, err := m.Inspect().Variables(ctx, 100, 5*time.Second)
	if err != nil || len(vars) != 1 || vars[0].Name != "x" || vars[0].Value != "42" {
		t.Fatalf("variables %+v %v", vars, err)
	}
	ev, _, err := m.Inspect().Evaluate(ctx, "x+1", "repl", nil, 5*time.Second)
	if err != nil || ev.Result != "43" {
		t.Fatalf("evaluate %+v %v", ev, err)
	}
	bps, path, _, err := m.Breakpoints().SetLine(ctx, "/src/main.go", 5, "", 5*time.Second)
	if err != nil || path != "/src/main.go" || len(bps) != 1 || !bps[0].Verified || bps[0].ID == nil {
		t.Fatalf("breakpoints %+v %s %v", bps, path, err)
	}
	if _, _, err := m.Inspect().Modules(ctx, nil, nil, 5*time.Second); err == nil || err.Error() != "fake adapter: unsupported request modules" {
		t.Fatalf("a failed response: %v", err)
	}
	out, err := m.Control().Continue(ctx, 5*time.Second)
	if err != nil || out.State != StatusTerminated || out.TimedOut || out.Summary.ExitCode == nil || *out.Summary.ExitCode != 0 {
		t.Fatalf("continue %+v %v", out, err)
	}
	if text, _, err := m.Output(); err != nil || text != "hello from the fake\n" {
		t.Fatalf("output %q %v", text, err)
	}
	sum, ok := m.Terminate(ctx, 5*time.Second)
	if !ok || sum.Status != StatusTerminated {
		t.Fatalf("terminate %+v %v", sum, ok)
	}
	for _, pid := range pids {
		if daptest.Alive(pid) {
			t.Errorf("process %d outlived the session", pid)
		}
	}
	if _, ok := m.Terminate(ctx, time.Second); ok {
		t.Fatal("a second terminate found a session")
	}
	if _, _, err := m.Output(); err != ErrNoSession {
		t.Fatalf("after terminate: %v", err)
	}
}

// Adapters that fail: each launch fails with a message that says what
// happened, and leaves no session and no process.
func TestFakeFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ mode, want string }{
		{daptest.FakeCrash, "DAP adapter exited (code 3): fake adapter: cannot start the debugger"},
		{daptest.FakeHang, "DAP request launch timed out after 300ms"},
		{daptest.FakeNoInit, "DAP request initialize timed out after 300ms"},
		{daptest.FakeGarbage, "DAP connection closed: adapter fake sent a malformed message"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			m, a := fakeManager(t, tc.mode)
			_, err := m.Launch(context.Background(), LaunchOptions{Adapter: a, Program: "/x", Cwd: t.TempDir()}, 300*time.Millisecond)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if _, ok := m.Active(); ok || len(m.Sessions()) != 0 {
				t.Fatal("a failed launch left a session")
			}
		})
	}
}

// A session unused for IdleTimeout is ended by the clean-up, its
// processes with it; a used one is kept.
func TestIdleCleanup(t *testing.T) {
	t.Parallel()
	exe, env := daptest.FakeCommand(daptest.FakeOK)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := NewManager(Options{Env: env, Now: func() time.Time { return now }})
	defer m.Close()
	a := &Resolved{Adapter: Adapter{Name: "fake", Connect: ConnectStdio}, Path: exe}
	if _, err := m.Launch(context.Background(), LaunchOptions{Adapter: a, Program: "/x", Cwd: t.TempDir()}, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	pids := m.Pids()
	now = now.Add(IdleTimeout - time.Second)
	m.Cleanup()
	if _, ok := m.Active(); !ok {
		t.Fatal("a session in use was ended")
	}
	now = now.Add(2 * time.Second)
	m.Cleanup()
	if _, ok := m.Active(); ok {
		t.Fatal("an idle session was kept")
	}
	for _, pid := range pids {
		if daptest.Alive(pid) {
			t.Errorf("process %d outlived the idle session", pid)
		}
	}
}

// Two launches at once: one session wins, the other is refused and its
// adapter ended.
func TestConcurrentLaunches(t *testing.T) {
	t.Parallel()
	m, a := fakeManager(t, daptest.FakeOK)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := m.Launch(context.Background(), LaunchOptions{Adapter: a, Program: "/x", Cwd: t.TempDir()}, 10*time.Second)
			errs <- err
		}()
	}
	var failed int
	for range 2 {
		if err := <-errs; err != nil {
			if !strings.HasSuffix(err.Error(), "is still active. Terminate it before launching another.") {
				t.Fatal(err)
			}
			failed++
		}
	}
	if failed != 1 || len(m.Sessions()) != 1 {
		t.Fatalf("%d launches failed, %d sessions", failed, len(m.Sessions()))
	}
}
