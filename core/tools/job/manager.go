package job

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Job statuses.
const (
	Running   = "running"
	Completed = "completed"
	Failed    = "failed"
	Cancelled = "cancelled"
)

// Limits of the manager.
const (
	DefaultRetention  = 5 * time.Minute // how long a finished job stays visible
	DefaultMaxRunning = 15              // running jobs without async.maxJobs
	retryBase         = 500 * time.Millisecond
	retryMax          = 30 * time.Second
	retryJitter       = 200 * time.Millisecond
)

// Snapshot is a job as the job tool reports it.
type Snapshot struct {
	ID         string `json:"id"`
	Type       string `json:"type"`   // "bash" or "task"
	Status     string `json:"status"` // Running, Completed, Failed or Cancelled
	Label      string `json:"label"`
	DurationMs int64  `json:"durationMs"`
	ResultText string `json:"resultText,omitempty"`
	ErrorText  string `json:"errorText,omitempty"`
}

// Delivery is a finished job's result handed to the model.
type Delivery struct {
	JobID    string
	Type     string
	Label    string
	Text     string        // the result, or the error text of a failed job
	Duration time.Duration // how long the job ran
}

// DeliverFunc hands a finished job's result to the model (the session
// sends it as a follow-up message); an error makes the manager retry with
// backoff.
type DeliverFunc func(ctx context.Context, d Delivery) error

// RunFunc is a job's work. progress reports interim text (and details)
// to whoever started the job; the returned text is the job's result, an
// error its failure.
type RunFunc func(ctx context.Context, id string, progress func(text string, details any)) (string, error)

// RegisterOptions refine Register.
type RegisterOptions struct {
	ID         string                         // preferred id; made unique with -2, -3, …; "" gives bg_N
	OnProgress func(text string, details any) // receives the job's progress reports
}

// job is one job's record.
type job struct {
	Snapshot
	start  time.Time
	end    time.Time
	cancel context.CancelFunc
	done   chan struct{} // closed when the work has returned
}

// Manager runs a session's background jobs, keeps finished ones for the
// retention period, and delivers results the model has not collected
// with the job tool. Safe for concurrent use.
type Manager struct {
	// Set by NewManager and never changed.
	maxRunning int
	retention  time.Duration
	wake       chan struct{}      // nudges the delivery loop
	ctx        context.Context    // the jobs' and deliveries' parent, cancelled by Close
	stop       context.CancelFunc // cancels ctx
	work       sync.WaitGroup     // running jobs and the delivery loop

	mu         sync.Mutex
	jobs       map[string]*job
	order      []string        // ids in registration order
	suppressed map[string]bool // results already seen (or not to be delivered)
	watched    map[string]int  // ids a job call is waiting on
	queue      []queued        // deliveries not yet made
	timers     map[string]*time.Timer
	deliver    DeliverFunc
	loop       bool // the delivery loop is running
	closed     bool
}

// queued is a pending delivery.
type queued struct {
	Delivery
	attempt int
	next    time.Time
}

// NewManager returns a manager allowing maxRunning jobs at once (<= 0:
// DefaultMaxRunning) and keeping finished jobs for retention (< 0: not
// at all; 0: DefaultRetention).
func NewManager(maxRunning int, retention time.Duration) *Manager {
	if maxRunning <= 0 {
		maxRunning = DefaultMaxRunning
	}
	if retention == 0 {
		retention = DefaultRetention
	}
	ctx, stop := context.WithCancel(context.Background())
	return &Manager{
		maxRunning: maxRunning, retention: retention,
		jobs: map[string]*job{}, suppressed: map[string]bool{}, watched: map[string]int{},
		timers: map[string]*time.Timer{}, wake: make(chan struct{}, 1), ctx: ctx, stop: stop,
	}
}

// NewManagerFor returns the manager of a session with env's settings
// (async.maxJobs); the session's services own it and close it.
func NewManagerFor(env *tool.Env) *Manager {
	return NewManager(env.Settings.Bash.AsyncMaxJobs, DefaultRetention)
}

// Enabled reports whether background jobs exist in a session: async.enabled
// or bash.autoBackground.enabled.
func Enabled(env *tool.Env) bool {
	return env.Settings.Bash.AsyncEnabled || env.Settings.Bash.AutoBackground
}

// SetDeliver sets how finished jobs reach the model (nil: they do not;
// the job tool still reports them).
func (m *Manager) SetDeliver(fn DeliverFunc) {
	m.mu.Lock()
	m.deliver = fn
	m.mu.Unlock()
	m.nudge()
}

// ErrClosed is returned by Register after Close.
var ErrClosed = errors.New("background jobs are shut down for this session")

