package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

// promptConfig is a configuration with only what BuildPrompts reads.
func promptConfig(t *testing.T) *config.Config {
	t.Helper()
	dir := t.TempDir()
	return &config.Config{Dirs: config.Dirs{Cwd: dir, Home: dir}}
}

// The first prompt holds the piped input, then the files, then the first
// message; later messages are prompts of their own; after "--" an @word
// is a message.
func TestBuildPromptsOrder(t *testing.T) {
	t.Parallel()
	cfg := promptConfig(t)
	if err := os.WriteFile(filepath.Join(cfg.Cwd, "a.txt"), []byte("alpha"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := BuildPrompts(cfg, PromptInput{
		Args:  []string{"@a.txt", "first", "--", "@second"},
		Dash:  2,
		Stdin: strings.NewReader("piped\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want0 := "piped\n\n<file name=\"" + filepath.Join(cfg.Cwd, "a.txt") + "\">\nalpha\n</file>\nfirst"
	if len(got) != 3 || got[0].Text != want0 || got[1].Text != "--" || got[2].Text != "@second" {
		t.Fatalf("prompts %#v", got)
	}
}

// An @file over MaxFileBytes is named, not inlined, and reported; the
// bound holds for files whose stat size is 0 (/proc).
func TestBuildPromptsFileBound(t *testing.T) {
	t.Parallel()
	cfg := promptConfig(t)
	big := filepath.Join(cfg.Cwd, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"@big.txt"}
	if _, err := os.Stat("/proc/self/status"); err == nil {
		args = append(args, "@/proc/self/status")
	}
	var lines []string
	got, err := BuildPrompts(cfg, PromptInput{Args: args, Dash: -1, MaxFileBytes: 100, Report: func(l string) { lines = append(lines, l) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || strings.Contains(got[0].Text, "xxx") || strings.Contains(got[0].Text, "VmRSS") ||
		strings.Count(got[0].Text, "skipped: too large") != len(args) {
		t.Fatalf("prompt %#v", got)
	}
	if len(lines) != len(args) || !strings.Contains(lines[0], "@big.txt is larger than 100 bytes; only its name is sent") {
		t.Fatalf("reported %q", lines)
	}
}

// Piped input over its bound is refused; blank input is no prompt.
func TestBuildPromptsPiped(t *testing.T) {
	t.Parallel()
	cfg := promptConfig(t)
	if _, err := BuildPrompts(cfg, PromptInput{Dash: -1, Stdin: strings.NewReader(strings.Repeat("y", MaxPipedInput+1))}); err == nil || !strings.Contains(err.Error(), "pipe less") {
		t.Fatalf("err %v", err)
	}
	got, err := BuildPrompts(cfg, PromptInput{Dash: -1, Stdin: strings.NewReader(" \n\t")})
	if err != nil || len(got) != 0 {
		t.Fatalf("blank input: %v %#v", err, got)
	}
	got, err = BuildPrompts(cfg, PromptInput{Dash: -1, Stdin: strings.NewReader("ignored"), StdinTerminal: true, Args: []string{"hi"}})
	if err != nil || len(got) != 1 || got[0].Text != "hi" {
		t.Fatalf("terminal stdin: %v %#v", err, got)
	}
}
