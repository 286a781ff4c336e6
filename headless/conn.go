package headless

import (
	"sync"

	"github.com/go-rod/rod/lib/cdp"
)

// watchedWS is the DevTools websocket with a signal of its end: closed is
// closed once a read fails (the browser went away or the connection was
// closed). A browser that is only slow keeps its connection, so it is
// never taken for dead.
type watchedWS struct {
	*cdp.WebSocket
	once   sync.Once
	closed chan struct{}
}

// newWatchedWS wraps ws.
func newWatchedWS(ws *cdp.WebSocket) *watchedWS {
	return &watchedWS{WebSocket: ws, closed: make(chan struct{})}
}

// Read reads the next message; an error marks the connection closed.
func (w *watchedWS) Read() ([]byte, error) {
	b, err := w.WebSocket.Read()
	if err != nil {
		w.once.Do(func() { close(w.closed) })
	}
	return b, err
}
