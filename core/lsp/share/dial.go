package share

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// DialTimeout is how long Dial waits for a host that holds the lock but
// does not answer yet (it is starting the server) before it starts a
// server of its own.
const DialTimeout = 5 * time.Second

// retryEvery is the pause between attempts while another process starts
// the server.
const retryEvery = 50 * time.Millisecond

// Options configure Dial.
type Options struct {
	Dir string   // the private per-user directory of sockets and locks (core/config: LSPConfig.ShareDir)
	Env []string // the environment a server started here runs with (nil: gopi's)
	// Log receives one line when sharing is not possible and the server
	// is started as this process's own child instead; nil: dropped.
	Log func(string)
}

// Dial returns a core/lsp DialFunc that connects to the server another
// gopi process runs for the same root, or becomes its host (see the
// package comment). Where sharing cannot work, it starts the server as a
// child of this process, like core/lsp.Spawn.
func Dial(opts Options) lsp.DialFunc {
	spawn := lsp.Spawn(opts.Env)
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			opts.Log(fmt.Sprintf(format, args...))
		}
	}
	return func(ctx context.Context, s *lsp.Server, root string) (lsp.Transport, error) {
		if !supported || opts.Dir == "" {
			return spawn(ctx, s, root)
		}
		if err := privateDir(opts.Dir); err != nil {
			logf("language server %s is not shared: %v", s.Name, err)
			return spawn(ctx, s, root)
		}
		sweepStale(opts.Dir)
		key := Key(s, root)
		sock, lock := paths(opts.Dir, key)
		deadline := time.Now().Add(DialTimeout)
		for {
			if t, err := connect(ctx, sock, key); err == nil {
				return t, nil
			}
			h, hosted, err := startHost(ctx, key, sock, lock, s, root, spawn)
			if err != nil && hosted {
				return nil, err // the server itself did not start
			}
			if err != nil {
				logf("language server %s is not shared: %v", s.Name, err)
				return spawn(ctx, s, root)
			}
			if hosted {
				t, err := connect(ctx, sock, key)
				if err != nil {
					h.mux.end(fmt.Errorf("the host could not connect to its own socket: %w", err))
					logf("language server %s is not shared: %v", s.Name, err)
					return spawn(ctx, s, root)
				}
				t.local = h.mux
				return t, nil
			}
			if time.Now().After(deadline) {
				logf("language server %s is not shared: the process holding %s did not answer within %s", s.Name, lock, DialTimeout)
				return spawn(ctx, s, root)
			}
			if err := ctxsleep.Sleep(ctx, retryEvery); err != nil {
				return nil, err
			}
		}
	}
}

// connect opens a connection to the host of key and exchanges hellos.
func connect(ctx context.Context, sock, key string) (*transport, error) {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	nc, err := d.DialContext(dctx, "unix", sock)
	if err != nil {
		return nil, err
	}
	_ = nc.SetDeadline(time.Now().Add(handshakeTimeout))
	if err := writeHello(nc, hello{Key: key}); err != nil {
		nc.Close()
		return nil, err
	}
	r := bufio.NewReader(nc)
	line, err := r.ReadBytes('\n')
	if err != nil {
		nc.Close()
		return nil, err
	}
	var h hello
	if err := json.Unmarshal(line, &h); err != nil {
		nc.Close()
		return nil, err
	}
	if h.Error != "" {
		nc.Close()
		return nil, errors.New(h.Error)
	}
	_ = nc.SetDeadline(time.Time{})
	return &transport{nc: nc, r: r, pid: h.PID, server: h.Server, conn: h.Conn, done: make(chan struct{})}, nil
}
