package childproc

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// rt_sigprocmask's operations.
const (
	sigBlock   = 0
	sigSetmask = 2
)

// ResetInheritedSignals makes sure the processes gopi starts get the
// default signal dispositions and an empty signal mask, whatever this
// program inherited. Signals 32 and 33, which the C library keeps for
// itself and Go never handles, are set back to the default when they
// were ignored (glibc's posix_spawn, which make and others start programs
// with, leaves them ignored). When the program was started with signals
// blocked, it replaces itself (same pid, arguments and environment) with
// a fresh copy started with nothing blocked, and so does not return. It
// returns when nothing was blocked, or when the re-execution failed (the
// program then goes on as it was). Call it before anything else in main.
//
// Signals the Go runtime always unblocks on its own threads (SIGSEGV,
// SIGBUS, SIGFPE, SIGURG…) cannot be seen blocked here and are left as
// they were.
func ResetInheritedSignals() {
	resetLibcSignals()
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

// resetLibcSignals sets signals 32 and 33 back to the default action when
// they are ignored: Go leaves them as it found them, so an ignored one
// would stay ignored in every child.
func resetLibcSignals() {
	ignored := ignoredSignals()
	for _, sig := range []uint{32, 33} {
		if ignored&(1<<(sig-1)) == 0 {
			continue
		}
		// An all-zero sigaction is SIG_DFL, no flags, nothing masked, in
		// every architecture's layout.
		var act [64]byte
		_, _, _ = syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	}
}

// ignoredSignals returns the set of ignored signals (SigIgn in
// /proc/self/status; 0 when it cannot be read).
func ignoredSignals() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "SigIgn:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return n
		}
	}
	return 0
}
