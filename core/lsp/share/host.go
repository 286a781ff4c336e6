package share

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/lsp"
)

// handshakeTimeout bounds the exchange of hello lines on a new connection.
const handshakeTimeout = 5 * time.Second

// hello is what each side writes first on a connection, one JSON line:
// the connecting side its key, the host its process and server, or why
// it turns the connection away.
type hello struct {
	Key    string `json:"key,omitempty"`
	PID    int    `json:"pid,omitempty"`
	Server string `json:"server,omitempty"`
	Conn   int64  `json:"conn,omitempty"` // the host's number for the connection
	Error  string `json:"error,omitempty"`
}

// host is a server this process runs for everyone: the lock that makes it
// the host, the socket it listens on and the mux.
type host struct {
	key  string
	sock string
	ln   net.Listener
	lock *os.File
	mux  *mux
	once sync.Once
}

// startHost takes the lock of key and, when it gets it, starts the server
// and listens. hosted is false when another process holds the lock.
func startHost(ctx context.Context, key, sock, lockPath string, s *lsp.Server, root string, spawn lsp.DialFunc) (h *host, hosted bool, err error) {
	lock, ok, err := tryLock(lockPath)
	if err != nil || !ok {
		return nil, false, err
	}
	_ = os.Remove(sock) // left by a host that died
	ln, err := net.Listen("unix", sock)
	if err != nil {
		lock.Close()
		return nil, false, fmt.Errorf("listen on %s: %w", sock, err)
	}
	_ = os.Chmod(sock, 0o600) // the directory already keeps others out
	t, err := spawn(ctx, s, root)
	if err != nil {
		ln.Close()
		_ = os.Remove(sock)
		lock.Close()
		return nil, true, err
	}
	h = &host{key: key, sock: sock, ln: ln, lock: lock}
	h.mux = newMux(s.Name, root, t, h.stop)
	go h.accept()
	return h, true, nil
}

// stop stops listening and lets the lock go, the socket and lock file
// removed first, while the lock is still held.
func (h *host) stop() {
	h.once.Do(func() {
		h.ln.Close()
		_ = os.Remove(h.sock)
		_ = os.Remove(h.lock.Name())
		h.lock.Close()
	})
}

// accept serves connections until the listener closes.
func (h *host) accept() {
	for {
		nc, err := h.ln.Accept()
		if err != nil {
			return
		}
		go h.handle(nc)
	}
}

// handle checks a connection's key, says hello and serves it.
func (h *host) handle(nc net.Conn) {
	_ = nc.SetDeadline(time.Now().Add(handshakeTimeout))
	r := bufio.NewReader(nc)
	var in hello
	line, err := r.ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &in) != nil {
		nc.Close()
		return
	}
	if in.Key != h.key {
		writeHello(nc, hello{Error: "this socket serves another language server"})
		nc.Close()
		return
	}
	c, ok := h.mux.attach(nc)
	if !ok {
		writeHello(nc, hello{Error: "the shared language server is stopping"})
		nc.Close()
		return
	}
	if err := writeHello(nc, hello{PID: os.Getpid(), Server: h.mux.name, Conn: c.seq}); err != nil {
		nc.Close()
	}
	_ = nc.SetDeadline(time.Time{})
	h.mux.serve(c, r)
}

// writeHello writes one hello line.
func writeHello(nc net.Conn, h hello) error {
	b, _ := json.Marshal(h)
	_, err := nc.Write(append(b, '\n'))
	return err
}
