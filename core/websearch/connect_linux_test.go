package websearch

import (
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// fullBacklog is a listening address that never completes a connection:
// a socket listening with a backlog of one that nothing accepts from,
// its queue filled first, so the kernel drops every further SYN and a
// dial waits until its own timeout.
func fullBacklog(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(sa.(*syscall.SockaddrInet4).Port))
	for i := 0; ; i++ {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil {
			break // the queue is full
		}
		t.Cleanup(func() { c.Close() })
		if i == 64 {
			t.Skip("the kernel accepts connections beyond the listen backlog here")
		}
	}
	return addr
}

// Every provider, asked of an address that never completes a
// connection, fails with its connect limit, naming itself and the
// address, and saying what to do.
func TestEveryProviderConnectTimeout(t *testing.T) {
	addr := fullBacklog(t)
	everyEndpoint(t, "http://"+addr, Timeouts{Connect: 50 * time.Millisecond},
		" could not be reached: connecting to "+addr+" timed out after 50ms; check the network or choose another provider with providers.webSearch")
}
