//go:build cgo

package rure

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestNoLeakedNativeObjects runs many compile/search/close cycles through
// every gopi_ allocation path (matchers, error strings) and requires the
// native live-object counter to return to its baseline. A single missing
// free makes it drift by thousands.
func TestNoLeakedNativeObjects(t *testing.T) {
	const cycles = 10000
	buf := []byte("alpha beta\ngamma delta\nbeta\n")
	before := liveObjects()
	var h Hits
	for i := range cycles {
		m, err := NewLineMatcher(`b\w+`+strconv.Itoa(i%7)+`?`, LineOptions{CaseInsensitive: i%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		h.Reset()
		m.FindLines(buf, 0, &h)
		m.CountLines(buf)
		m.IsMatch(buf)
		m.Close()
		if _, err := NewLineMatcher(`bad(`, LineOptions{}); err == nil {
			t.Fatal("no error")
		}
		if _, err := Compile(`bad[`); err == nil { // allocates a syntax-error string
			t.Fatal("no error")
		}
	}
	if len(h.Lines) != 2 {
		t.Fatalf("unexpected hits %+v", h.Lines)
	}
	if after := liveObjects(); after != before {
		t.Fatalf("live native objects: %d before, %d after %d cycles", before, after, cycles)
	}
}

// rssBytes returns the resident set size from /proc/self/statm.
func rssBytes(t *testing.T) int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	fields := strings.Fields(string(data))
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// rssCycles is how many compile/free cycles the RSS test runs.
const rssCycles = 3000

// TestRureObjectsFreed checks the rure objects, which the counter cannot
// see, through memory: rssCycles cycles of compile, captures, iterator,
// options and search must keep RSS growth far below what leaking them
// would cost. One compiled `(\w+)\s(\w+)` (Unicode classes) with warm
// caches takes well over 100 KiB, so leaking them would add hundreds of
// MiB; the bound allows 32 MiB of allocator noise, and
// TestLeakDetectorDetects checks that margin.
func TestRureObjectsFreed(t *testing.T) {
	if testing.Short() {
		t.Skip("slow in -short mode")
	}
	hay := bytes.Repeat([]byte("word another "), 50)
	cycle := func() {
		opts := NewOptions()
		opts.SizeLimit(1 << 20)
		re, err := CompileOptions(`(\w+)\s(\w+)`, FlagDefault, opts)
		opts.Close()
		if err != nil {
			t.Fatal(err)
		}
		caps := re.NewCaptures()
		re.CapturesBytes(caps, hay)
		it := re.IterBytes(hay)
		for it.NextCaptures(caps) {
		}
		it.Close()
		caps.Close()
		re.CaptureNames()
		re.CaptureIndex("x")
		re.Close()
	}
	for range 500 { // warm up allocator pools
		cycle()
	}
	before := rssBytes(t)
	for range rssCycles {
		cycle()
	}
	grown := rssBytes(t) - before
	t.Logf("RSS growth over %d cycles: %d KiB", rssCycles, grown>>10)
	if grown > 32<<20 {
		t.Fatalf("RSS grew by %d MiB over %d compile/free cycles: rure objects leak", grown>>20, rssCycles)
	}
}

// TestLeakDetectorDetects proves the RSS bound above would catch a real
// leak: it measures what one live regex costs and checks that rssCycles
// of them exceed the bound several times over.
func TestLeakDetectorDetects(t *testing.T) {
	if testing.Short() {
		t.Skip("slow in -short mode")
	}
	before := rssBytes(t)
	kept := make([]*Regex, 0, 500)
	for range cap(kept) {
		re := MustCompile(`(\w+)\s(\w+)`)
		re.IsMatch("warm the caches up")
		kept = append(kept, re)
	}
	grown := rssBytes(t) - before
	for _, re := range kept {
		re.Close()
	}
	perRegex := grown / int64(len(kept))
	t.Logf("RSS per live regex: %d bytes", perRegex)
	if perRegex*rssCycles <= 4*(32<<20) {
		t.Fatalf("%d leaked regexes would add only %d MiB: the bound in TestRureObjectsFreed is too loose", rssCycles, perRegex*rssCycles>>20)
	}
}
