package tailbuf

import (
	"strings"
	"sync"
	"testing"
)

func TestBufferKeepsTheEnd(t *testing.T) {
	b := New(5)
	b.Write([]byte("abc"))
	b.Write([]byte("defg"))
	if got := b.String(); got != "cdefg" {
		t.Fatalf("kept %q", got)
	}
	b.Write([]byte(strings.Repeat("x", 20) + "12345"))
	if got := b.String(); got != "12345" {
		t.Fatalf("kept %q", got)
	}
	var zero Buffer
	zero.Write([]byte("abc"))
	if zero.String() != "" {
		t.Fatal("a zero Buffer kept bytes")
	}
}

func TestBufferConcurrentWrites(t *testing.T) {
	b := New(64)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("0123456789"))
			}
		})
	}
	wg.Wait()
	if len(b.String()) != 64 {
		t.Fatalf("kept %d bytes", len(b.String()))
	}
}
