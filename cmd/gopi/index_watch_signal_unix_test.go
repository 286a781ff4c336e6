//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A service manager stops gopi index --watch with SIGTERM: the watch
// ends as after an interrupt, exit 0, and its socket is removed (it used
// to be left behind, and the process killed at once).
func TestIndexWatchEndsOnTermSignal(t *testing.T) {
	dir := t.TempDir()
	writeTreeFile(t, dir, "a.txt", "text\n")
	t.Chdir(dir)
	environ := isolatedEnviron(t)
	var home string
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := gopiRun(t, environ, "index", "--watch")
		done <- result{code, out, errOut}
	}()
	pattern := filepath.Join(home, ".cache", "gopi", "index", "*", "watch.sock")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if socks, _ := filepath.Glob(pattern); len(socks) == 1 {
			break
		}
		select {
		case r := <-done:
			t.Fatalf("the watch ended before its socket appeared: exit %d, %q, %q", r.code, r.out, r.errOut)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no watch socket after 20 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.code != 0 || r.errOut != "" {
			t.Errorf("after SIGTERM: exit %d, stderr %q", r.code, r.errOut)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("SIGTERM did not end gopi index --watch")
	}
	if socks, _ := filepath.Glob(pattern); len(socks) != 0 {
		t.Errorf("the watch socket is left after SIGTERM: %v", socks)
	}
}
