//go:build unix && !linux

package shell

import "syscall"

// setParentDeathSignal does nothing where the kernel has no such signal.
func setParentDeathSignal(*syscall.SysProcAttr) {}
