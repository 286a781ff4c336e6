package bash

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// deliveries collects what the job manager delivers.
type deliveries struct {
	mu  sync.Mutex
	got []job.Delivery
}

func (d *deliveries) deliver(_ context.Context, x job.Delivery) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got = append(d.got, x)
	return nil
}

// wait returns the deliveries once there are n of them.
func (d *deliveries) wait(t *testing.T, n int) []job.Delivery {
	t.Helper()
	var out []job.Delivery
	testwait.Until(t, fmt.Sprintf("%d deliveries", n), func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		out = append(out[:0], d.got...)
		return len(out) >= n
	})
	return out
}

func TestBashAsync(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.Settings.Bash.AsyncEnabled = true
	var d deliveries
	env.manager().SetDeliver(d.deliver)
	o := callTool(t, env, `{"command": "sleep 0.1; echo done; export NOT_SHARED=1", "async": true, "timeout": 5000}`)
	want := "Timeout clamped to 3600s (requested 5000s; allowed range 1-3600s).\n\nBackground job bg_1 started: sleep 0.1; echo done; export NOT_SHARED=1\n" + startedText
	if o.isError || o.text != want || o.details.Async == nil || *o.details.Async != (Async{State: "running", JobID: "bg_1", Type: "bash"}) {
		t.Fatalf("%q %+v", o.text, o.details)
	}
	got := d.wait(t, 1)
	if got[0].JobID != "bg_1" || !strings.HasPrefix(got[0].Text, "done\n") || got[0].Type != "bash" {
		t.Fatalf("%+v", got)
	}
	// Async jobs run in their own shell.
	if o := callTool(t, env, `{"command": "echo ${NOT_SHARED:-unset}"}`); o.text != "unset\n" {
		t.Fatal(o.text)
	}
	// A failing job delivers its error text.
	callTool(t, env, `{"command": "echo oops; exit 2", "async": true}`)
	got = d.wait(t, 2)
	if got[1].Text != "oops\n\nCommand exited with code 2" {
		t.Fatalf("%q", got[1].Text)
	}
	if s, _ := env.manager().Get(got[1].JobID); s.Status != job.Failed {
		t.Fatal(s)
	}
}

func TestBashAsyncLimit(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.Settings.Bash.AsyncEnabled = true
	env.Settings.Bash.AsyncMaxJobs = 100
	var d deliveries
	env.manager().SetDeliver(d.deliver)
	// The jobs wait for a gate file, so all 100 still run when the 101st
	// is asked for, however slowly they were started.
	gate := filepath.Join(t.TempDir(), "gate")
	for i := range 100 {
		o := callTool(t, env, fmt.Sprintf(`{"command": "while [ ! -e %s ]; do sleep 0.02; done; echo job%d", "async": true}`, gate, i))
		if o.isError {
			t.Fatalf("%d: %s", i, o.text)
		}
	}
	o := callTool(t, env, `{"command": "true", "async": true}`)
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !o.isError || o.text != "Background job limit reached (100). Wait for running jobs to finish or cancel one." {
		t.Fatal(o.text)
	}
	got := d.wait(t, 100)
	seen := map[string]bool{}
	for _, x := range got {
		seen[strings.TrimSpace(x.Text)] = true
	}
	if len(seen) != 100 {
		count := map[string]int{}
		for _, x := range got {
			count[strings.TrimSpace(x.Text)]++
		}
		var dups []string
		for text, n := range count {
			if n > 1 {
				dups = append(dups, fmt.Sprintf("%d× %q", n, text))
			}
		}
		t.Fatalf("%d distinct results; repeated: %v", len(seen), dups)
	}
}

func TestBashAutoBackground(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.Settings.Bash.AutoBackground = true
	env.Settings.Bash.AutoThreshold = 300 * time.Millisecond
	var d deliveries
	m := env.manager()
	m.SetDeliver(d.deliver)
	// Fast commands answer as usual, in the persistent shell.
	callTool(t, env, `{"command": "export SHARED=yes"}`)
	o := callTool(t, env, `{"command": "echo $SHARED"}`)
	if o.isError || o.text != "yes\n" || o.details.Async != nil {
		t.Fatalf("%q %+v", o.text, o.details)
	}
	if o := callTool(t, env, `{"command": "false"}`); o.text != "(no output)\n\nCommand exited with code 1" {
		t.Fatal(o.text)
	}
	// The call moves to the background when the test says so, once the
	// command's first line has come as an update; the command waits for a
	// gate file written only once the call has returned, so it cannot
	// finish first however loaded the machine is.
	var u updates
	waited, firstSeen := make(chan time.Duration, 1), make(chan time.Time)
	var once sync.Once
	tl := env.tool().(*Tool)
	tl.autoTimer = func(d time.Duration) <-chan time.Time {
		waited <- d
		return firstSeen
	}
	onUpdate := func(r *tool.Result) {
		u.fn(r)
		if strings.Contains(r.FirstText(), "first") {
			once.Do(func() { close(firstSeen) })
		}
	}
	gate := filepath.Join(t.TempDir(), "gate")
	o = callToolCtx(context.Background(), t, tl, fmt.Sprintf(`{"command": "echo first; while [ ! -e %s ]; do sleep 0.02; done; echo second"}`, gate), onUpdate)
	if d := <-waited; d != 300*time.Millisecond {
		t.Fatalf("waited %v, want the 300ms threshold", d)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if o.isError || !strings.HasPrefix(o.text, "first\n\nBackground job bg_") || o.details.Async == nil || o.details.Async.State != "running" {
		t.Fatalf("%q %+v", o.text, o.details)
	}
	if len(u.all()) == 0 {
		t.Fatal("no live update while waiting")
	}
	got := d.wait(t, 1)
	if got[0].Text != "first\nsecond\n" {
		t.Fatalf("%q", got[0].Text)
	}
	// The timeout caps the wait: a 1 s timeout backgrounds at once.
	o = callTool(t, env, `{"command": "echo quick", "timeout": 1}`)
	if !strings.Contains(o.text, "Background job") {
		t.Fatal(o.text)
	}
	d.wait(t, 2)
}

func TestBashAutoBackgroundAbort(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.Settings.Bash.AutoBackground = true
	env.Settings.Bash.AutoThreshold = 10 * time.Second
	var d deliveries
	env.manager().SetDeliver(d.deliver)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	o := callCtx(ctx, t, env, `{"command": "yes > /dev/null"}`, nil)
	if !o.aborted || time.Since(start) > 5*time.Second {
		t.Fatalf("%+v", o)
	}
	// Once the job has finished its work, a delivery would be queued or
	// made already.
	if !env.manager().WaitAny(context.Background(), []string{"bg_1"}) {
		t.Fatal("no job bg_1")
	}
	d.mu.Lock()
	delivered := len(d.got)
	d.mu.Unlock()
	if delivered != 0 || len(env.manager().Pending()) != 0 {
		t.Fatal("an aborted call was delivered")
	}
	if s, _ := env.manager().Get("bg_1"); s.Status != job.Cancelled {
		t.Fatal(s)
	}
}
