package share

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// Timeouts of the multiplexer.
const (
	firstClientWait = 10 * time.Second // a host's server with nobody connected this long stops
	shutdownWait    = 3 * time.Second  // the polite shutdown of the server before the kill
)

// JSON-RPC error codes the multiplexer answers with.
const (
	codeRequestFailed = -32803
	codeNotFound      = -32601
)

// Initialize states.
const (
	initNone   = iota // not sent
	initSent          // sent, no answer yet
	initDone          // answered: the result is kept
	initFailed        // answered with an error, or the server died first
)

// mux shares one server between connections; see the package comment.
// Everything it knows is guarded by mu; what it writes goes through
// outboxes, so nothing blocks under the lock.
type mux struct {
	name  string // the server's name, for messages
	root  string
	t     lsp.Transport
	srv   *outbox
	onEnd func() // called once when the mux ends (the host's clean-up)

	done chan struct{} // closed when it has ended

	mu       sync.Mutex
	conns    map[*conn]bool
	nextConn int64 // the number of the last connection to come
	joined   bool  // a connection has come
	closing  bool  // no more connections are taken
	ended    bool
	err      error                   // why it ended
	gone     map[int64]chan struct{} // the gone channels of the attached connections, by number
	hs       handshake
	rt       routes
	st       serverState
}

// handshake is where the server's initialize stands.
type handshake struct {
	state       int // initNone, initSent, initDone or initFailed
	id          int64
	waiters     []waiter // connections waiting for the answer
	result      json.RawMessage
	err         json.RawMessage
	initialized bool // the server got "initialized"
}

// routes are the requests in flight both ways.
type routes struct {
	nextID      int64 // the id of the last request sent to the server
	pending     map[int64]pendingCall
	nextOut     int64                 // the number of the last request of the server sent on
	outgoing    map[string]serverCall // the server's requests a connection is answering, by the id sent to it
	lastAsker   *conn                 // the connection that sent the last request
	shutdownID  int64
	shutdownAck chan struct{} // closed when the server answers shutdown
}

// serverState is what the server has and said: documents, diagnostics,
// progress.
type serverState struct {
	docs     map[string]*sharedDoc
	diags    map[string]published
	progress map[string]bool
	loaded   bool // the server's first project load has ended
}

// conn is one connection to the mux.
type conn struct {
	seq  int64 // the order it came in
	rw   io.ReadWriteCloser
	out  *outbox
	ids  map[string]int64 // its pending requests: its id → the id sent to the server
	docs map[string]bool  // the documents it has open
	gone chan struct{}    // closed once it is detached (and, if it was the last, the server stopped)
}

// pendingCall is a connection's request the server has not answered.
type pendingCall struct {
	c  *conn
	id json.RawMessage // the connection's own id
}

// waiter is a connection waiting for the answer to initialize.
type waiter struct {
	c  *conn
	id json.RawMessage
}

// serverCall is a request of the server a connection was asked.
type serverCall struct {
	c  *conn
	id json.RawMessage // the server's id
}

// sharedDoc is a document the server has open for one or more
// connections.
type sharedDoc struct {
	version int           // the version the server has
	text    string        // the text the server has, when known
	known   bool          // text is the server's (false after an incremental change)
	openBy  map[*conn]int // the connections that have it open, with their own version
}

// published are the diagnostics the server last published for a document.
type published struct {
	params  json.RawMessage
	version *int
}

// newMux starts sharing the server behind t.
func newMux(name, root string, t lsp.Transport, onEnd func()) *mux {
	m := &mux{
		name: name, root: root, t: t, onEnd: onEnd,
		conns: map[*conn]bool{}, done: make(chan struct{}), gone: map[int64]chan struct{}{},
		rt: routes{pending: map[int64]pendingCall{}, outgoing: map[string]serverCall{}},
		st: serverState{docs: map[string]*sharedDoc{}, diags: map[string]published{}, progress: map[string]bool{}},
	}
	m.srv = newOutbox(t, func(err error) { m.end(fmt.Errorf("writing to language server %s: %w", name, err)) })
	go m.readServer()
	time.AfterFunc(firstClientWait, func() {
		m.mu.Lock()
		idle := !m.joined
		m.mu.Unlock()
		if idle {
			m.end(fmt.Errorf("nobody connected to the shared language server %s", name))
		}
	})
	return m
}

// Done is closed when the mux has ended; Err then says why.
func (m *mux) Done() <-chan struct{} { return m.done }

