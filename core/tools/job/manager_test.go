package job

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// recorder collects deliveries.
type recorder struct {
	mu   sync.Mutex
	got  []Delivery
	fail int // fail this many attempts first
	ch   chan Delivery
}

func newRecorder() *recorder { return &recorder{ch: make(chan Delivery, 100)} }

func (r *recorder) deliver(_ context.Context, d Delivery) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail > 0 {
		r.fail--
		return errors.New("busy")
	}
	r.got = append(r.got, d)
	r.ch <- d
	return nil
}

func (r *recorder) wait(t *testing.T) Delivery {
	t.Helper()
	select {
	case d := <-r.ch:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery")
		return Delivery{}
	}
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

func sleeper(d time.Duration, text string) RunFunc {
	return func(ctx context.Context, _ string, _ func(string, any)) (string, error) {
		select {
		case <-time.After(d):
			return text, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

func TestManagerLifecycle(t *testing.T) {
	t.Parallel()
	m := NewManager(0, 0)
	defer m.Shutdown(time.Second)
	rec := newRecorder()
	m.SetDeliver(rec.deliver)
	id, err := m.Register("bash", "echo hi", sleeper(10*time.Millisecond, "hi"), RegisterOptions{})
	if err != nil || id != "bg_1" {
		t.Fatal(id, err)
	}
	if s, _ := m.Get(id); s.Status != Running {
		t.Fatal(s)
	}
	d := rec.wait(t)
	if d.JobID != "bg_1" || d.Text != "hi" || d.Type != "bash" || d.Label != "echo hi" {
		t.Fatalf("%+v", d)
	}
	if s, _ := m.Get(id); s.Status != Completed || s.ResultText != "hi" {
		t.Fatal(s)
	}
	// A failing job delivers its error.
	id2, _ := m.Register("task", "boom", func(context.Context, string, func(string, any)) (string, error) {
		return "", errors.New("it broke")
	}, RegisterOptions{})
	if d := rec.wait(t); d.JobID != id2 || d.Text != "it broke" {
		t.Fatalf("%+v", d)
	}
	if s, _ := m.Get(id2); s.Status != Failed || s.ErrorText != "it broke" {
		t.Fatal(s)
	}
	// Preferred ids are made unique.
	a, _ := m.Register("bash", "x", sleeper(0, ""), RegisterOptions{ID: "build"})
	b, _ := m.Register("bash", "x", sleeper(0, ""), RegisterOptions{ID: "build"})
	if a != "build" || b != "build-2" {
		t.Fatal(a, b)
	}
}

func TestManagerCancel(t *testing.T) {
	t.Parallel()
	m := NewManager(0, 0)
	defer m.Shutdown(time.Second)
	rec := newRecorder()
	m.SetDeliver(rec.deliver)
	id, _ := m.Register("bash", "sleep", sleeper(time.Hour, ""), RegisterOptions{})
	if !m.Cancel(id) || m.Cancel(id) || m.Cancel("nope") {
		t.Fatal("cancel results")
	}
	m.WaitAny(context.Background(), []string{id})
	s, _ := m.Get(id)
	if s.Status != Cancelled || !strings.Contains(s.ErrorText, "canceled") {
		t.Fatalf("%+v", s)
	}
	// A delivery is queued before the job counts as finished: none is
	// queued or made.
	if len(m.Pending()) != 0 || rec.count() != 0 {
		t.Fatal("a cancelled job was delivered")
	}
}

func TestManagerLimitAndRetention(t *testing.T) {
	t.Parallel()
	m := NewManager(2, 50*time.Millisecond)
	defer m.Shutdown(time.Second)
	m.Register("bash", "a", sleeper(time.Hour, ""), RegisterOptions{})
	m.Register("bash", "b", sleeper(time.Hour, ""), RegisterOptions{})
	if _, err := m.Register("bash", "c", sleeper(0, ""), RegisterOptions{}); err == nil || !strings.Contains(err.Error(), "Background job limit reached (2)") {
		t.Fatal(err)
	}
	m.Cancel("bg_1")
	m.WaitAny(context.Background(), []string{"bg_1"})
	id, err := m.Register("bash", "c", sleeper(0, "done"), RegisterOptions{})
	if err != nil || id != "bg_3" {
		t.Fatal(id, err)
	}
	testwait.Until(t, "bg_1 to be evicted", func() bool {
		_, ok := m.Get("bg_1")
		return !ok
	})
	if got := len(m.All()); got != 1 { // bg_2 runs; bg_3 evicted too
		if _, ok := m.Get("bg_2"); !ok || got > 2 {
			t.Fatal(m.All())
		}
	}
	// The lowest free id is reused.
	id, _ = m.Register("bash", "d", sleeper(0, ""), RegisterOptions{})
	if id != "bg_1" {
		t.Fatal(id)
	}
}

func TestManagerSuppression(t *testing.T) {
	t.Parallel()
	m := NewManager(0, 0)
	defer m.Shutdown(time.Second)
	rec := newRecorder()
	m.SetDeliver(rec.deliver)
	release := make(chan struct{})
	run := func(ctx context.Context, _ string, _ func(string, any)) (string, error) { <-release; return "out", nil }
	watched, _ := m.Register("bash", "w", run, RegisterOptions{})
	m.Watch([]string{watched})
	close(release)
	m.WaitAny(context.Background(), []string{watched})
	m.Acknowledge([]string{watched})
	m.Unwatch([]string{watched})
	// A delivery is queued before the job counts as finished: none is
	// queued or made.
	if len(m.Pending()) != 0 || rec.count() != 0 {
		t.Fatal("a watched result was delivered")
	}
	// Without a deliverer results wait; acknowledging drops them.
	m.SetDeliver(nil)
	a, _ := m.Register("bash", "a", sleeper(0, "A"), RegisterOptions{})
	b, _ := m.Register("bash", "b", sleeper(0, "B"), RegisterOptions{})
	m.WaitAny(context.Background(), []string{a})
	m.WaitAny(context.Background(), []string{b})
	if p := m.Pending(); len(p) != 2 {
		t.Fatal(p)
	}
	m.Acknowledge([]string{a})
	m.SetDeliver(rec.deliver)
	if d := rec.wait(t); d.JobID != b {
		t.Fatal(d)
	}
}

func TestManagerRetry(t *testing.T) {
	t.Parallel()
	m := NewManager(0, 0)
	defer m.Shutdown(time.Second)
	rec := newRecorder()
	rec.fail = 1
	m.SetDeliver(rec.deliver)
	start := time.Now()
	m.Register("bash", "x", sleeper(0, "later"), RegisterOptions{})
	if d := rec.wait(t); d.Text != "later" {
		t.Fatal(d)
	}
	if el := time.Since(start); el < 450*time.Millisecond {
		t.Fatalf("retried after %v", el)
	}
	for n, want := range map[int]time.Duration{1: 500 * time.Millisecond, 2: time.Second, 9: 30 * time.Second, 20: 30 * time.Second} {
		if d := retryDelay(n); d < want || d > want+retryJitter {
			t.Errorf("attempt %d: %v", n, d)
		}
	}
}

func TestManagerManyJobs(t *testing.T) {
	t.Parallel()
	m := NewManager(100, 0)
	rec := newRecorder()
	m.SetDeliver(rec.deliver)
	for i := range 100 {
		if _, err := m.Register("bash", fmt.Sprint(i), sleeper(time.Duration(i%10)*time.Millisecond, fmt.Sprint(i)), RegisterOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		rec.wait(t)
	}
	m.Shutdown(time.Second)
	if _, err := m.Register("bash", "x", sleeper(0, ""), RegisterOptions{}); err != ErrClosed {
		t.Fatal(err)
	}
}

func TestManagerCloseCancels(t *testing.T) {
	t.Parallel()
	m := NewManager(0, 0)
	id, _ := m.Register("bash", "x", sleeper(time.Hour, ""), RegisterOptions{})
	start := time.Now()
	m.Shutdown(5 * time.Second)
	if time.Since(start) > time.Second {
		t.Fatal("close waited")
	}
	if s, _ := m.Get(id); s.Status != Cancelled {
		t.Fatal(s)
	}
}

// Forget ends the old conversation's jobs and drops its undelivered
// results; jobs started afterwards are delivered as usual.
func TestManagerForget(t *testing.T) {
	t.Parallel()
	m := NewManager(0, 0)
	defer m.Shutdown(time.Second)
	rec := newRecorder()
	rec.fail = 1 << 30 // hold deliveries back so one stays queued
	m.SetDeliver(rec.deliver)
	done, _ := m.Register("bash", "quick", sleeper(0, "old result"), RegisterOptions{})
	m.WaitAny(context.Background(), []string{done})
	running, _ := m.Register("bash", "slow", sleeper(time.Hour, ""), RegisterOptions{})
	m.Forget()
	m.WaitAny(context.Background(), []string{running})
	if s, _ := m.Get(running); s.Status != Cancelled {
		t.Fatalf("running job after Forget: %+v", s)
	}
	if p := m.Pending(); len(p) != 0 {
		t.Fatalf("pending after Forget: %v", p)
	}
	rec.mu.Lock()
	rec.fail = 0
	rec.mu.Unlock()
	fresh, err := m.Register("bash", "new", sleeper(0, "new result"), RegisterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := rec.wait(t); d.JobID != fresh || d.Text != "new result" {
		t.Fatalf("delivered %+v", d)
	}
	// Anything else would still be queued or delivered by now.
	testwait.Until(t, "the delivered result to leave the queue", func() bool { return len(m.Pending()) == 0 })
	if rec.count() != 1 {
		t.Fatalf("%d deliveries, want only the new job's", rec.count())
	}
}
