//go:build unix

package promptwriter

import (
	"os"
	"testing"
	"time"
)

// Fragments written without the end of a record go out within
// Delay; a record after a quiet spell goes out (at once: see
// TestRecordAfterQuietSpellAtOnce); a write error is kept and returned.
func TestPromptWriter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := New(w, 1<<16)
	read := func() string {
		r.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 100)
		n, _ := r.Read(buf)
		return string(buf[:n])
	}
	p.WriteString("frag")
	if got := read(); got != "frag" {
		t.Fatalf("timer flush: %q", got)
	}
	time.Sleep(2 * Delay)
	p.WriteString("record\n")
	p.EndRecord()
	if got := read(); got != "record\n" {
		t.Fatalf("record after a quiet spell: %q", got)
	}
	r.Close()
	time.Sleep(2 * Delay)
	p.WriteString("lost\n")
	p.EndRecord()
	time.Sleep(3 * Delay)
	if _, err := p.WriteString("more"); err == nil {
		if err := p.Stop(); err == nil {
			t.Fatal("writes to a closed pipe report no error")
		}
	}
	w.Close()
}
