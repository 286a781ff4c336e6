package shell

import "syscall"

// setParentDeathSignal asks the kernel to kill the shell if gopi dies
// without cleaning up.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
