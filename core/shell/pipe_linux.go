package shell

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is the capacity asked for the output pipe: fewer, larger reads
// for commands that print a lot.
const pipeSize = 1 << 20

// growPipe enlarges a pipe's buffer (best effort: the system may cap it).
func growPipe(f *os.File) {
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) })
	}
}
