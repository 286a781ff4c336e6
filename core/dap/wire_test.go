package dap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// frame returns content with its Content-Length header.
func frame(content string) string {
	return "Content-Length: " + itoa(len(content)) + "\r\n\r\n" + content
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Messages of each kind decode with their raw bodies; a well-framed
// message that is not DAP is an errBadMessage (the stream stays in step);
// broken framing is not.
func TestReadMessage(t *testing.T) {
	t.Parallel()
	stream := frame(`{"seq":1,"type":"response","request_seq":4,"command":"x","success":true,"body":{"k":[1,2]}}`) +
		frame(`{"seq":2,"type":"event","event":"output","body":{"output":"hi"}}`) +
		frame(`{"seq":3,"type":"request","command":"runInTerminal","arguments":{"args":["a"]}}`) +
		frame(`{"seq":4,"type":"nonsense"}`) + frame(`[1,2`) +
		"Content-Type: x\r\n\r\n"
	r := bufio.NewReader(strings.NewReader(stream))
	m, err := readMessage(r)
	if err != nil || m.Type != "response" || m.RequestSeq != 4 || !m.Success || string(m.Body) != `{"k":[1,2]}` {
		t.Fatalf("%+v %v", m, err)
	}
	if m, err = readMessage(r); err != nil || m.Event != "output" {
		t.Fatalf("%+v %v", m, err)
	}
	if m, err = readMessage(r); err != nil || m.Command != "runInTerminal" || string(m.Arguments) != `{"args":["a"]}` {
		t.Fatalf("%+v %v", m, err)
	}
	for range 2 {
		var bad *errBadMessage
		if _, err = readMessage(r); err == nil || !asBad(err, &bad) {
			t.Fatalf("not DAP: %v", err)
		}
	}
	var bad *errBadMessage
	if _, err = readMessage(r); err == nil || asBad(err, &bad) {
		t.Fatalf("broken framing: %v", err)
	}
}

func asBad(err error, target **errBadMessage) bool {
	b, ok := err.(*errBadMessage)
	*target = b
	return ok
}

// FuzzReadMessage reads adapter output: no input may panic the reader,
// and every message it accepts survives encoding and decoding again
// unchanged (so what gopi relays is what it read).
func FuzzReadMessage(f *testing.F) {
	f.Add([]byte(frame(`{"seq":1,"type":"event","event":"stopped","body":{"threadId":1}}`)))
	f.Add([]byte(frame(`{"seq":1,"type":"response","request_seq":1,"command":"initialize","success":false,"message":"no"}`)))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for range 8 {
			m, err := readMessage(r)
			if err != nil {
				if _, ok := err.(*errBadMessage); ok {
					continue
				}
				return
			}
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			again, err := decodeMessage(b)
			if err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if !reflect.DeepEqual(normal(m), normal(again)) {
				t.Fatalf("%+v != %+v", m, again)
			}
		}
	})
}

// normal is a message with its raw JSON decoded, for comparing by
// meaning (encoding may escape characters differently).
func normal(m *message) [3]any {
	decode := func(raw json.RawMessage) any {
		var v any
		if len(raw) > 0 && json.Unmarshal(raw, &v) != nil {
			return string(raw)
		}
		return v
	}
	c := *m
	c.Arguments, c.Body = nil, nil
	return [3]any{c, decode(m.Arguments), decode(m.Body)}
}
