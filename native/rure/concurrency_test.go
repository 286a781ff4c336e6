//go:build cgo

package rure

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Many goroutines share one Regex and one LineMatcher (each with its own
// Captures, Iter and Hits); every result must equal the single-threaded
// one. Run under -race to check the Go side too.
func TestConcurrentUse(t *testing.T) {
	re := MustCompile(`(\w+)@(\w+)\.com`)
	defer re.Close()
	lm, err := NewLineMatcher(`\b\w+@\w+\.com\b`, LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer lm.Close()
	var sb strings.Builder
	for i := range 200 {
		fmt.Fprintf(&sb, "line %d user%d@host%d.com and more text ü\n", i, i, i%7)
	}
	buf := []byte(sb.String())
	wantAll := re.FindAllBytes(buf)
	var want Hits
	lm.FindLines(buf, 0, &want)

	const workers = 16
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			caps := re.NewCaptures()
			defer caps.Close()
			var h Hits
			for i := range 20 {
				if got := re.FindAllBytes(buf); !reflect.DeepEqual(got, wantAll) {
					errs <- fmt.Errorf("worker %d: FindAll differs", w)
					return
				}
				if !re.CapturesBytes(caps, buf) {
					errs <- fmt.Errorf("worker %d: no captures", w)
					return
				}
				h.Reset()
				lm.FindLines(buf, 0, &h)
				if !reflect.DeepEqual(h.Lines, want.Lines) || !reflect.DeepEqual(h.Spans, want.Spans) {
					errs <- fmt.Errorf("worker %d iteration %d: FindLines differs", w, i)
					return
				}
				if l, _, _ := lm.CountLines(buf); l != 200 {
					errs <- fmt.Errorf("worker %d: CountLines = %d", w, l)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
