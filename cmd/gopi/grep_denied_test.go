//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A directory the search cannot enter is reported as ripgrep reports it
// ("PATH: Permission denied" on stderr, exit 2, the other matches
// printed), with or without the tree's index, whose walk could not read
// it either.
func TestGrepReportsUnreadableDirectory(t *testing.T) {
	prefix, exe, base := asOtherUser(t)
	tree := filepath.Join(base, "tree")
	ix := filepath.Join(base, "ix")
	for name, text := range map[string]string{"a/one.txt": "needle\n", "locked/sub/s.txt": "needle\n", "z/b.txt": "needle here\n"} {
		writeTreeFile(t, tree, name, text)
	}
	if err := os.MkdirAll(ix, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ix, 0o777); err != nil { // the other user's index directory
		t.Fatal(err)
	}
	mode := os.FileMode(0o700) // root's: not the other user's to read
	if prefix == nil {
		mode = 0
	}
	locked := filepath.Join(tree, "locked")
	if err := os.Chmod(locked, mode); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	run := func(args ...string) (string, string, int) {
		t.Helper()
		full := append(append(prefix, exe), args...)
		cmd := exec.Command(full[0], full[1:]...)
		cmd.Dir = base
		cmd.Env = []string{"GOPI_TEST_RUN_MAIN=1", "HOME=" + base, "GOPI_INDEX_DIR=" + ix, "PATH=" + os.Getenv("PATH")}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	wantOut := tree + "/a/one.txt:1:needle\n" + tree + "/z/b.txt:1:needle here\n"
	wantErr := "gopi grep: " + locked + ": Permission denied\n"
	check := func(stage string, args ...string) {
		t.Helper()
		out, errOut, code := run(append([]string{"grep"}, args...)...)
		if out != wantOut || errOut != wantErr || code != 2 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2, %q and %q", stage, code, out, errOut, wantOut, wantErr)
		}
	}
	check("walk", "needle", tree)
	if out, errOut, code := run("index", tree); code != 0 || !strings.HasPrefix(errOut, "gopi index: "+locked+": directory could not be read") {
		t.Fatalf("index: exit %d, stdout %q, stderr %q; want exit 0 and the directory named", code, out, errOut)
	}
	check("with the index", "needle", tree)
	check("--index", "--index", "needle", tree)
	check("--no-index", "--no-index", "needle", tree)
	// --files lists what a search reads, naming the directory as well.
	out, errOut, code := run("grep", "--files", tree)
	if out != tree+"/a/one.txt\n"+tree+"/z/b.txt\n" || errOut != wantErr || code != 2 {
		t.Errorf("--files: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, wantErr)
	}
	// Sorted by time: every file listed first, then searched.
	out, errOut, code = run("grep", "--sortr", "modified", "-l", "needle", tree)
	if errOut != wantErr || code != 2 || strings.Count(out, "\n") != 2 {
		t.Errorf("--sortr modified: exit %d, stdout %q, stderr %q; want exit 2, two files and %q", code, out, errOut, wantErr)
	}
	// The directory itself as the path searched.
	for _, args := range [][]string{{"needle", locked}, {"--no-index", "needle", locked}, {"--files", locked}, {"--sort", "modified", "needle", locked}} {
		out, errOut, code := run(append([]string{"grep"}, args...)...)
		if out != "" || errOut != wantErr || code != 2 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, out, errOut, wantErr)
		}
	}
}

// A directory made unreadable while a watcher keeps the index (chmod
// leaves its modification time): the next search names the directory,
// as the walk does, instead of the index listing files in it.
func TestGrepReportsDirectoryMadeUnreadableWhileWatched(t *testing.T) {
	prefix, exe, base := asOtherUser(t)
	tree := filepath.Join(base, "tree")
	ix := filepath.Join(base, "ix")
	for name, text := range map[string]string{"a/one.txt": "needle\n", "locked/sub/s.txt": "needle\n"} {
		writeTreeFile(t, tree, name, text)
	}
	if err := os.MkdirAll(ix, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ix, 0o777); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(tree, "locked")
	defer os.Chmod(locked, 0o755)
	command := func(args ...string) *exec.Cmd {
		full := append(append(prefix, exe), args...)
		cmd := exec.Command(full[0], full[1:]...)
		cmd.Dir = base
		cmd.Env = []string{"GOPI_TEST_RUN_MAIN=1", "HOME=" + base, "GOPI_INDEX_DIR=" + ix, "PATH=" + os.Getenv("PATH")}
		return cmd
	}
	if out, err := command("index", tree).CombinedOutput(); err != nil {
		t.Fatalf("index: %v %s", err, out)
	}
	watch := command("index", "--watch", tree)
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		watch.Process.Signal(syscall.SIGTERM)
		watch.Wait()
	}()
	socks := filepath.Join(ix, "*", "watch.sock")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if found, _ := filepath.Glob(socks); len(found) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no watcher socket after 20 s")
		}
	}
	mode := os.FileMode(0o700) // root's: not the other user's to read
	if prefix == nil {
		mode = 0
	}
	if err := os.Chmod(locked, mode); err != nil {
		t.Fatal(err)
	}
	grep := command("grep", "needle", tree)
	var stdout, stderr strings.Builder
	grep.Stdout, grep.Stderr = &stdout, &stderr
	err := grep.Run()
	wantOut := tree + "/a/one.txt:1:needle\n"
	wantErr := "gopi grep: " + locked + ": Permission denied\n"
	if stdout.String() != wantOut || stderr.String() != wantErr || err == nil {
		t.Errorf("grep: %v, stdout %q, stderr %q; want exit 2, %q and %q", err, stdout.String(), stderr.String(), wantOut, wantErr)
	}
}
