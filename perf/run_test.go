package perf

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunAlternatesCommands(t *testing.T) {
	log := filepath.Join(t.TempDir(), "order")
	mk := func(name string) Command {
		return Command{Name: name, Argv: []string{"sh", "-c", "echo " + name + " >>" + log}}
	}
	res, err := Run(context.Background(), []Command{mk("A"), mk("B")}, Options{Runs: 4, Warmup: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	if got := strings.Join(strings.Fields(string(b)), ""); got != "AB"+"ABBAABBA" {
		t.Fatalf("run order %q, want warm-up AB then ABBAABBA", got)
	}
	for _, r := range res {
		if len(r.Wall) != 4 || len(r.CPU) != 4 {
			t.Fatalf("%s: %d wall and %d cpu samples, want 4", r.Command.Name, len(r.Wall), len(r.CPU))
		}
	}
}

func TestRunFailures(t *testing.T) {
	ctx := context.Background()
	_, err := Run(ctx, []Command{{Name: "f", Argv: []string{"sh", "-c", "exit 3"}}}, Options{Runs: 2})
	if err == nil || !strings.Contains(err.Error(), "exited with status 3") {
		t.Fatalf("failing command: %v", err)
	}
	if _, err := Run(ctx, []Command{{Name: "f", Argv: []string{"sh", "-c", "exit 3"}}}, Options{Runs: 2, IgnoreFailure: true}); err != nil {
		t.Fatalf("ignored failure: %v", err)
	}
	_, err = Run(ctx, []Command{{Name: "s", Argv: []string{"sleep", "5"}}}, Options{Runs: 1, Timeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "took longer than") {
		t.Fatalf("timeout: %v", err)
	}
	if _, err := Run(ctx, nil, Options{Runs: 1}); err == nil {
		t.Fatal("no commands accepted")
	}
	if _, err := Run(ctx, []Command{{Name: "x", Argv: []string{"true"}}}, Options{}); err == nil {
		t.Fatal("zero runs accepted")
	}
}
