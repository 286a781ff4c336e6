package shell

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync"
)

// Pool is a session's shell: one persistent Session, started on first
// use in the pool's directory and started afresh there after it exits
// (state is lost then: directory, variables), with RunOnce
// as the fallback while it is busy or when it cannot be started. Safe for
// concurrent use.
type Pool struct {
	cfg   Config // with the owner and its mark in the environment
	dir   string // where a new persistent shell starts
	owner *owner

	mu     sync.Mutex
	sh     *Session
	busy   bool
	closed bool
	failed error // why the persistent shell could not start (then every command is one-shot)
}

// NewPool returns a pool starting its shells in dir.
func NewPool(cfg Config, dir string) *Pool {
	o := newOwner()
	cfg.Env = append(slices.Clone(cfg.Env), o.mark)
	cfg.owner = o
	return &Pool{cfg: cfg, dir: dir, owner: o}
}

// ErrPoolClosed is returned by Run after Close.
var ErrPoolClosed = errors.New("the session's shell is closed")

// Run runs req in the persistent shell when it is free, else in a
// one-shot shell. A command that ended the persistent shell reports
// ShellExited; the next command starts a new one.
func (p *Pool) Run(ctx context.Context, req Request) (Result, error) {
	sh, err := p.acquire(ctx)
	if err != nil {
		return Result{}, err
	}
	if sh == nil {
		return p.RunOnce(ctx, req)
	}
	defer p.release(sh)
	res, err := sh.Run(ctx, req)
	if errors.Is(err, ErrShellGone) {
		// Gone between acquire and Run: run this one alone.
		return p.RunOnce(ctx, req)
	}
	return res, err
}

// RunOnce runs req in a fresh shell (see the function RunOnce) whose
// processes belong to the pool: Close ends them. req.Dir "" is Dir().
func (p *Pool) RunOnce(ctx context.Context, req Request) (Result, error) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return Result{}, ErrPoolClosed
	}
	if req.Dir == "" {
		req.Dir = p.Dir()
	}
	return RunOnce(ctx, p.cfg, req)
}

// acquire returns the persistent shell, started if needed, or nil when
// the caller should run one-shot.
func (p *Pool) acquire(ctx context.Context) (*Session, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrPoolClosed
	}
	if p.busy || p.failed != nil {
		return nil, nil
	}
	if p.sh != nil && p.sh.Exited() {
		_ = p.sh.Close()
		p.sh = nil
	}
	if p.sh == nil {
		if fi, err := os.Stat(p.dir); err != nil || !fi.IsDir() {
			return nil, nil // the one-shot run reports the missing directory
		}
		sh, err := Start(ctx, p.cfg, p.dir)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			p.failed = err
			return nil, nil
		}
		p.sh = sh
	}
	p.busy = true
	return p.sh, nil
}

func (p *Pool) release(sh *Session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy = false
	if sh.Exited() {
		_ = sh.Close()
		if p.sh == sh {
			p.sh = nil
		}
	}
}

// Dir returns the directory the next command without one runs in.
func (p *Pool) Dir() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sh != nil {
		return p.sh.Dir()
	}
	return p.dir
}

// Err returns why the persistent shell could not be started (nil when it
// could, or has not been tried).
func (p *Pool) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failed
}

// Close ends every process the pool's shells started and returns once
// all of them have gone or been sent SIGKILL: the persistent shell and
// its process group, the one-shot and terminal shells still running and
// theirs, and the daemons that left those groups (found by the pool's
// mark, see the package doc). Each gets SIGTERM, up to the grace, then
// SIGKILL. Commands still running report a cancelled or exited shell;
// later ones fail with ErrPoolClosed.
func (p *Pool) Close() error {
	p.mu.Lock()
	sh := p.sh
	p.sh, p.closed = nil, true
	p.mu.Unlock()
	skip := 0
	var shellClosed sync.WaitGroup
	if sh != nil {
		skip = sh.cmd.Process.Pid
		shellClosed.Add(1)
		go func() {
			defer shellClosed.Done()
			_ = sh.Close()
		}()
	}
	groups := slices.DeleteFunc(p.owner.close(), func(g int) bool { return g == skip })
	endOwned(groups, skip, p.owner.mark, p.cfg.grace())
	shellClosed.Wait()
	killMarked(p.owner.mark) // anything started while the rest was ending
	return nil
}
