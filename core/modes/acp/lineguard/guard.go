// Package lineguard stands between an editor's output and the ACP
// library: it passes on the lines the library can take and answers, with
// JSON-RPC errors, the ones that would end the connection or that the
// library would drop without a word.
package lineguard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxLine is the longest line, newline included, that the ACP library
// reads: its bufio.Scanner stops at 10 MB and then ends the connection.
const MaxLine = 10 << 20

// Reader stands between the editor's output and the library. It hands
// the library the lines it can take and answers, itself, the ones that
// would end the connection or that the library drops without a word:
//
//   - a line longer than MaxLine: a request gets a JSON-RPC error
//     (-32600) saying so, anything else is dropped and logged; only its
//     first MaxLine bytes are ever held;
//   - a line that is not JSON: -32700 (parse error), id null;
//   - JSON that is not an object (a batch, a number…), an object with
//     neither "method" nor "id", an id that is not a string, a number or
//     null, an id holding bytes that are not UTF-8, or a method that is
//     not a string: -32600 (invalid request), id null.
//
// Everything else reaches the library unchanged.
type Reader struct {
	r    *bufio.Reader
	out  io.Writer // shared with the library (a LockedWriter)
	logf func(format string, args ...any)

	rest []byte // the part of the current line not yet read
	err  error  // the input's error, returned once rest is empty
}

// New returns a guard reading the editor's lines from in and writing its
// answers to out (which the library writes to as well: a LockedWriter);
// logf records what was dropped.
func New(in io.Reader, out io.Writer, logf func(string, ...any)) *Reader {
	return &Reader{r: bufio.NewReaderSize(in, 64<<10), out: out, logf: logf}
}

// Read gives the library the next acceptable lines.
func (g *Reader) Read(p []byte) (int, error) {
	for len(g.rest) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		line, n, err := g.readLine()
		g.err = err
		switch {
		case n > MaxLine:
			g.oversize(line, n)
		case n > 0 && g.accept(line):
			g.rest = line
		}
	}
	n := copy(p, g.rest)
	g.rest = g.rest[n:]
	return n, nil
}

// readLine returns the next line, newline included, and its length n.
// Of a line longer than MaxLine only the first MaxLine bytes are kept: a
// huge line costs no more memory than one the library could take.
func (g *Reader) readLine() (line []byte, n int, err error) {
	for {
		chunk, err := g.r.ReadSlice('\n')
		n += len(chunk)
		if room := MaxLine - len(line); room > 0 {
			line = append(line, chunk[:min(len(chunk), room)]...)
		}
		if err != bufio.ErrBufferFull {
			return line, n, err
		}
	}
}

// oversize answers a line of n bytes, more than MaxLine, whose first
// MaxLine bytes are head: a request whose "id" and "method" come before
// its bulk (as editors write them) gets -32600 saying why; anything else
// is dropped and logged.
func (g *Reader) oversize(head []byte, n int) {
	if id, method, ok := requestHead(head[:min(len(head), headLimit)]); ok {
		g.reply(id, -32600, fmt.Sprintf("Invalid Request: the %s message is %d bytes, more than the %d gopi acp reads: send large files as links (resource_link) rather than embedded", method, n, MaxLine))
	}
	g.logf("dropped a message of %d bytes (the limit is %d)", n, MaxLine)
}

// headLimit is how much of an oversize line is searched for its id and
// method: they come first, before the bulk that made the line too long.
const headLimit = 64 << 10

// requestHead reads "id" and "method" from the start of a JSON object cut
// anywhere, up to the first member it cannot read whole. ok is false
// unless both came first and the id is a string or a number of UTF-8.
func requestHead(b []byte) (id json.RawMessage, method string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, "", false
	}
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			break
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		switch {
		case strings.EqualFold(key, "id"):
			id = v
		case strings.EqualFold(key, "method"):
			method = ""
			json.Unmarshal(v, &method)
		}
	}
	ok = id != nil && method != "" && utf8.Valid(id) && strings.ContainsRune(`"-0123456789`, rune(id[0]))
	return id, method, ok
}

// accept reports whether line goes to the library; when it does not, the
// editor is answered here if the line asked for an answer.
func (g *Reader) accept(line []byte) bool {
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return true // the library skips blank lines
	}
	if !json.Valid(msg) {
		g.reply(nil, -32700, "Parse error: the message is not valid JSON")
		return false
	}
	if msg[0] != '{' {
		g.reply(nil, -32600, "Invalid Request: a message must be a JSON object (gopi acp takes no batches)")
		return false
	}
	var head struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(msg, &head) != nil {
		return true // the library reports it
	}
	if head.ID == nil && head.Method == nil {
		g.reply(nil, -32600, `Invalid Request: the object has neither "method" nor "id"`)
		return false
	}
	if head.ID != nil && !strings.ContainsRune(`"-0123456789n`, rune(head.ID[0])) {
		g.reply(nil, -32600, `Invalid Request: "id" must be a string, a number or null`)
		return false
	}
	if !utf8.Valid(head.ID) {
		// The library would echo the bytes as they are: not JSON text.
		g.reply(nil, -32600, `Invalid Request: "id" holds bytes that are not UTF-8`)
		return false
	}
	if head.Method != nil && head.Method[0] != '"' && string(head.Method) != "null" {
		// The library cannot decode the message and drops it unanswered.
		g.reply(nil, -32600, `Invalid Request: "method" must be a string`)
		return false
	}
	return true
}

// reply sends a JSON-RPC error response (id nil: null).
func (g *Reader) reply(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err != nil {
		// The id did not re-encode (it is not valid JSON): answer with null.
		g.reply(nil, code, message)
		return
	}
	if _, err := g.out.Write(append(data, '\n')); err != nil {
		g.logf("cannot answer the editor: %v", err)
	}
}

// LockedWriter serialises writes: the library writes each message with
// one Write, and so does Reader, so messages never interleave.
type LockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// NewLockedWriter returns a LockedWriter writing to w.
func NewLockedWriter(w io.Writer) *LockedWriter { return &LockedWriter{w: w} }

// Write writes p to the underlying writer under the lock.
func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
