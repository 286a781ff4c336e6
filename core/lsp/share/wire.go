package share

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// message is one JSON-RPC 2.0 message, its parts kept raw: a request has
// a method and an id, a notification a method and no id, a response an id
// and no method.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func (m *message) isResponse() bool { return m.Method == "" && len(m.ID) > 0 }
func (m *message) isRequest() bool  { return m.Method != "" && len(m.ID) > 0 && !isNull(m.ID) }
func (m *message) isNotify() bool   { return m.Method != "" && (len(m.ID) == 0 || isNull(m.ID)) }

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// MarshalJSON writes the message with "jsonrpc": "2.0", and a response
// without an error with its result, null included.
func (m message) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0"`)
	field := func(name string, raw json.RawMessage) {
		b.WriteString(`,"` + name + `":`)
		if len(raw) == 0 {
			b.WriteString("null")
		} else {
			b.Write(raw)
		}
	}
	if len(m.ID) > 0 {
		field("id", m.ID)
	}
	if m.Method != "" {
		name, _ := json.Marshal(m.Method)
		b.WriteString(`,"method":`)
		b.Write(name)
		if len(m.Params) > 0 {
			field("params", m.Params)
		}
	} else if len(m.Error) > 0 && !isNull(m.Error) {
		field("error", m.Error)
	} else {
		field("result", m.Result)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// errorObject is a JSON-RPC error's body.
func errorObject(code int64, text string) json.RawMessage {
	b, _ := json.Marshal(jsonrpc2.Error{Code: code, Message: text})
	return b
}

// codec frames messages with LSP's Content-Length headers.
var codec = jsonrpc2.VSCodeObjectCodec{}

// readMessage reads the next framed message.
func readMessage(r *bufio.Reader) (*message, error) {
	var raw json.RawMessage
	if err := codec.ReadObject(r, &raw); err != nil {
		return nil, err
	}
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// maxQueued is how many bytes may wait for a slow reader before its
// connection is dropped: one stalled reader never stops the others.
const maxQueued = 256 << 20

// errOverflow ends a connection whose reader fell too far behind.
var errOverflow = errors.New("the reader fell more than 256 MiB behind")

// outbox writes messages to w in order, from a goroutine of its own, so
// that whoever queues them never waits for the reader.
type outbox struct {
	mu      sync.Mutex
	cond    *sync.Cond
	queue   [][]byte
	queued  int
	closed  bool
	err     error
	done    chan struct{}
	onError func(error) // called once, apart, when writing fails
}

// newOutbox starts the writer of w; onError learns why writing stopped.
func newOutbox(w io.Writer, onError func(error)) *outbox {
	o := &outbox{done: make(chan struct{}), onError: onError}
	o.cond = sync.NewCond(&o.mu)
	go o.run(w)
	return o
}

// send queues m. It reports false when the outbox is closed or overflowed.
func (o *outbox) send(m message) bool {
	b, err := json.Marshal(m)
	if err != nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return false
	}
	if o.queued+len(b) > maxQueued {
		o.failLocked(errOverflow)
		return false
	}
	o.queue = append(o.queue, b)
	o.queued += len(b)
	o.cond.Signal()
	return true
}

// close stops the writer once what is queued is written (or writing
// fails) and waits for it.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.cond.Signal()
	o.mu.Unlock()
	<-o.done
}

func (o *outbox) failLocked(err error) {
	if o.err == nil {
		o.err = err
		o.closed = true
		o.queue, o.queued = nil, 0
		o.cond.Signal()
		if o.onError != nil {
			go o.onError(err)
		}
	}
}

func (o *outbox) run(w io.Writer) {
	defer close(o.done)
	bw := bufio.NewWriter(w)
	for {
		o.mu.Lock()
		for len(o.queue) == 0 && !o.closed {
			o.cond.Wait()
		}
		batch := o.queue
		o.queue, o.queued = nil, 0
		closed := o.closed
		o.mu.Unlock()
		for _, b := range batch {
			if err := codec.WriteObject(bw, json.RawMessage(b)); err != nil {
				o.mu.Lock()
				o.failLocked(err)
				o.mu.Unlock()
				return
			}
		}
		if err := bw.Flush(); err != nil {
			o.mu.Lock()
			o.failLocked(err)
			o.mu.Unlock()
			return
		}
		if closed {
			return
		}
	}
}
