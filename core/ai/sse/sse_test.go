package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReader(t *testing.T) {
	in := ": comment\r\n" +
		"event: message_start\r\n" +
		"data: {\"a\":1}\r\n\r\n" +
		"data: line1\n" +
		"data:line2\n" +
		"id: 7\n\n" +
		"\n\n" +
		"event: ping\n" +
		"data: {}" // no trailing blank line
	r := NewReader(strings.NewReader(in))
	want := []Event{
		{Event: "message_start", Data: `{"a":1}`},
		{Data: "line1\nline2", ID: "7"},
		{Event: "ping", Data: "{}"},
	}
	for i, w := range want {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if got != w {
			t.Errorf("event %d = %+v, want %+v", i, got, w)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last event: %v", err)
	}
}

func TestLongLine(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	r := NewReader(strings.NewReader("data: " + long + "\n\n"))
	ev, err := r.Next()
	if err != nil || ev.Data != long {
		t.Fatalf("long line: %v len %d", err, len(ev.Data))
	}
}

// FuzzReader checks that arbitrary input never panics and that the data
// of every event comes from the input.
func FuzzReader(f *testing.F) {
	f.Add("event: a\ndata: b\n\n")
	f.Add("data: x\r\ndata: y\r\n\r\n:c\n")
	f.Add("data")
	f.Fuzz(func(t *testing.T, s string) {
		r := NewReader(strings.NewReader(s))
		for range 10000 {
			ev, err := r.Next()
			if err != nil {
				return
			}
			for _, part := range strings.Split(ev.Data, "\n") {
				if !strings.Contains(s, part) {
					t.Fatalf("data %q not in input", part)
				}
			}
		}
		t.Fatal("reader did not reach the end")
	})
}
