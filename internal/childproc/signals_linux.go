package childproc

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// rt_sigprocmask's operations.
const (
	sigBlock   = 0
	sigSetmask = 2
)

// UnblockInheritedSignals makes sure the processes gopi starts get an
// empty signal mask: when the program was started with signals blocked,
// it replaces itself (same pid, arguments and environment) with a fresh
// copy started with nothing blocked, and so does not return. It returns
// when nothing was blocked, or when the re-execution failed (the program
// then goes on as it was). Call it before anything else in main.
//
// Signals the Go runtime always unblocks on its own threads (SIGSEGV,
// SIGBUS, SIGFPE, SIGURG…) cannot be seen blocked here and are left as
// they were.
func UnblockInheritedSignals() {
	runtime.LockOSThread() // the mask is the thread's, and the exec happens on it
	defer runtime.UnlockOSThread()
	var cur uint64
	if sigprocmask(sigBlock, nil, &cur) != nil || cur == 0 {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	var none uint64
	if sigprocmask(sigSetmask, &none, nil) != nil {
		return
	}
	_ = syscall.Exec(exe, os.Args, os.Environ())
	_ = sigprocmask(sigSetmask, &cur, nil) // the exec failed: as it was
}

// sigprocmask changes or reads the calling thread's signal mask as a
// 64-bit set, the kernel's size on every Linux architecture Go supports
// but mips (there the call fails and nothing is changed).
func sigprocmask(how int, set, old *uint64) error {
	_, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, uintptr(how), uintptr(unsafe.Pointer(set)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}
