package dap

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/daptest"
)

// dlvProgram is the program the dlv test debugs; line 7 is x++.
const dlvProgram = `package main

import "fmt"

func main() {
	x := 41
	x++
	fmt.Println("x is", x)
}
`

// A real dlv session: auto-selected for a .go file, launched (dlv
// builds the program), stopped on entry; a breakpoint, continue to it,
// scopes, variables and evaluate read x, a step moves on, and terminate
// leaves no process: not dlv, not the debuggee.
func TestDlvSession(t *testing.T) {
	t.Parallel()
	dlv := daptest.Dlv(t)
	dir := t.TempDir()
	main := filepath.Join(dir, "main.go")
	if err := os.WriteFile(main, []byte(dlvProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/dbg\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := daptest.Env(filepath.Dir(dlv))
	r := &Resolver{Env: env}
	a, err := r.SelectLaunch(main, dir, "")
	if err != nil || a.Name != "dlv" {
		t.Fatalf("selected %+v %v", a, err)
	}
	m := NewManager(Options{Env: env})
	defer m.Close()
	ctx := context.Background()
	// The first launch builds the program with optimisations off: slow
	// on a cold build cache.
	sum, err := m.Launch(ctx, LaunchOptions{Adapter: a, Program: main, Cwd: dir}, 3*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != StatusStopped {
		t.Fatalf("after launch: %+v", sum)
	}
	pids := m.Pids()
	if len(pids) < 2 { // dlv and the debuggee
		t.Fatalf("processes: %v", pids)
	}
	bps, _, _, err := m.Breakpoints().SetLine(ctx, main, 7, "", 30*time.Second)
	if err != nil || len(bps) != 1 || !bps[0].Verified {
		t.Fatalf("breakpoint %+v %v", bps, err)
	}
	out, err := m.Control().Continue(ctx, 30*time.Second)
	if err != nil || out.State != StatusStopped || out.Summary.Line == nil || *out.Summary.Line != 7 {
		t.Fatalf("continue %+v %v", out, err)
	}
	scopes, _, err := m.Inspect().Scopes(ctx, nil, 30*time.Second)
	if err != nil || len(scopes) == 0 {
		t.Fatalf("scopes %+v %v", scopes, err)
	}
	vars, _, err := m.Inspect().Variables(ctx, scopes[0].VariablesReference, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range vars {
		found = found || v.Name == "x" && v.Value == "41"
	}
	if !found {
		t.Fatalf("x not 41 in %+v", vars)
	}
	out, err = m.Control().StepOver(ctx, 30*time.Second)
	if err != nil || out.State != StatusStopped || *out.Summary.Line != 8 {
		t.Fatalf("step %+v %v", out, err)
	}
	ev, _, err := m.Inspect().Evaluate(ctx, "x", "repl", nil, 30*time.Second)
	if err != nil || ev.Result != "42" {
		t.Fatalf("evaluate %+v %v", ev, err)
	}
	if _, ok := m.Terminate(ctx, 30*time.Second); !ok {
		t.Fatal("no session to terminate")
	}
	for _, pid := range pids {
		if daptest.Alive(pid) {
			t.Errorf("process %d outlived the session", pid)
		}
	}
}