// Err says why the mux ended.
func (m *mux) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// accepting reports whether the mux still takes connections.
func (m *mux) accepting() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.closing && !m.ended
}

// attach registers a connection; ok is false when the mux takes no more.
func (m *mux) attach(rw io.ReadWriteCloser) (c *conn, ok bool) {
	c = &conn{rw: rw, ids: map[string]int64{}, docs: map[string]bool{}, gone: make(chan struct{})}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing || m.ended {
		return nil, false
	}
	m.nextConn++
	c.seq = m.nextConn
	c.out = newOutbox(rw, func(error) { rw.Close() })
	m.conns[c] = true
	m.gone[c.seq] = c.gone
	m.joined = true
	return c, true
}

// serve runs an attached connection until it closes; r reads from its
// stream (it may hold bytes already read).
func (m *mux) serve(c *conn, r *bufio.Reader) {
	for {
		msg, err := readMessage(r)
		if err != nil {
			break
		}
		m.fromConn(c, msg)
	}
	m.detach(c)
}

// waitGone waits, at most d, until connection seq is detached and, if it
// was the last, the server is stopped.
func (m *mux) waitGone(seq int64, d time.Duration) {
	m.mu.Lock()
	gone, ok := m.gone[seq]
	m.mu.Unlock()
	if !ok {
		return
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-gone:
	case <-m.done:
	case <-timer.C:
	}
}

// readServer routes what the server sends until its stream ends, which
// ends the mux.
func (m *mux) readServer() {
	r := bufio.NewReader(m.t)
	for {
		msg, err := readMessage(r)
		if err != nil {
			if isGarbage(err) {
				m.end(fmt.Errorf("language server %s sent a message gopi could not read (%v)", m.name, err))
				return
			}
			<-m.t.Done()
			m.end(m.t.Err())
			return
		}
		m.fromServer(msg)
	}
}

// isGarbage tells a malformed message from the end of the stream.
func isGarbage(err error) bool {
	return !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, os.ErrClosed) && !errors.Is(err, net.ErrClosed)
}

// end stops the server and every connection; err says why.
func (m *mux) end(err error) {
	m.mu.Lock()
	if m.ended {
		m.mu.Unlock()
		return
	}
	m.ended, m.closing, m.err = true, true, err
	conns := m.conns
	m.conns = map[*conn]bool{}
	m.mu.Unlock()
	for c := range conns {
		c.rw.Close()
	}
	m.t.Kill()
	m.srv.close()
	close(m.done)
	if m.onEnd != nil {
		m.onEnd()
	}
}

// detach forgets a connection that closed: its documents are closed at
// the server where nobody else has them open, its pending requests are
// cancelled, the server's requests it was answering fail. The last
// connection to go stops the server.
func (m *mux) detach(c *conn) {
	defer func() {
		m.mu.Lock()
		delete(m.gone, c.seq)
		m.mu.Unlock()
		close(c.gone)
	}()
	c.rw.Close()
	m.mu.Lock()
	if !m.conns[c] {
		m.mu.Unlock()
		c.out.close()
		return
	}
	delete(m.conns, c)
	for uri := range c.docs {
		m.closeDocLocked(c, uri)
	}
	for _, id := range c.ids {
		delete(m.rt.pending, id)
		m.notifyServerLocked("$/cancelRequest", map[string]int64{"id": id})
	}
	for out, sc := range m.rt.outgoing {
		if sc.c == c {
			delete(m.rt.outgoing, out)
			m.srv.send(message{ID: sc.id, Error: errorObject(codeRequestFailed, "the gopi session asked went away")})
		}
	}
	for i := 0; i < len(m.hs.waiters); i++ {
		if m.hs.waiters[i].c == c {
			m.hs.waiters = append(m.hs.waiters[:i], m.hs.waiters[i+1:]...)
			i--
		}
	}
	if m.rt.lastAsker == c {
		m.rt.lastAsker = nil
	}
	last := len(m.conns) == 0 && !m.closing
	if last {
		m.closing = true
	}
	m.mu.Unlock()
	c.out.close()
	if last {
		m.shutdown()
	}
}

