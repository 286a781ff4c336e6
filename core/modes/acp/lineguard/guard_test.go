package lineguard

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeatReader is an endless run of one byte.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// A line far over MaxLine is answered (its id and method come first) and
// the next line passes, without the guard holding the whole line: it used
// to read all of it before looking at its size (a 300 MB line, 660 MB of
// memory).
func TestOversizeLineIsNotHeld(t *testing.T) {
	const bulk = 200 << 20
	in := io.MultiReader(
		strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"text":"`),
		io.LimitReader(repeatReader('a'), bulk),
		strings.NewReader("\"}}\n"+`{"jsonrpc":"2.0","id":4,"method":"session/list"}`+"\n"),
	)
	var replies bytes.Buffer
	g := New(in, &replies, func(string, ...any) {})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	passed, err := io.ReadAll(g)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8*MaxLine { // at most MaxLine is held; growing to it allocates ~5 times that
		t.Errorf("the guard allocated %d MB for a %d MB line", got>>20, bulk>>20)
	}
	if string(passed) != `{"jsonrpc":"2.0","id":4,"method":"session/list"}`+"\n" {
		t.Errorf("passed %.200q", passed)
	}
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(replies.Bytes(), &m); err != nil || string(m.ID) != "3" || m.Error.Code != -32600 ||
		!strings.Contains(m.Error.Message, "the session/prompt message is 209715272 bytes") {
		t.Fatalf("reply %q: %v", replies.String(), err)
	}
}

// requestHead finds the id and method at the start of a cut object, and
// nothing when they come after the bulk or are not usable.
func TestRequestHead(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"jsonrpc":"2.0","id":3,"method":"m","params":{"a":"xx`: `3 m`,
		`{"ID":"a","Method":"m","params":[1,`:                    `"a" m`,
		`{"params":{"a":"xx`:                                     ``,
		`{"id":{"x":1},"method":"m","params":"`:                  ``,
		`{"id":null,"method":"m","params":"`:                     ``,
		`{"id":"\xff","method":"m","params":"`:                   ``,
		`{"id":1,"method":5,"params":"`:                          ``,
		`[{"id":1,"method":"m"}`:                                 ``,
		``:                                                       ``,
	} {
		id, method, ok := requestHead([]byte(in))
		got := ""
		if ok {
			got = string(id) + " " + method
		}
		if got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
