//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A reader that goes away after the first line (`| head -1`) ends the
// engine commands quietly with status 0, as ripgrep does, and at once:
// not by SIGPIPE (status 141), not after searching everything.
func TestBrokenPipeEndsQuietly(t *testing.T) {
	dir := t.TempDir()
	for i := range 3000 {
		p := filepath.Join(dir, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("f%04d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("needle line\n", 50)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"grep", "needle", dir},
		{"grep", "--files", dir},
		{"find", "-g", "*.txt", dir},
		{"man"},
	} {
		t.Run(strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), "GOPI_TEST_RUN_MAIN=1", "HOME="+t.TempDir())
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 16)
			if _, err := out.Read(buf); err != nil {
				t.Fatalf("nothing printed: %v (stderr %q)", err, stderr.String())
			}
			out.Close() // the reader goes away
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					t.Fatalf("exit %v after the reader went away, want status 0 (stderr %q)", ee, stderr.String())
				}
				if err != nil && !strings.Contains(err.Error(), "file already closed") {
					t.Fatal(err)
				}
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("still running 20 s after the reader went away")
			}
		})
	}
}

// Help, usage and version text written to a pipe whose reader has already
// gone ends quietly with status 0 too, for the agent's flags as for every
// command: not by SIGPIPE (status 141).
func TestHelpOnClosedPipeEndsQuietly(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--help"}, {"-h"}, {"--version"}, {"-p", "--help"}, {"help"}, {"help", "grep"},
		{"help", "edit"}, {"edit", "--help"}, {"tool", "-h"}, {"ai", "--help"}, {"acp", "--help"},
		{"mockllm", "--help"}, {"grep", "--help"}, {"version"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close() // the reader is gone before anything is written
			defer w.Close()
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), "GOPI_TEST_RUN_MAIN=1", "HOME="+t.TempDir())
			cmd.Stdout = w
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v on a closed pipe, want status 0 (stderr %q)", err, stderr.String())
			}
		})
	}
}
