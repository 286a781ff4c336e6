//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// noTemps fails when a temporary file of ours is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestWriteThroughSymlinkKeepsLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "real", "t.txt")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join("real", "t.txt"), link); err != nil {
		t.Fatal(err)
	}
	// A chain: link2 -> link -> real/t.txt.
	link2 := filepath.Join(dir, "link2")
	if err := os.Symlink("link", link2); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link2, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, link2} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link: %v %v", l, fi, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v", fi.Mode().Perm())
	}
	// A dangling link: the write creates what it points to.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join("real", "created.txt"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, []byte("c"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "real", "created.txt")); err != nil || string(b) != "c" {
		t.Fatalf("dangling link target: %q %v", b, err)
	}
	if fi, _ := os.Lstat(dangling); fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the dangling link was replaced by a file")
	}
	noTemps(t, dir)
	noTemps(t, filepath.Join(dir, "real"))
}

func TestWriteKeepsOwnerGroupAndSpecialBits(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	p := filepath.Join(t.TempDir(), "owned")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, 4321, 8765); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o755|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 4321 || st.Gid != 8765 {
		t.Errorf("owner %d:%d, want 4321:8765", st.Uid, st.Gid)
	}
	if fi.Mode()&(fs.ModePerm|fs.ModeSetgid) != 0o755|fs.ModeSetgid {
		t.Errorf("mode %v, want the set-group-ID bit and 0755 kept", fi.Mode())
	}
}

func TestReadOnlyFileRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ro.txt")
	if err := os.WriteFile(p, []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(p, []byte("new"), 0o644)
	var ro *ReadOnlyError
	if !errors.As(err, &ro) || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("got %v, want a ReadOnlyError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "read-only") || !strings.Contains(msg, "chmod u+w") {
		t.Errorf("message does not say what to do: %s", msg)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("read-only file changed to %q", b)
	}
	noTemps(t, dir)
}

func TestHardLinkedFileRefused(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("shared"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(a, []byte("new"), 0o644)
	var hl *HardLinkError
	if !errors.As(err, &hl) || hl.Links != 2 {
		t.Fatalf("got %v, want a HardLinkError with 2 links", err)
	}
	fa, _ := os.Stat(a)
	fb, _ := os.Stat(b)
	if !os.SameFile(fa, fb) {
		t.Fatal("the link was split")
	}
	if got, _ := os.ReadFile(b); string(got) != "shared" {
		t.Fatalf("content changed: %q", got)
	}
	noTemps(t, dir)
}

// An interrupted write: RemoveTemps (what the CLI calls on a signal) runs
// while the content is being written; the temporary file is gone, the
// write fails and the target is untouched.
func TestRemoveTempsDuringWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen string
	err := Write(p, 0o644, func(w io.Writer) error {
		io.WriteString(w, "half")
		seen = w.(*os.File).Name()
		if !strings.HasPrefix(filepath.Base(seen), tempPrefix+strconv.Itoa(os.Getpid())+"-") {
			t.Errorf("temporary name %s does not carry the prefix and pid", seen)
		}
		if n := RemoveTemps(); n != 1 {
			t.Errorf("RemoveTemps removed %d files, want 1", n)
		}
		return nil
	})
	if err == nil {
		t.Fatal("a write whose temporary file was removed succeeded")
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("target changed to %q", b)
	}
	if _, err := os.Lstat(seen); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("temporary file still there: %v", err)
	}
	noTemps(t, dir)
}

// deadPid returns the id of a process that has ended.
func deadPid(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return cmd.Process.Pid
}

func TestSweepRemovesLeftovers(t *testing.T) {
	dir := t.TempDir()
	mk := func(pid int, suffix string, age time.Duration) string {
		p := filepath.Join(dir, fmt.Sprintf("%s%d-%s", tempPrefix, pid, suffix))
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if age > 0 {
			old := time.Now().Add(-age)
			os.Chtimes(p, old, old)
		}
		return p
	}
	dead := mk(deadPid(t), "aaaa", 0)
	samePid := mk(os.Getpid(), "bbbb", 0)                 // an earlier process with our id
	liveFresh := mk(os.Getppid(), "cccc", 0)              // a live writer
	liveOld := mk(os.Getppid(), "dddd", 2*StaleAge)       // pid reused long after
	other := filepath.Join(dir, ".gopi-tmp-notapid-eeee") // not of our shape
	os.WriteFile(other, nil, 0o600)
	if err := WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{dead: false, samePid: false, liveFresh: true, liveOld: false, other: true} {
		_, err := os.Lstat(p)
		if exists := err == nil; exists != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), exists, want)
		}
	}
}

// Many writers increment one counter file, each holding the lock across
// its read and write; none of the increments is lost, including the
// first ones, which race to create the file.
func TestLockSerialisesReadModifyWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "counter")
	const workers, rounds = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				unlock, err := Lock(p)
				if err != nil {
					errs <- err
					return
				}
				n := 0
				if b, err := os.ReadFile(p); err == nil {
					n, _ = strconv.Atoi(string(b))
				}
				time.Sleep(50 * time.Microsecond)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					errs <- err
				}
				if err := WriteFile(p, []byte(strconv.Itoa(n+1)), 0o644); err != nil {
					errs <- err
				}
				unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != strconv.Itoa(workers*rounds) {
		t.Fatalf("counter %s, want %d: increments were lost", b, workers*rounds)
	}
}

// Callers locking overlapping sets, some of the files missing (their
// directory is locked instead, which sorts apart from the file names),
// finish without deadlock.
func TestLockAllNoDeadlock(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	missing0, missingC := filepath.Join(dir, "0"), filepath.Join(dir, "c")
	os.WriteFile(a, []byte("a"), 0o644)
	os.WriteFile(b, []byte("b"), 0o644)
	sets := [][]string{{a, missingC}, {missing0, a}, {b, missingC, missing0}, {a, b}}
	done := make(chan bool)
	for _, set := range sets {
		go func() {
			for range 300 {
				unlock, err := LockAll(set...)
				if err != nil {
					t.Error(err)
					break
				}
				time.Sleep(20 * time.Microsecond)
				unlock()
			}
			done <- true
		}()
	}
	for range sets {
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("LockAll deadlocked")
		}
	}
}
