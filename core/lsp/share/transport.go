package share

import (
	"bufio"
	"fmt"
	"net"
	"sync"
	"time"
)

// transport is a connection to a shared server, as a core/lsp Transport.
// Closing or killing it leaves the server to the others; it is gone for
// this client when the host closes the connection.
type transport struct {
	nc      net.Conn
	r       *bufio.Reader
	pid     int    // the hosting process
	server  string // the server's name
	local   *mux   // the mux, when this process hosts it
	conn    int64  // the host's number for this connection
	done    chan struct{}
	endOnce sync.Once
}

// Read reads what the server (through the host) sends; the end of the
// connection marks the transport done.
func (t *transport) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	if err != nil {
		t.finish()
	}
	return n, err
}

// Write sends to the server through the host.
func (t *transport) Write(b []byte) (int, error) { return t.nc.Write(b) }

// Close ends the connection. In the process that runs the server, it
// waits (briefly) until the mux has let the connection go and, when it
// was the last, stopped the server, so that a process that ends right
// after leaves neither a server nor its socket behind.
func (t *transport) Close() error {
	err := t.nc.Close()
	t.finish()
	if t.local != nil {
		t.local.waitGone(t.conn, shutdownWait+time.Second)
	}
	return err
}

// Kill ends the connection: the server itself stays for the others (it
// stops when the last one goes).
func (t *transport) Kill() { _ = t.Close() }

// Done is closed when the connection has ended.
func (t *transport) Done() <-chan struct{} { return t.done }

// Err says why the connection ended; nil before.
func (t *transport) Err() error {
	select {
	case <-t.done:
	default:
		return nil
	}
	if t.local != nil {
		select {
		case <-t.local.Done():
			return t.local.Err()
		default:
		}
	}
	return fmt.Errorf("the shared language server %s is gone (it ran in gopi process %d, which ended or stopped it)", t.server, t.pid)
}

func (t *transport) finish() {
	t.endOnce.Do(func() {
		_ = t.nc.Close()
		close(t.done)
	})
}
