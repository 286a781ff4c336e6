package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestFindMatchesFd runs gopi find and fd over one tree and compares the
// sets of paths printed and the exit status. fd's default pattern is a
// regex and gopi's a glob, so each case gives both argument lists.
func TestFindMatchesFd(t *testing.T) {
	fd, err := exec.LookPath("fd")
	if err != nil {
		if fd, err = exec.LookPath("fdfind"); err != nil {
			t.Skip("fd not installed")
		}
	}
	dir := t.TempDir()
	files := map[string]string{
		".git/HEAD": "x\n", ".gitignore": "gen/\n", "a.go": "package a\n", "sub/b.go": "", "sub/c.TXT": "hello world\n",
		"sub/deep/d.md": "# d\n", "gen/e.go": "", ".hid/f.go": "", "big.bin": strings.Repeat("x", 5000), "run.sh": "#!/bin/sh\necho hi\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "emptydir"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-72 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "a.go"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	cases := []struct {
		name      string
		gopi, fd  []string
		nulSep    bool
		unordered bool
	}{
		// Known differences, normalised below: fd 8 ends directory paths
		// with '/' and exits 0 when nothing is found; gopi prints
		// directories bare and exits 1.
		{"glob", []string{"*.go"}, []string{"--glob", "*.go"}, false, false},
		{"-g", []string{"-g", "*.go"}, []string{"-g", "*.go"}, false, false},
		{"regex", []string{"--regex", `^[bc]\.`}, []string{`^[bc]\.`}, false, false},
		{"regex full path", []string{"--regex", "-p", `sub/.*\.go$`}, []string{"-p", `sub/.*\.go$`}, false, false},
		{"-e", []string{"-e", "go"}, []string{"-e", "go"}, false, false},
		{"-e case", []string{"-e", "txt"}, []string{"-e", "txt"}, false, false},
		{"-H", []string{"-H", "*.go"}, []string{"-H", "--glob", "*.go"}, false, false},
		{"-I", []string{"-I", "*.go"}, []string{"-I", "--glob", "*.go"}, false, false},
		{"-d 1", []string{"-d", "1"}, []string{"-d", "1"}, false, false},
		{"-t f", []string{"-t", "f"}, []string{"-t", "f"}, false, false},
		{"-L", []string{"-L", "*.go"}, []string{"-L", "--glob", "*.go"}, false, false},
		{"-L -t d", []string{"-L", "-t", "d"}, []string{"-L", "-t", "d"}, false, false},
		{"no -L -t l", []string{"-t", "l"}, []string{"-t", "l"}, false, false},
		{"-t d", []string{"-t", "d"}, []string{"-t", "d"}, false, false},
		{"-t x", []string{"-t", "x"}, []string{"-t", "x"}, false, false},
		{"-t e", []string{"-t", "e"}, []string{"-t", "e"}, false, false},
		{"-E", []string{"-E", "sub"}, []string{"-E", "sub"}, false, false},
		{"-E glob", []string{"-E", "*.go"}, []string{"-E", "*.go"}, false, false},
		{"-0", []string{"-0", "*.go"}, []string{"-0", "--glob", "*.go"}, true, false},
		{"-a", []string{"-a", "*.md"}, []string{"-a", "--glob", "*.md"}, false, false},
		{"--size +1k", []string{"--size", "+1k"}, []string{"--size", "+1k"}, false, false},
		{"--size -100b", []string{"-t", "f", "--size", "-100b"}, []string{"-t", "f", "--size", "-100b"}, false, false},
		{"--changed-within", []string{"-t", "f", "--changed-within", "1d"}, []string{"-t", "f", "--changed-within", "1d"}, false, false},
		{"path arg", []string{"*.go", "sub"}, []string{"--glob", "*.go", "sub"}, false, false},
		{"dot path", []string{"*.go", "."}, []string{"--glob", "*.go", "."}, false, false},
		{"-x", []string{"*.md", "-x", "echo", "found", "{/}", ";"}, []string{"--glob", "*.md", "-x", "echo", "found", "{/}", ";"}, false, false},
		{"-X", []string{"-e", "go", "-X", "echo", ";"}, []string{"-e", "go", "-X", "echo", ";"}, false, true},
		{"nothing", []string{"*.rs"}, []string{"--glob", "*.rs"}, false, false},
	}
	lines := func(s string, nul bool) []string {
		sep := "\n"
		if nul {
			sep = "\x00"
		}
		l := strings.Split(strings.TrimSuffix(s, sep), sep)
		slices.Sort(l)
		return l
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
			code := run(context.Background(), env, append([]string{"find"}, tc.gopi...))
			cmd := exec.Command(fd, tc.fd...)
			cmd.Dir = dir
			var fdOut, fdErr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &fdOut, &fdErr
			fdCode := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatal(err)
				}
				fdCode = ee.ExitCode()
			}
			got, want := lines(stdout.String(), tc.nulSep), lines(fdOut.String(), tc.nulSep)
			for i := range want {
				want[i] = strings.TrimSuffix(want[i], "/")
			}
			if len(want) == 1 && want[0] == "" && fdCode == 0 {
				fdCode = exitNoMatch
			}
			if tc.unordered { // one batch line: compare its words
				got, want = strings.Fields(strings.Join(got, " ")), strings.Fields(strings.Join(want, " "))
				slices.Sort(got)
				slices.Sort(want)
			}
			if !slices.Equal(got, want) || code != fdCode {
				t.Errorf("gopi find %q: exit %d\n%q\nstderr %s\nfd %q: exit %d\n%q\nstderr %s", tc.gopi, code, got, stderr.String(), tc.fd, fdCode, want, fdErr.String())
			}
		})
	}
}
