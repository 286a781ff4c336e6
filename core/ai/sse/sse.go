// Package sse decodes a server-sent events stream (the text/event-stream
// format of the WHATWG HTML standard) as LLM APIs send it: "event:" and
// "data:" fields, multi-line data joined with "\n", comments ignored, an
// event dispatched at each blank line.
package sse

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// Event is one dispatched event.
type Event struct {
	Event string // the "event:" field; "" means "message"
	Data  string // the "data:" lines joined with "\n"
	ID    string // the "id:" field, if any
}

// Reader reads events from a stream.
type Reader struct {
	r *bufio.Reader
}

// maxLine bounds one line so that a broken server cannot make us buffer
// without limit.
const maxLine = 16 << 20

// ErrLineTooLong is returned for a line longer than 16 MiB.
var ErrLineTooLong = errors.New("sse: line longer than 16 MiB")

// NewReader returns a reader of r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 64<<10)} }

// Next returns the next event. It returns io.EOF at a clean end of stream
// (an event not terminated by a blank line is still dispatched first) and
// io.ErrUnexpectedEOF is never invented: a truncated final event is
// returned like a complete one, and the caller decides whether the stream
// ended too early.
func (r *Reader) Next() (Event, error) {
	var ev Event
	var data []string
	has := false
	for {
		line, err := r.readLine()
		if err != nil {
			if err == io.EOF && has {
				ev.Data = strings.Join(data, "\n")
				return ev, nil
			}
			return Event{}, err
		}
		if line == "" {
			if !has {
				continue
			}
			ev.Data = strings.Join(data, "\n")
			return ev, nil
		}
		if line[0] == ':' {
			continue
		}
		field, value, found := strings.Cut(line, ":")
		if found && strings.HasPrefix(value, " ") {
			value = value[1:]
		}
		switch field {
		case "event":
			ev.Event = value
			has = true
		case "data":
			data = append(data, value)
			has = true
		case "id":
			ev.ID = value
			has = true
		}
	}
}

// readLine returns one line without its terminator (\n or \r\n).
func (r *Reader) readLine() (string, error) {
	var b []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxLine {
			return "", ErrLineTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(b) > 0 {
				return strings.TrimRight(string(b), "\r\n"), nil
			}
			return "", err
		}
		s := string(b)
		s = strings.TrimSuffix(s, "\n")
		s = strings.TrimSuffix(s, "\r")
		return s, nil
	}
}
