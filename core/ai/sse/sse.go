// Package sse decodes a server-sent events stream (the text/event-stream
// format of the WHATWG HTML standard) as LLM APIs send it: "event:", "data:"
// and "id:" fields, multi-line data joined with "\n", comments (lines
// starting with ':') and unknown fields ignored, lines ended by "\n" or
// "\r\n", an event dispatched at each blank line.
//
// The reader is built for the hot path of a streamed reply: a line that
// fits the read buffer is parsed where it lies, and an event's fields are
// copied into buffers the reader keeps from one event to the next, so
// decoding allocates nothing per event once the buffers have grown to the
// largest event. The price is that an Event's slices are only valid until
// the next call to Next.
//
// Limits: a line longer than MaxLine, or an event whose data grows beyond
// MaxLine, ends the stream with an error, so that a broken server cannot
// make the reader buffer without bound.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Event is one dispatched event. Its slices belong to the Reader and are
// overwritten by the next call to Next; copy what must outlive it.
type Event struct {
	Name []byte // the "event:" field; empty means "message"
	Data []byte // the "data:" lines joined with "\n"
	ID   []byte // the "id:" field, if any
}

// MaxLine bounds one line, and the data of one event, at 16 MiB.
const MaxLine = 16 << 20

// ErrTooLong is returned (wrapped, with the line or event number) for a
// line or an event's data longer than MaxLine.
var ErrTooLong = errors.New("longer than 16 MiB")

// readSize is the read buffer: most events of an LLM stream are one line
// well under it, so they are parsed in place.
const readSize = 64 << 10

// keepData is the largest data buffer kept for the next event; a larger
// one (a rare huge event) is dropped so that it is not held for the rest
// of the stream.
const keepData = 1 << 20

// Reader reads events from a stream. It is not safe for concurrent use.
type Reader struct {
	r     *bufio.Reader
	long  []byte // a line that did not fit the read buffer, assembled here
	ev    Event  // the event being built; its slices are reused
	lines int    // lines read so far, for errors
}

// NewReader returns a reader of r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, readSize)} }

// Next returns the next event. At a clean end of the stream it returns
// io.EOF, after dispatching an event that the stream ended without its
// blank line: a truncated final event is returned like a complete one and
// the caller decides whether the stream ended too early. An error of the
// underlying reader is returned as it is (io.ErrUnexpectedEOF from a cut
// HTTP body stays recognisable); a partial line before it is dropped.
func (r *Reader) Next() (Event, error) {
	if cap(r.ev.Data) > keepData {
		r.ev.Data = nil
	}
	r.ev.Name, r.ev.Data, r.ev.ID = r.ev.Name[:0], r.ev.Data[:0], r.ev.ID[:0]
	has, hasData := false, false
	for {
		line, err := r.readLine()
		if err != nil {
			if err == io.EOF && has {
				return r.ev, nil
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if has {
				return r.ev, nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) { // no allocation: the compiler compares in place
		case "event":
			r.ev.Name = append(r.ev.Name[:0], value...)
			has = true
		case "data":
			if hasData {
				r.ev.Data = append(r.ev.Data, '\n')
			}
			if len(r.ev.Data)+len(value) > MaxLine {
				return Event{}, fmt.Errorf("sse: the event's data at line %d is %w", r.lines, ErrTooLong)
			}
			r.ev.Data = append(r.ev.Data, value...)
			has, hasData = true, true
		case "id":
			r.ev.ID = append(r.ev.ID[:0], value...)
			has = true
		}
	}
}

// readLine returns the next line without its terminator ("\n" or "\r\n";
// a final line may have none). The line is valid until the next read.
func (r *Reader) readLine() ([]byte, error) {
	r.lines++
	line, err := r.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.r.ReadSlice('\n')
			if len(r.long)+len(line) > MaxLine+2 {
				return nil, fmt.Errorf("sse: line %d is %w", r.lines, ErrTooLong)
			}
			r.long = append(r.long, line...)
		}
		line = r.long
		if cap(r.long) > keepData {
			r.long = nil // line still holds it until the next read
		}
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		return nil, err
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	if err == io.EOF {
		// A last line without "\n" loses any run of "\r" at its end, as
		// before the reader kept its buffers.
		line = bytes.TrimRight(line, "\r\n")
	} else {
		line = bytes.TrimSuffix(line, []byte("\r"))
	}
	if len(line) > MaxLine {
		return nil, fmt.Errorf("sse: line %d is %w", r.lines, ErrTooLong)
	}
	return line, nil
}
