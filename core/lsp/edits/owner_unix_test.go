//go:build unix

package edits

import (
	"os"
	"syscall"
	"testing"
)

// ownerOf returns the user and group owning p.
func ownerOf(t *testing.T, p string) (uid, gid int) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return int(st.Uid), int(st.Gid)
}