// shutdown asks the server to shut down and exit, then ends the mux.
func (m *mux) shutdown() {
	m.mu.Lock()
	ack := make(chan struct{})
	if m.hs.state == initDone {
		m.rt.nextID++
		m.rt.shutdownID, m.rt.shutdownAck = m.rt.nextID, ack
		m.srv.send(message{ID: idJSON(m.rt.shutdownID), Method: "shutdown"})
	} else {
		close(ack)
	}
	m.mu.Unlock()
	timer := time.NewTimer(shutdownWait)
	defer timer.Stop()
	select {
	case <-ack:
		m.mu.Lock()
		m.srv.send(message{Method: "exit"})
		m.mu.Unlock()
		select {
		case <-m.t.Done():
		case <-timer.C:
		}
	case <-m.t.Done():
	case <-timer.C:
	}
	m.end(fmt.Errorf("the shared language server %s stopped: no gopi session uses it any more", m.name))
}

func idJSON(n int64) json.RawMessage { return json.RawMessage(strconv.FormatInt(n, 10)) }

// notifyServerLocked sends the server a notification.
func (m *mux) notifyServerLocked(method string, params any) {
	b, err := json.Marshal(params)
	if err == nil {
		m.srv.send(message{Method: method, Params: b})
	}
}

// fromConn handles a message of connection c.
func (m *mux) fromConn(c *conn, msg *message) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case msg.isResponse():
		sc, ok := m.rt.outgoing[string(msg.ID)]
		if ok && sc.c == c {
			delete(m.rt.outgoing, string(msg.ID))
			m.srv.send(message{ID: sc.id, Result: msg.Result, Error: msg.Error})
		}
	case msg.isRequest():
		m.requestLocked(c, msg)
	case msg.isNotify():
		m.notificationLocked(c, msg)
	}
}

// requestLocked handles a connection's request.
func (m *mux) requestLocked(c *conn, msg *message) {
	switch msg.Method {
	case "initialize":
		switch m.hs.state {
		case initNone:
			m.hs.state = initSent
			m.rt.nextID++
			m.hs.id = m.rt.nextID
			m.hs.waiters = append(m.hs.waiters, waiter{c, msg.ID})
			m.srv.send(message{ID: idJSON(m.hs.id), Method: msg.Method, Params: withProcessID(msg.Params, os.Getpid())})
		case initSent:
			m.hs.waiters = append(m.hs.waiters, waiter{c, msg.ID})
		default:
			m.answerInitLocked(waiter{c, msg.ID})
		}
		return
	case "shutdown":
		// The server is shared: a connection's shutdown is only its own.
		c.out.send(message{ID: msg.ID, Result: json.RawMessage("null")})
		return
	}
	m.rt.nextID++
	id := m.rt.nextID
	m.rt.pending[id] = pendingCall{c, msg.ID}
	c.ids[string(msg.ID)] = id
	m.rt.lastAsker = c
	m.srv.send(message{ID: idJSON(id), Method: msg.Method, Params: msg.Params})
}

// answerInitLocked answers a connection's initialize from the server's
// answer to the first one; a connection that comes after the project load
// is told it is over.
func (m *mux) answerInitLocked(w waiter) {
	if m.hs.state == initFailed {
		w.c.out.send(message{ID: w.id, Error: m.hs.err})
		return
	}
	w.c.out.send(message{ID: w.id, Result: m.hs.result})
	if m.st.loaded {
		for _, kind := range []string{"begin", "end"} {
			p, _ := json.Marshal(map[string]any{"token": "gopi-share-loaded", "value": map[string]string{"kind": kind, "title": "shared"}})
			w.c.out.send(message{Method: "$/progress", Params: p})
		}
	}
}

// withProcessID sets initialize's processId to the hosting process: a
// server that watches its client's process must follow the host, not the
// first connection.
func withProcessID(params json.RawMessage, pid int) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || p == nil {
		return params
	}
	p["processId"] = json.RawMessage(strconv.Itoa(pid))
	b, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return b
}

// notificationLocked handles a connection's notification.
func (m *mux) notificationLocked(c *conn, msg *message) {
	switch msg.Method {
	case "initialized":
		if !m.hs.initialized {
			m.hs.initialized = true
			m.srv.send(*msg)
		}
	case "exit":
		go c.rw.Close() // the reader sees the end and detaches
	case "$/cancelRequest":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(msg.Params, &p) == nil {
			if id, ok := c.ids[string(p.ID)]; ok {
				m.notifyServerLocked("$/cancelRequest", map[string]int64{"id": id})
			}
		}
	case "textDocument/didOpen":
		m.didOpenLocked(c, msg)
	case "textDocument/didChange":
		m.didChangeLocked(c, msg)
	case "textDocument/didClose":
		var p struct {
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
		}
		if json.Unmarshal(msg.Params, &p) == nil && c.docs[p.TextDocument.URI] {
			m.closeDocLocked(c, p.TextDocument.URI)
		}
	default:
		m.srv.send(*msg)
	}
}

