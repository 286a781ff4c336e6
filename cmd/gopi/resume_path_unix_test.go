//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// --resume (and --fork) with a path that is not a usable session file says
// what the path is and what to do, rather than that no session matches;
// nothing is created or changed at the path.
func TestResumePathMessages(t *testing.T) {
	r := newAgentRig(t)
	dir := filepath.Join(r.Home, "sessions-copy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(r.Home, "last.jsonl")
	gone := filepath.Join(r.Home, "deleted", "old.jsonl")
	if err := os.Symlink(gone, dangling); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(r.Home, "notes.jsonl")
	if err := os.WriteFile(notes, []byte("just some notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(r.Home, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(r.Home, "nowhere", "x.jsonl")
	for _, tc := range []struct {
		name, arg string
		want      []string
	}{
		{"directory", dir, []string{dir + " is a directory, not a session file", "give one of the .jsonl files in it", "--resume without an argument"}},
		{"dangling symlink", dangling, []string{dangling + " is a symbolic link to " + gone + ", which does not exist", "give the session file itself"}},
		{"not a session file", notes, []string{"not a session file", "--resume without an argument"}},
		{"named pipe", fifo, []string{fifo + " is a named pipe, not a session file", "give a session .jsonl file"}},
		{"missing", missing, []string{missing + " does not exist", "--resume without an argument"}},
	} {
		for _, flag := range []string{"--resume", "--fork"} {
			t.Run(tc.name+" "+flag, func(t *testing.T) {
				_, stderr, code := r.run("", "-p", flag, tc.arg, "hello")
				if code == 0 || strings.Contains(stderr, "no session matches") {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				for _, w := range tc.want {
					if !strings.Contains(stderr, w) {
						t.Errorf("stderr %q lacks %q", stderr, w)
					}
				}
			})
		}
	}
	if _, err := os.Lstat(gone); err == nil {
		t.Error("the dangling link's target was created")
	}
	if data, _ := os.ReadFile(notes); string(data) != "just some notes\n" {
		t.Errorf("the file that is not a session changed: %q", data)
	}
	if len(r.Srv.Requests()) != 0 {
		t.Error("a request was sent")
	}
}
