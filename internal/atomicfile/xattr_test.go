//go:build linux || darwin || freebsd || netbsd

package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func TestWriteKeepsXattrs(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tagged")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := unix.Setxattr(p, "user.gopi.test", []byte("kept"), 0); err != nil {
		t.Skipf("this file system takes no user attributes: %v", err)
	}
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := unix.Getxattr(p, "user.gopi.test", buf)
	if err != nil || string(buf[:n]) != "kept" {
		t.Fatalf("attribute after the write: %q %v", buf[:n], err)
	}
}