// Register starts run as a background job of type typ ("bash", "task")
// and returns its id. It fails when the running-job limit is reached.
func (m *Manager) Register(typ, label string, run RunFunc, opts RegisterOptions) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return "", ErrClosed
	}
	running := 0
	for _, j := range m.jobs {
		if j.Status == Running {
			running++
		}
	}
	if running >= m.maxRunning {
		return "", fmt.Errorf("Background job limit reached (%d). Wait for running jobs to finish or cancel one.", m.maxRunning)
	}
	id := m.newID(opts.ID)
	ctx, cancel := context.WithCancel(m.ctx)
	j := &job{Snapshot: Snapshot{ID: id, Type: typ, Status: Running, Label: label}, start: time.Now(), cancel: cancel, done: make(chan struct{})}
	m.jobs[id] = j
	m.order = append(m.order, id)
	delete(m.suppressed, id)
	progress := func(text string, details any) {
		if opts.OnProgress != nil {
			opts.OnProgress(text, details)
		}
	}
	m.work.Add(1)
	go func() {
		defer m.work.Done()
		defer cancel()
		text, err := run(ctx, id, progress)
		m.finish(j, text, err)
	}()
	return id, nil
}

// newID returns preferred made unique, or the lowest free bg_N.
func (m *Manager) newID(preferred string) string {
	preferred = strings.TrimSpace(preferred)
	if preferred == "" {
		for n := 1; ; n++ {
			if id := "bg_" + strconv.Itoa(n); m.jobs[id] == nil {
				return id
			}
		}
	}
	if m.jobs[preferred] == nil {
		return preferred
	}
	for n := 2; ; n++ {
		if id := preferred + "-" + strconv.Itoa(n); m.jobs[id] == nil {
			return id
		}
	}
}

// finish records a job's outcome and queues its delivery.
func (m *Manager) finish(j *job, text string, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j.end = time.Now()
	if err != nil {
		j.ErrorText = err.Error()
	} else {
		j.ResultText = text
	}
	if j.Status == Running {
		if err != nil {
			j.Status = Failed
		} else {
			j.Status = Completed
		}
		if !m.isSuppressed(j.ID) {
			out := text
			if err != nil {
				out = err.Error()
			}
			m.queue = append(m.queue, queued{Delivery: Delivery{JobID: j.ID, Type: j.Type, Label: j.Label, Text: out, Duration: j.end.Sub(j.start)}, next: time.Now()})
			m.startLoop()
		}
	}
	close(j.done)
	m.scheduleEviction(j.ID)
}

// Cancel stops a running job; false when it is unknown or not running.
func (m *Manager) Cancel(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	j := m.jobs[id]
	if j == nil || j.Status != Running {
		return false
	}
	j.Status = Cancelled
	j.cancel()
	return true
}

// Get returns a job's snapshot.
func (m *Manager) Get(id string) (Snapshot, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j := m.jobs[id]
	if j == nil {
		return Snapshot{}, false
	}
	return m.snapshot(j), true
}

// snapshot copies a job with its current duration; the caller holds mu.
func (m *Manager) snapshot(j *job) Snapshot {
	s := j.Snapshot
	end := j.end
	if end.IsZero() {
		end = time.Now()
	}
	s.DurationMs = max(end.Sub(j.start).Milliseconds(), 0)
	return s
}

// All returns every job in registration order; Running only the running
// ones.
func (m *Manager) All() []Snapshot { return m.list(false) }

// Running returns the running jobs in registration order.
func (m *Manager) Running() []Snapshot { return m.list(true) }

func (m *Manager) list(running bool) []Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Snapshot
	for _, id := range m.order {
		if j := m.jobs[id]; j != nil && (!running || j.Status == Running) {
			out = append(out, m.snapshot(j))
		}
	}
	return out
}

// WaitAny waits until one of the jobs ids has finished its work, ctx
// ends, or none of them is known. It reports whether one finished.
func (m *Manager) WaitAny(ctx context.Context, ids []string) bool {
	m.mu.Lock()
	var chans []chan struct{}
	for _, id := range ids {
		if j := m.jobs[id]; j != nil {
			chans = append(chans, j.done)
		}
	}
	m.mu.Unlock()
	if len(chans) == 0 {
		return false
	}
	finished := make(chan struct{})
	stop := make(chan struct{})
	defer close(stop)
	for _, c := range chans {
		go func() {
			select {
			case <-c:
				select {
				case finished <- struct{}{}:
				case <-stop:
				}
			case <-stop:
			}
		}()
	}
	select {
	case <-finished:
		return true
	case <-ctx.Done():
		return false
	}
}

// Watch suppresses automatic delivery for ids while a job call waits on
// them; Unwatch ends that.
func (m *Manager) Watch(ids []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		m.watched[id]++
	}
}

// Unwatch undoes Watch.
func (m *Manager) Unwatch(ids []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		if m.watched[id]--; m.watched[id] <= 0 {
			delete(m.watched, id)
		}
	}
	m.nudgeLocked()
}

