package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/ast/astcli"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// An immutable file (which stops even root) makes the rewrite fail before
// anything is written: every file is checked before the first one is
// replaced, so the rewrite does not stop part way.
func TestASTEditApplyUnwritableWritesNothing(t *testing.T) {
	if !astgrep.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{"a.py": "f(1)\n", "b.py": "f(2)\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := filepath.Join(dir, "b.py")
	if out, err := exec.Command("chattr", "+i", b).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", b).Run() })
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader("")}
	code := run(context.Background(), env, []string{"ast", "edit", "-p", "f($A)", "-r", "g($A)", "--apply", "."})
	want := "gopi ast edit: b.py is read-only (it is marked immutable), so it was left unchanged; if it should be changed, clear the flag first (chattr -i b.py) and try again\n"
	if code != exitError || stderr.String() != want {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.py")); string(got) != "f(1)\n" {
		t.Fatalf("a.py %q", got)
	}
}

// `ast edit --apply --expect ID` writes only what the preview that printed
// ID showed: a file changed in between makes it refuse and write nothing.
func TestASTEditApplyExpectsPreview(t *testing.T) {
	if !astgrep.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	a := filepath.Join(dir, "a.py")
	if err := os.WriteFile(a, []byte("f(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	edit := func(extra ...string) (string, string, int) {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader("")}
		code := run(context.Background(), env, append([]string{"ast", "edit", "-p", "f($A)", "-r", "g($A)"}, extra...))
		return stdout.String(), stderr.String(), code
	}
	previewID := func() string {
		out, errOut, code := edit()
		_, after, ok := strings.Cut(out, "--expect ")
		id, _, _ := strings.Cut(after, " ")
		if code != 0 || !ok || len(id) != 12 {
			t.Fatalf("preview: exit %d\n%s%s", code, out, errOut)
		}
		return id
	}
	id := previewID()
	if err := os.WriteFile(a, []byte("f(1)\nf(2)\n"), 0o644); err != nil { // someone edits the file
		t.Fatal(err)
	}
	_, errOut, code := edit("--apply", "--expect", id)
	if code != exitError || !strings.Contains(errOut, "differ from the preview "+id) {
		t.Fatalf("stale apply: exit %d stderr %q", code, errOut)
	}
	if got, _ := os.ReadFile(a); string(got) != "f(1)\nf(2)\n" {
		t.Fatalf("stale apply wrote %q", got)
	}
	id = previewID()
	if out, errOut, code := edit("--apply", "--expect", id); code != 0 {
		t.Fatalf("fresh apply: exit %d\n%s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(a); string(got) != "g(1)\ng(2)\n" {
		t.Fatalf("applied %q", got)
	}
	if _, errOut, code := edit("--expect", id); code != exitError || !strings.Contains(errOut, "only makes sense with --apply") {
		t.Errorf("--expect without --apply: exit %d %q", code, errOut)
	}
}

// Matches are printed as they are streamed, grep style: context lines,
// "--" between groups and files, overlapping context printed once.
func TestASTGrepContextStreamed(t *testing.T) {
	if !astgrep.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.py": "x = 1\nf(1)\ny = 2\nf(2)\nz = 3\nw = 4\nv = 5\nf(3)\n",
		"b.py": "f(4)\nq = 1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader("")}
	code := run(context.Background(), env, []string{"ast", "grep", "-C", "1", "-p", "f($A)", "."})
	want := strings.Join([]string{
		"a.py-1-x = 1", "a.py:2:f(1)", "a.py-3-y = 2", "a.py:4:f(2)", "a.py-5-z = 3",
		"--", "a.py-7-v = 5", "a.py:8:f(3)",
		"--", "b.py:1:f(4)", "b.py-2-q = 1", "",
	}, "\n")
	if code != exitMatch || stdout.String() != want {
		t.Fatalf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout.String(), want, stderr.String())
	}
}

// `--no-ignore VALUE`, ast-grep's spelling, becomes --no-ignore=VALUE for
// ast-grep's values, unless a file of that name exists or "--" came
// before: then it stays a path.
func TestASTNoIgnoreArgs(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("hidden", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{"--no-ignore vcs", "--no-ignore=vcs"},
		{"--no-ignore dot -p x", "--no-ignore=dot -p x"},
		{"--no-ignore hidden", "--no-ignore hidden"},
		{"--no-ignore src vcs", "--no-ignore src vcs"},
		{"-- --no-ignore vcs", "-- --no-ignore vcs"},
		{"--no-ignore", "--no-ignore"},
	} {
		if got := strings.Join(astNoIgnoreArgs(strings.Fields(tc.in)), " "); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The ast commands return astcli's exit statuses as they are: they must
// be the CLI's.
func TestASTExitStatusesAreTheCLIs(t *testing.T) {
	if astcli.ExitMatch != exitMatch || astcli.ExitNoMatch != exitNoMatch || astcli.ExitError != exitError {
		t.Fatalf("astcli exits %d %d %d, CLI %d %d %d", astcli.ExitMatch, astcli.ExitNoMatch, astcli.ExitError, exitMatch, exitNoMatch, exitError)
	}
}
