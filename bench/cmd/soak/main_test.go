package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseStatus(t *testing.T) {
	status := "Name:\tgopi\nVmPeak:\t 2000 kB\nVmHWM:\t   61234 kB\nVmRSS:\t   51234 kB\nRssAnon:\t   21000 kB\nRssFile:\t   30234 kB\nThreads:\t11\nSigQ:\t0/1\n"
	rss, anon, hwm, threads := parseStatus(status)
	if rss != 51234 || anon != 21000 || hwm != 61234 || threads != 11 {
		t.Fatalf("got rss %d anon %d hwm %d threads %d", rss, anon, hwm, threads)
	}
}

func TestParseCPU(t *testing.T) {
	// The command name holds a space and a parenthesis; utime 250 and
	// stime 50 ticks are the 14th and 15th fields.
	stat := "4242 (go pi) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0 100 1000 200"
	if got := parseCPU(stat); got != 3*time.Second {
		t.Fatalf("got %v, want 3s", got)
	}
}

// A scheduler trace block counts the goroutines that are not dead, the
// scan bit aside; a block is complete only once the next one starts.
func TestSchedTrace(t *testing.T) {
	tr := newSchedTrace()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lines := []string{
		"SCHED 0ms: gomaxprocs=2 idleprocs=0 threads=3",
		"  P0: status=1 schedtick=0",
		"  M0: p=0 curg=1",
		"  G1: status=4(select) m=nil lockedm=nil",
		"  G2: status=6() m=nil lockedm=nil",
		"  G3: status=4100(chan receive) m=nil lockedm=nil",
		"  G4: status=4102() m=nil lockedm=nil",
		"gopi: a warning",
	}
	for _, l := range lines {
		tr.line(l, t0)
	}
	if _, err := tr.next(t0.Add(-time.Second), 0); err == nil {
		t.Fatal("an incomplete block was used")
	}
	tr.line("SCHED 500ms: gomaxprocs=2", t0.Add(time.Second))
	live, err := tr.next(t0.Add(-time.Second), time.Second)
	if err != nil || live != 2 {
		t.Fatalf("live goroutines %d, %v; want 2 (G1 and G3)", live, err)
	}
	if tail := tr.tail(); tail != "gopi: a warning" {
		t.Fatalf("other lines: %q", tail)
	}
	// A block that began before the sample does not answer for it.
	if _, err := tr.next(t0.Add(time.Millisecond), 0); err == nil {
		t.Fatal("a block from before the sample was used")
	}
}

func TestCountStacks(t *testing.T) {
	dump := "SIGQUIT: quit\nPC=0x1 m=0 sigcode=0\n\ngoroutine 0 gp=0x1 m=0 mp=0x2 [idle]:\nruntime.futex()\n\ngoroutine 1 [select]:\nmain.main()\n\tmain.go:1 +0x1\n\ngoroutine 7 [chan receive, 3 minutes]:\nx()\n"
	if n := countStacks(dump); n != 3 {
		t.Fatalf("counted %d goroutines, want 3", n)
	}
}

func TestVerdict(t *testing.T) {
	o := options{rssFactor: 1.2, goroutineSlack: 5}
	base := sample{prompt: 100, rssKiB: 1000, anonKiB: 500, fds: 16, goroutines: 18}
	for _, c := range []struct {
		last  sample
		fails []string
	}{
		{sample{prompt: 1000, rssKiB: 1200, anonKiB: 600, fds: 16, goroutines: 23}, nil},
		{sample{prompt: 1000, rssKiB: 1201, anonKiB: 500, fds: 16, goroutines: 18}, []string{"(VmRSS)"}},
		{sample{prompt: 1000, rssKiB: 1100, anonKiB: 601, fds: 16, goroutines: 18}, []string{"(RssAnon)"}},
		{sample{prompt: 1000, rssKiB: 900, anonKiB: 500, fds: 17, goroutines: 18}, []string{"descriptors"}},
		{sample{prompt: 1000, rssKiB: 900, anonKiB: 500, fds: 15, goroutines: 24}, []string{"goroutines"}},
	} {
		var fails []string
		for _, ch := range verdict([]sample{base, c.last}, o) {
			if !ch.ok {
				fails = append(fails, ch.line)
			}
		}
		if len(fails) != len(c.fails) {
			t.Fatalf("%+v: failures %q, want ones about %q", c.last, fails, c.fails)
		}
		for i := range fails {
			if !strings.HasPrefix(fails[i], "FAIL") || !strings.Contains(fails[i], c.fails[i]) {
				t.Fatalf("%+v: failure %q, want one about %q", c.last, fails[i], c.fails[i])
			}
		}
	}
	o.rssFactor = 0 // report only
	for _, ch := range verdict([]sample{base, {prompt: 1000, rssKiB: 5000, anonKiB: 5000, fds: 16, goroutines: 18}}, o) {
		if !ch.ok {
			t.Fatalf("memory is not checked with -rss 0: %s", ch.line)
		}
	}
	if v := verdict([]sample{base}, o); len(v) != 1 || v[0].ok {
		t.Fatalf("one sample: %+v", v)
	}
}

// Every prompt scripts five tool calls with distinct ids and a final
// answer, which the soak's own checks count on.
func TestPromptTurns(t *testing.T) {
	seen := map[string]bool{}
	for i := 1; i <= 3; i++ {
		turns := promptTurns(i)
		calls := 0
		for _, tu := range turns {
			if err := tu.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, b := range tu.Blocks {
				if b.Type == "toolCall" {
					calls++
					if seen[b.ID] {
						t.Fatalf("tool call id %s used twice", b.ID)
					}
					seen[b.ID] = true
				}
			}
		}
		if calls != 5 {
			t.Fatalf("prompt %d scripts %d tool calls", i, calls)
		}
		if last := turns[len(turns)-1].Blocks; len(last) != 1 || last[0].Type != "text" {
			t.Fatalf("prompt %d does not end with an answer: %+v", i, last)
		}
	}
}