// Acknowledge marks results as seen by the model: they are not delivered
// (again), and queued deliveries for them are dropped.
func (m *Manager) Acknowledge(ids []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		m.suppressed[id] = true
	}
	m.queue = slices.DeleteFunc(m.queue, func(q queued) bool { return m.suppressed[q.JobID] })
}

// Forget cancels every running job and drops every result not yet
// delivered, for a session that moves to another conversation (new or
// switched session): nothing from the old one reaches the new one. The
// manager stays open for new jobs.
func (m *Manager) Forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, j := range m.jobs {
		if j.Status == Running {
			j.Status = Cancelled
			j.cancel()
		}
		m.suppressed[id] = true
	}
	m.queue = m.queue[:0]
}

func (m *Manager) isSuppressed(id string) bool { return m.suppressed[id] || m.watched[id] > 0 }

// Pending returns the ids of results waiting to be delivered.
func (m *Manager) Pending() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, len(m.queue))
	for i, q := range m.queue {
		out[i] = q.JobID
	}
	return out
}

// scheduleEviction forgets a finished job after the retention period;
// the caller holds mu.
func (m *Manager) scheduleEviction(id string) {
	forget := func() {
		delete(m.jobs, id)
		delete(m.suppressed, id)
		delete(m.watched, id)
		delete(m.timers, id)
		m.order = slices.DeleteFunc(m.order, func(x string) bool { return x == id })
	}
	if m.retention < 0 {
		forget()
		return
	}
	if t := m.timers[id]; t != nil {
		t.Stop()
	}
	m.timers[id] = time.AfterFunc(m.retention, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if j := m.jobs[id]; j != nil && j.Status != Running {
			forget()
		}
	})
}

func (m *Manager) nudge() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nudgeLocked()
}

// nudgeLocked wakes the delivery loop (starting it when there is work);
// the caller holds mu.
func (m *Manager) nudgeLocked() {
	if len(m.queue) > 0 {
		m.startLoop()
	}
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// startLoop starts the delivery loop unless it runs; the caller holds mu.
func (m *Manager) startLoop() {
	if m.loop || m.closed {
		return
	}
	m.loop = true
	m.work.Add(1)
	go m.deliveryLoop()
}

// deliveryLoop delivers queued results in order, retrying failures with
// exponential backoff, until the queue is empty or the manager closes.
func (m *Manager) deliveryLoop() {
	defer m.work.Done()
	for {
		m.mu.Lock()
		m.queue = slices.DeleteFunc(m.queue, func(q queued) bool { return m.suppressed[q.JobID] })
		var q *queued
		for i := range m.queue {
			if m.watched[m.queue[i].JobID] == 0 {
				q = &m.queue[i]
				break
			}
		}
		deliver := m.deliver
		if q == nil || m.closed {
			m.loop = false
			m.mu.Unlock()
			return
		}
		item := *q
		m.mu.Unlock()

		if wait := time.Until(item.next); wait > 0 || deliver == nil {
			var timer *time.Timer
			var fire <-chan time.Time
			if deliver != nil {
				timer = time.NewTimer(wait)
				fire = timer.C
			}
			select {
			case <-fire:
			case <-m.wake:
			case <-m.ctx.Done():
			}
			if timer != nil {
				timer.Stop()
			}
			if m.ctx.Err() != nil {
				m.mu.Lock()
				m.loop = false
				m.mu.Unlock()
				return
			}
			continue
		}
		err := deliver(m.ctx, item.Delivery)
		m.mu.Lock()
		i := slices.IndexFunc(m.queue, func(x queued) bool { return x.JobID == item.JobID })
		if i >= 0 {
			if err == nil {
				m.queue = slices.Delete(m.queue, i, i+1)
			} else {
				m.queue[i].attempt++
				m.queue[i].next = time.Now().Add(retryDelay(m.queue[i].attempt))
			}
		}
		m.mu.Unlock()
	}
}

// retryDelay is the wait before delivery attempt n+1: 500ms doubling per
// attempt (at most 8 doublings), plus up to 200ms jitter, capped at 30s.
func retryDelay(attempt int) time.Duration {
	exp := min(max(attempt-1, 0), 8)
	d := retryBase<<exp + time.Duration(rand.Int64N(int64(retryJitter)))
	return min(d, retryMax)
}

// Close is Shutdown with a five-second grace (the session's services
// close it, before the shell).
func (m *Manager) Close() error {
	m.Shutdown(5 * time.Second)
	return nil
}

// Shutdown cancels the running jobs, waits up to grace for them (and any
// delivery in progress) to return, and stops the manager.
func (m *Manager) Shutdown(grace time.Duration) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	for _, j := range m.jobs {
		if j.Status == Running {
			j.Status = Cancelled
			j.cancel()
		}
	}
	for _, t := range m.timers {
		t.Stop()
	}
	m.mu.Unlock()
	m.stop()
	done := make(chan struct{})
	go func() { m.work.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
	}
}
