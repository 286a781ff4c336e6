package hindsight

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Retain queue limits, as omp's: a batch is written once 16 memories
// wait, or 5 s after the first of a smaller batch was queued.
const (
	BatchSize     = 16
	FlushInterval = 5 * time.Second
)

// ErrClosed is the error of Enqueue after Close.
var ErrClosed = errors.New("the memory queue is closed (the session is ending); nothing was retained")

// Queue batches memories for one bank and writes them in the background.
// It owns its timer and its writes: Close stops both.
type Queue struct {
	send     func(ctx context.Context, items []Item) error // writes one batch
	onError  func(error)                                   // a failed write (the model is not told)
	interval time.Duration

	ctx    context.Context // the writes' context; Close cancels it
	cancel context.CancelFunc
	wg     sync.WaitGroup // writes in flight

	mu     sync.Mutex
	items  []Item
	timer  *time.Timer
	closed bool
}

// NewQueue returns a queue writing batches with send; onError hears of
// failed writes; interval 0 is FlushInterval.
func NewQueue(send func(ctx context.Context, items []Item) error, onError func(error), interval time.Duration) *Queue {
	if interval <= 0 {
		interval = FlushInterval
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Queue{send: send, onError: onError, interval: interval, ctx: ctx, cancel: cancel}
}

// Enqueue queues items; a full batch is written at once, a smaller one
// after the interval.
func (q *Queue) Enqueue(items ...Item) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	q.items = append(q.items, items...)
	if len(q.items) >= BatchSize {
		q.flushLocked()
		return nil
	}
	if q.timer == nil {
		q.timer = time.AfterFunc(q.interval, q.Flush)
	}
	return nil
}

// Flush writes what waits now.
func (q *Queue) Flush() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.flushLocked()
}

func (q *Queue) flushLocked() {
	if q.timer != nil {
		q.timer.Stop()
		q.timer = nil
	}
	if len(q.items) == 0 {
		return
	}
	batch := q.items
	q.items = nil
	q.wg.Add(1)
	go func() {
		defer q.wg.Done()
		if err := q.send(q.ctx, batch); err != nil && q.onError != nil {
			q.onError(err)
		}
	}()
}

// Close writes what waits and waits for the writes until ctx ends, then
// abandons them. Enqueue fails afterwards.
func (q *Queue) Close(ctx context.Context) {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		q.flushLocked()
	}
	q.mu.Unlock()
	done := make(chan struct{})
	go func() { q.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		q.cancel()
		<-done
	}
	q.cancel()
}
