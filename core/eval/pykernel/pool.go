package pykernel

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/eval/cell"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// Defaults of Options.
const (
	DefaultMaxKernels     = 4
	DefaultIdleTimeout    = 5 * time.Minute
	DefaultInterruptGrace = 3 * time.Second
	sweepInterval         = 30 * time.Second
)

// Options configure a Pool.
type Options struct {
	Environ []string // the environment kernels start from (KEY=VALUE), filtered by FilterEnv
	PassEnv []string // variables to pass although FilterEnv would drop them (python.passEnv)
	// ManagedVenvs are virtualenvs used when neither an active one nor
	// .venv/venv in the session's directory exists.
	ManagedVenvs []string
	// PerCall starts a new kernel for every cell and stops it after
	// (python.kernelMode "per-call"): nothing is kept between cells.
	PerCall        bool
	MaxKernels     int           // kernels alive at once; 0: DefaultMaxKernels
	IdleTimeout    time.Duration // an unused kernel is stopped after it; 0: DefaultIdleTimeout
	InterruptGrace time.Duration // how long an interrupted cell may take to stop before its kernel is killed; 0: DefaultInterruptGrace
}

// Pool owns the Python kernels of one gopi process.
type Pool struct {
	opts Options

	mu      sync.Mutex
	dir     string // where the runner is installed; "" until the first start
	runner  string
	kernels map[*Session]*entry
	closed  bool
	stop    chan struct{} // ends the sweeper; nil until it runs
	swept   chan struct{} // closed when the sweeper has returned
	now     func() time.Time
	// stopping counts the kernels being stopped in the background (a
	// dead one replaced, one evicted); Close waits for them.
	stopping sync.WaitGroup
}

// entry is a session's kernel and when it was last used.
type entry struct {
	k        *kernel
	busy     bool
	lastUsed time.Time
}

// NewPool returns an empty pool; kernels start with the first cell.
func NewPool(opts Options) *Pool {
	if opts.MaxKernels <= 0 {
		opts.MaxKernels = DefaultMaxKernels
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.InterruptGrace <= 0 {
		opts.InterruptGrace = DefaultInterruptGrace
	}
	return &Pool{opts: opts, kernels: map[*Session]*entry{}, now: time.Now}
}

// Session returns a new handle for one agent session's kernel, which
// starts in cwd with extraEnv (KEY=VALUE, after the filter) on the first
// cell. Close it when the session ends.
func (p *Pool) Session(cwd string, extraEnv []string) *Session {
	return &Session{pool: p, cwd: cwd, extraEnv: extraEnv}
}

// Close stops every kernel and the sweeper, and removes the runner's
// directory. Cells still running end as their kernels die.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	entries := p.kernels
	p.kernels = map[*Session]*entry{}
	stop, swept, dir := p.stop, p.swept, p.dir
	p.stop = nil
	p.mu.Unlock()
	if stop != nil {
		close(stop)
		<-swept
	}
	var wg sync.WaitGroup
	for _, e := range entries {
		wg.Add(1)
		go func() { defer wg.Done(); e.k.stop() }()
	}
	wg.Wait()
	p.stopping.Wait()
	if dir != "" {
		return os.RemoveAll(dir)
	}
	return nil
}

// Live returns the number of running kernels.
func (p *Pool) Live() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.kernels)
}

// install puts the runner on disk once; p.mu is held.
func (p *Pool) install() error {
	if p.runner != "" {
		return nil
	}
	dir, err := childproc.MkdirTemp("pykernel")
	if err != nil {
		return fmt.Errorf("cannot install the Python runner: %w", err)
	}
	runner, err := install(dir)
	if err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("cannot install the Python runner: %w", err)
	}
	p.dir, p.runner = dir, runner
	return nil
}

// acquire returns s's kernel, marked busy, starting one when it has
// none. A kernel that died since its last cell is replaced, and why is
// returned.
func (p *Pool) acquire(s *Session) (*kernel, string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, "", fmt.Errorf("the Python kernels were shut down with the session; start a new session")
	}
	var died string
	if e, ok := p.kernels[s]; ok {
		if why := e.k.isDead(); why == "" {
			e.busy, e.lastUsed = true, p.now()
			return e.k, "", nil
		} else {
			died = why
		}
		delete(p.kernels, s)
		p.stopLater(e.k)
	}
	if err := p.install(); err != nil {
		return nil, "", err
	}
	if len(p.kernels) >= p.opts.MaxKernels && !p.evictLocked() {
		return nil, "", fmt.Errorf("all %d Python kernels are busy running cells; wait for one to finish and retry", p.opts.MaxKernels)
	}
	if fi, err := os.Stat(s.cwd); err != nil || !fi.IsDir() {
		return nil, "", fmt.Errorf("cannot start the Python kernel: the working directory %s no longer exists; recreate it, or start gopi in an existing directory", s.cwd)
	}
	env := append(FilterEnv(p.opts.Environ, p.opts.PassEnv), s.env()...)
	python, env, err := resolvePython(s.cwd, env, p.opts.ManagedVenvs)
	if err != nil {
		return nil, "", err
	}
	k, err := startKernel(python, p.runner, s.cwd, env, p.opts.InterruptGrace)
	if err != nil {
		return nil, "", fmt.Errorf("cannot start the Python kernel: %w", err)
	}
	p.kernels[s] = &entry{k: k, busy: true, lastUsed: p.now()}
	p.startSweeperLocked()
	return k, died, nil
}