// fromServer routes a message of the server.
func (m *mux) fromServer(msg *message) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case msg.isResponse():
		m.responseLocked(msg)
	case msg.isRequest():
		m.serverRequestLocked(msg)
	case msg.isNotify():
		switch msg.Method {
		case "textDocument/publishDiagnostics":
			m.publishLocked(msg.Params)
		case "$/progress":
			m.progressLocked(msg.Params)
			m.broadcastLocked(*msg)
		default:
			m.broadcastLocked(*msg)
		}
	}
}

// responseLocked routes the server's answer to the connection that asked.
func (m *mux) responseLocked(msg *message) {
	id, err := strconv.ParseInt(string(msg.ID), 10, 64)
	if err != nil {
		return
	}
	switch {
	case m.hs.state == initSent && id == m.hs.id:
		if len(msg.Error) > 0 && !isNull(msg.Error) {
			m.hs.state, m.hs.err = initFailed, msg.Error
		} else {
			m.hs.state, m.hs.result = initDone, msg.Result
		}
		for _, w := range m.hs.waiters {
			m.answerInitLocked(w)
		}
		m.hs.waiters = nil
		return
	case id == m.rt.shutdownID && m.rt.shutdownAck != nil:
		close(m.rt.shutdownAck)
		m.rt.shutdownAck = nil
		return
	}
	call, ok := m.rt.pending[id]
	if !ok {
		return
	}
	delete(m.rt.pending, id)
	delete(call.c.ids, string(call.id))
	if !m.conns[call.c] {
		return
	}
	call.c.out.send(message{ID: call.id, Result: m.rewriteVersionsLocked(msg.Result, call.c), Error: msg.Error})
}

// serverRequestLocked answers a request of the server, itself or through
// a connection.
func (m *mux) serverRequestLocked(msg *message) {
	switch msg.Method {
	case "workspace/configuration", "workspace/applyEdit":
		target := m.rt.lastAsker
		if msg.Method == "workspace/configuration" || target == nil || !m.conns[target] {
			target = m.anyConnLocked()
		}
		if target == nil {
			m.srv.send(message{ID: msg.ID, Error: errorObject(codeRequestFailed, "no gopi session is connected to answer "+msg.Method)})
			return
		}
		m.rt.nextOut++
		out := strconv.Quote("gopi-share-" + strconv.FormatInt(m.rt.nextOut, 10))
		m.rt.outgoing[out] = serverCall{target, msg.ID}
		params := msg.Params
		if msg.Method == "workspace/applyEdit" {
			params = m.rewriteVersionsLocked(params, target)
		}
		target.out.send(message{ID: json.RawMessage(out), Method: msg.Method, Params: params})
	case "workspace/workspaceFolders":
		folders, _ := json.Marshal([]map[string]string{{"uri": string(protocol.FileURI(m.root)), "name": filepath.Base(m.root)}})
		m.srv.send(message{ID: msg.ID, Result: folders})
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "window/showDocument", "workspace/diagnostic/refresh",
		"workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		m.srv.send(message{ID: msg.ID, Result: json.RawMessage("null")})
	default:
		m.srv.send(message{ID: msg.ID, Error: errorObject(codeNotFound, "method not found: "+msg.Method)})
	}
}

// anyConnLocked returns a connection, the same one each time while it
// stays; nil when there is none.
func (m *mux) anyConnLocked() *conn {
	var best *conn
	for c := range m.conns {
		if best == nil || c.seq < best.seq {
			best = c
		}
	}
	return best
}

// broadcastLocked sends a notification to every connection.
func (m *mux) broadcastLocked(msg message) {
	for c := range m.conns {
		c.out.send(msg)
	}
}

// progressLocked follows the server's progress reports: the project load
// is over once every report begun has ended.
func (m *mux) progressLocked(params json.RawMessage) {
	var p struct {
		Token json.RawMessage `json:"token"`
		Value struct {
			Kind string `json:"kind"`
		} `json:"value"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	switch p.Value.Kind {
	case "begin":
		m.st.progress[string(p.Token)] = true
	case "end":
		delete(m.st.progress, string(p.Token))
		if len(m.st.progress) == 0 {
			m.st.loaded = true
		}
	}
}
