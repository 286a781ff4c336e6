package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// On a real terminal, with tui.requirePermission set: the bash call waits
// for the picker; "Allow once" runs it, "Reject" blocks the next one.
func TestTUIPermissionInTmux(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"echo approved > ok.txt # `+strings.Repeat("padding ", 30)+`TAILMARK"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("It ran.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"echo refused > no.txt"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("It was refused.")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("tui:\n  requirePermission: [bash]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 100, 30, r.Project, r.Environ, "--no-title")
	x.waitFor("Message gopi")
	x.typ("run the first")
	x.keys("Enter")
	// A command wider than the terminal is wrapped, not cut: its end shows.
	x.waitFor("The agent wants to run bash. Allow it?", "$ echo approved > ok.txt", "TAILMARK", "Always allow bash in this session", "Always reject bash in this session")
	x.keys("Enter") // Allow once
	x.waitFor("It ran.")
	if b, err := os.ReadFile(filepath.Join(r.Project, "ok.txt")); err != nil || string(b) != "approved\n" {
		t.Fatalf("ok.txt %q %v", b, err)
	}
	x.typ("run the second")
	x.keys("Enter")
	x.waitFor("$ echo refused > no.txt")
	x.keys("Down", "Down", "Enter") // Reject
	x.waitFor("The user rejected this bash call", "It was refused.")
	if _, err := os.Stat(filepath.Join(r.Project, "no.txt")); err == nil {
		t.Fatal("the rejected call ran")
	}
	x.keys("C-d")
	x.waitFor("EXITED 0")
}