// evictLocked stops the least recently used idle kernel; false when all
// are busy.
func (p *Pool) evictLocked() bool {
	var oldest *Session
	for s, e := range p.kernels {
		if !e.busy && (oldest == nil || e.lastUsed.Before(p.kernels[oldest].lastUsed)) {
			oldest = s
		}
	}
	if oldest == nil {
		return false
	}
	e := p.kernels[oldest]
	delete(p.kernels, oldest)
	oldest.noteEvicted()
	p.stopLater(e.k)
	return true
}

// stopLater stops k in the background; Close waits for it.
func (p *Pool) stopLater(k *kernel) {
	p.stopping.Add(1)
	go func() {
		defer p.stopping.Done()
		k.stop()
	}()
}

// release marks s's kernel idle again.
func (p *Pool) release(s *Session, k *kernel) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.kernels[s]; ok && e.k == k {
		e.busy, e.lastUsed = false, p.now()
	}
}

// drop stops s's kernel, if it has one.
func (p *Pool) drop(s *Session) {
	p.mu.Lock()
	e, ok := p.kernels[s]
	delete(p.kernels, s)
	p.mu.Unlock()
	if ok {
		e.k.stop()
	}
}

// startSweeperLocked starts the idle sweep once; p.mu is held.
func (p *Pool) startSweeperLocked() {
	if p.stop != nil {
		return
	}
	p.stop, p.swept = make(chan struct{}), make(chan struct{})
	go func(stop, swept chan struct{}) {
		defer close(swept)
		t := time.NewTicker(sweepInterval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				p.sweep()
			}
		}
	}(p.stop, p.swept)
}

// sweep stops the kernels idle for longer than the idle timeout.
func (p *Pool) sweep() {
	p.mu.Lock()
	now := p.now()
	var idle []*kernel
	for s, e := range p.kernels {
		if !e.busy && now.Sub(e.lastUsed) >= p.opts.IdleTimeout {
			delete(p.kernels, s)
			s.noteEvicted()
			idle = append(idle, e.k)
		}
	}
	p.mu.Unlock()
	for _, k := range idle {
		k.stop()
	}
}

// Session is one agent session's Python kernel, started on its first
// cell. Its cells run one at a time.
type Session struct {
	pool *Pool
	cwd  string

	run       sync.Mutex // one cell at a time
	checkOnce sync.Once
	checkErr  error // why no interpreter was found (Available)
	mu        sync.Mutex
	extraEnv  []string // set by Renew
	evicted   bool     // the pool stopped the kernel while idle; said on the next cell
}

// env returns the variables the session adds to its kernel's environment.
func (s *Session) env() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.extraEnv
}

// noteEvicted records that the pool stopped the session's idle kernel.
func (s *Session) noteEvicted() {
	s.mu.Lock()
	s.evicted = true
	s.mu.Unlock()
}

// Run runs one cell in the session's kernel, starting (or, with
// req.Reset, restarting) it first. An error means the cell did not run:
// no Python, the kernel could not start.
func (s *Session) Run(ctx context.Context, req cell.Request) (cell.Result, error) {
	s.run.Lock()
	defer s.run.Unlock()
	if req.Reset {
		s.pool.drop(s)
		s.mu.Lock()
		s.evicted = false
		s.mu.Unlock()
	}
	k, died, err := s.pool.acquire(s)
	if err != nil {
		return cell.Result{}, err
	}
	s.mu.Lock()
	evicted := s.evicted
	s.evicted = false
	s.mu.Unlock()
	res := k.run(ctx, req)
	switch {
	case died != "":
		res.Notes = append([]string{fmt.Sprintf(noteDied, died)}, res.Notes...)
	case evicted:
		res.Notes = append([]string{"The Python kernel had been stopped while idle; this cell ran in a new kernel, without the variables and imports of earlier cells."}, res.Notes...)
	}
	s.pool.release(s, k)
	if s.pool.opts.PerCall {
		s.pool.drop(s)
	}
	return res, nil
}

// Reset stops the session's kernel; the next cell starts a fresh one.
// Everything its cells started ends with it.
func (s *Session) Reset() {
	s.run.Lock()
	defer s.run.Unlock()
	s.pool.drop(s)
}

// Renew makes the handle another agent session's: the kernel stops with
// everything its cells started (after a running cell ends), and the next
// cell starts a fresh one with extraEnv. The agent session calls it when
// it moves to a new, resumed or branched session file, whose kernel omp
// keeps apart from the previous one's.
func (s *Session) Renew(extraEnv []string) {
	s.run.Lock()
	defer s.run.Unlock()
	s.pool.drop(s)
	s.mu.Lock()
	s.extraEnv, s.evicted = extraEnv, false
	s.mu.Unlock()
}

// Close stops the session's kernel (the session ended).
func (s *Session) Close() error {
	s.pool.drop(s)
	return nil
}

// Available reports whether the session's kernel can find a Python
// interpreter (checked once).
func (s *Session) Available() error {
	s.checkOnce.Do(func() {
		env := append(FilterEnv(s.pool.opts.Environ, s.pool.opts.PassEnv), s.env()...)
		_, _, s.checkErr = resolvePython(s.cwd, env, s.pool.opts.ManagedVenvs)
	})
	return s.checkErr
}
