package shell

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// waitOutputRead waits until the shell's output pipe holds no unread
// bytes, so that output written before now has reached the session's
// reader (FIONREAD, which Linux names TIOCINQ), then gives the reader a moment to hand it
// on. It does not block the pipe (no Fd call).
func waitOutputRead(t *testing.T, sh *Session) {
	t.Helper()
	rc, err := sh.out.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		var ioErr error
		if err := rc.Control(func(fd uintptr) { n, ioErr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil || ioErr != nil {
			t.Fatalf("FIONREAD on the shell's output: %v %v", err, ioErr)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shell's output still holds %d unread bytes after 10 s", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
}
