package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// ev is an Event in comparable form.
type ev struct{ name, data, id string }

func (e ev) String() string { return fmt.Sprintf("{%q %q %q}", e.name, e.data, e.id) }

func readAll(t *testing.T, r *Reader) ([]ev, error) {
	t.Helper()
	var out []ev
	for range 100000 {
		e, err := r.Next()
		if err != nil {
			return out, err
		}
		out = append(out, ev{string(e.Name), string(e.Data), string(e.ID)})
	}
	t.Fatal("the reader did not end")
	return nil, nil
}

func TestReader(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []ev
	}{
		{"fields", "event: message_start\ndata: {\"a\":1}\nid: 7\n\n", []ev{{"message_start", `{"a":1}`, "7"}}},
		{"crlf", "event: a\r\ndata: b\r\n\r\n", []ev{{"a", "b", ""}}},
		{"lf and crlf mixed", "data: x\r\ndata: y\n\r\n", []ev{{"", "x\ny", ""}}},
		{"data lines joined", "data: line1\ndata:line2\ndata\ndata: \n\n", []ev{{"", "line1\nline2\n\n", ""}}},
		{"first data line empty", "data:\ndata: x\n\n", []ev{{"", "\nx", ""}}},
		{"one space after the colon is dropped", "data:  two\n\n", []ev{{"", " two", ""}}},
		{"comments", ": hello\n:\ndata: x\n: between\n\n", []ev{{"", "x", ""}}},
		{"unknown fields and retry", "retry: 10\nfoo: bar\ndata: x\n\n", []ev{{"", "x", ""}}},
		{"only unknown fields dispatch nothing", "retry: 10\n\nfoo\n\n", nil},
		{"blank lines between events", "\n\n\ndata: a\n\n\n\ndata: b\n\n", []ev{{"", "a", ""}, {"", "b", ""}}},
		{"event without data", "event: ping\n\n", []ev{{"ping", "", ""}}},
		{"last event without its blank line", "data: a\n\nevent: e\ndata: b", []ev{{"", "a", ""}, {"e", "b", ""}}},
		{"last line with cr only", "data: a\r", []ev{{"", "a", ""}}},
		{"the later event field wins", "event: a\nevent: b\ndata: x\n\n", []ev{{"b", "x", ""}}},
		{"fields do not leak into the next event", "event: a\nid: 1\ndata: x\n\ndata: y\n\n", []ev{{"a", "x", "1"}, {"", "y", ""}}},
		{"field names are case sensitive", "Data: x\nDATA: y\ndata: z\n\n", []ev{{"", "z", ""}}},
		{"colon in the value", "data: a: b\n\n", []ev{{"", "a: b", ""}}},
		{"empty stream", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, oneByte := range []bool{false, true} {
				var src io.Reader = strings.NewReader(c.in)
				if oneByte {
					src = iotest.OneByteReader(src)
				}
				got, err := readAll(t, NewReader(src))
				if !errors.Is(err, io.EOF) {
					t.Fatalf("ended with %v, want io.EOF", err)
				}
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Errorf("oneByte=%v:\n got %v\nwant %v", oneByte, got, c.want)
				}
			}
		})
	}
}

// TestEventReuse checks the documented contract: an event's slices are
// overwritten by the next call, and a short event after a long one does
// not keep the long one's tail.
func TestEventReuse(t *testing.T) {
	r := NewReader(strings.NewReader("event: long-name\ndata: 0123456789\n\nevent: s\ndata: ab\n\n"))
	first, _ := r.Next()
	firstData := string(first.Data)
	second, err := r.Next()
	if err != nil || string(second.Name) != "s" || string(second.Data) != "ab" || firstData != "0123456789" {
		t.Fatalf("second = %q %q (%v)", second.Name, second.Data, err)
	}
}

func TestLongLine(t *testing.T) {
	long := strings.Repeat("x", 3*readSize+17)
	r := NewReader(strings.NewReader("data: " + long + "\r\n\r\ndata: short\n\n"))
	got, err := readAll(t, r)
	if !errors.Is(err, io.EOF) || len(got) != 2 || got[0].data != long || got[1].data != "short" {
		t.Fatalf("long line: %v, %d events", err, len(got))
	}
}

// TestTooLong checks both limits and that the error says where.
func TestTooLong(t *testing.T) {
	line := "data: " + strings.Repeat("x", MaxLine) + "\n\n"
	_, err := readAll(t, NewReader(strings.NewReader("data: a\n\n"+line)))
	if !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("long line: %v", err)
	}
	half := "data: " + strings.Repeat("y", MaxLine/2) + "\n"
	_, err = readAll(t, NewReader(strings.NewReader(half+half+half+"\n")))
	if !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "event's data at line 2") {
		t.Errorf("long event: %v", err)
	}
}

// TestReadError checks that an error of the source ends the stream as it
// is (a cut HTTP body's io.ErrUnexpectedEOF stays recognisable) and that
// the partial line before it is not dispatched.
func TestReadError(t *testing.T) {
	src := io.MultiReader(strings.NewReader("data: a\n\ndata: part"), iotest.ErrReader(io.ErrUnexpectedEOF))
	got, err := readAll(t, NewReader(src))
	if err != io.ErrUnexpectedEOF || len(got) != 1 || got[0].data != "a" {
		t.Fatalf("got %v, %v", got, err)
	}
}

// TestNoAllocsPerEvent pins the point of the reader's buffers: once warm,
// an event costs no allocation.
func TestNoAllocsPerEvent(t *testing.T) {
	var b bytes.Buffer
	for range 1000 {
		b.WriteString("event: content_block_delta\r\ndata: {\"delta\":{\"text\":\"hi\"}}\r\n\r\n")
	}
	r := NewReader(bytes.NewReader(b.Bytes()))
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(500, func() {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per event, want 0", allocs)
	}
}

// FuzzReader checks the reader against a plain line-by-line reference
// decoder (strings.Split, no buffers) on arbitrary input: same events, same
// end, and never a panic.
func FuzzReader(f *testing.F) {
	f.Add("event: a\ndata: b\n\n")
	f.Add("data: x\r\ndata: y\r\n\r\n:c\n")
	f.Add("data")
	f.Add("id: 1\nevent: e\ndata:\ndata:  z\r\r\n\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := readAll(t, NewReader(strings.NewReader(s)))
		if err != io.EOF {
			t.Fatalf("ended with %v", err)
		}
		if want := reference(s); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("input %q:\n got %v\nwant %v", s, got, want)
		}
	})
}

// reference decodes s the simple way: split into lines, then apply the
// field rules to each.
func reference(s string) []ev {
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the terminator of the last line
	} else {
		lines[len(lines)-1] = strings.TrimRight(lines[len(lines)-1], "\r")
	}
	var out []ev
	var cur ev
	var data []string
	has := false
	dispatch := func() {
		if has {
			cur.data = strings.Join(data, "\n")
			out = append(out, cur)
		}
		cur, data, has = ev{}, nil, false
	}
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			dispatch()
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			cur.name, has = value, true
		case "data":
			data, has = append(data, value), true
		case "id":
			cur.id, has = value, true
		}
	}
	dispatch()
	return out
}
