//go:build !linux

package shell

import (
	"testing"
	"time"
)

// waitOutputRead gives the session's reader time to read what the shell
// wrote (no FIONREAD here).
func waitOutputRead(t *testing.T, _ *Session) {
	t.Helper()
	time.Sleep(100 * time.Millisecond)
}
