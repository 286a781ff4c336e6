package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// TestEditStdinWritesFiles feeds each mode's input on standard input and
// checks the file on disk afterwards (the txtar cases check the output).
func TestEditStdinWritesFiles(t *testing.T) {
	cases := []struct {
		mode, input, want string
	}{
		{"hashline", "@@ f.txt\n= 2dj..2dj\n~TWO\n", "one\nTWO\nthree\n"},
		{"replace", `{"path": "f.txt", "edits": [{"old_text": "three", "new_text": "3"}]}`, "one\ntwo\n3\n"},
		{"apply_patch", "*** Begin Patch\n*** Update File: f.txt\n-one\n+1\n*** End Patch\n", "1\ntwo\nthree\n"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := os.WriteFile("f.txt", []byte("one\ntwo\nthree\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			env := &cliEnv{stdout: &out, stderr: &errOut, stdin: strings.NewReader(c.input)}
			if code := run(context.Background(), env, []string{"edit", "--mode", c.mode}); code != exitMatch {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			if got, _ := os.ReadFile("f.txt"); string(got) != c.want {
				t.Fatalf("file = %q, want %q", got, c.want)
			}
		})
	}
}
