//go:build !linux

package childproc

// UnblockInheritedSignals does nothing here: the inherited signal mask is
// only checked on Linux.
func UnblockInheritedSignals() {}
