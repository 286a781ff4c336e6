//go:build !linux

package childproc

// ResetInheritedSignals does nothing here: inherited signal state is only
// checked on Linux.
func ResetInheritedSignals() {}
