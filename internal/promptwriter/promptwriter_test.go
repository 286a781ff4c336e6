package promptwriter

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// recorder is an io.Writer keeping what was written to it.
type recorder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.Write(p)
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.String()
}

// A record after a quiet spell (the timer's last flush longer ago than
// Delay) is written by EndRecord itself, not Delay later by the timer.
func TestRecordAfterQuietSpellAtOnce(t *testing.T) {
	t.Parallel()
	var rec recorder
	p := New(&rec, 1<<16)
	defer p.Stop()
	p.WriteString("frag")
	testwait.Until(t, "the timer to write the fragment", func() bool { return rec.String() == "frag" })
	p.mu.Lock() // the timer holds it until it has noted the flush
	flushed := p.lastFlush
	p.mu.Unlock()
	time.Sleep(time.Until(flushed.Add(2 * Delay))) // the quiet spell
	p.WriteString("record\n")
	p.EndRecord()
	if got := rec.String(); got != "fragrecord\n" {
		t.Fatalf("written when EndRecord returned: %q", got)
	}
}
