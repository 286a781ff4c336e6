package sse

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// benchStream is a stream shaped like a provider's reply: named events
// with one JSON data line each, the text arriving in small deltas.
func benchStream() []byte {
	var b bytes.Buffer
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\"}}\n\n")
	for range 2000 {
		b.WriteString("event: content_block_delta\r\n")
		b.WriteString("data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"streaming text \"}}\r\n\r\n")
	}
	b.WriteString(": keep-alive\n\n")
	b.WriteString("data: {\"a\":1}\ndata: {\"b\":\"" + strings.Repeat("x", 100_000) + "\"}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.Bytes()
}

// BenchmarkReader decodes one provider-sized stream per iteration.
func BenchmarkReader(b *testing.B) {
	in := benchStream()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for range b.N {
		r := NewReader(bytes.NewReader(in))
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 2003 {
			b.Fatalf("%d events", n)
		}
	}
}
