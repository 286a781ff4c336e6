package shell

import (
	"context"
	"errors"
	"os"
	"sync"
)

// Pool is a session's shell: one persistent Session, started on first
// use in the pool's directory and started afresh there after it exits
// (state is lost then: directory, variables), with RunOnce
// as the fallback while it is busy or when it cannot be started. Safe for
// concurrent use.
type Pool struct {
	cfg Config
	dir string // where a new persistent shell starts

	mu     sync.Mutex
	sh     *Session
	busy   bool
	closed bool
	failed error // why the persistent shell could not start (then every command is one-shot)
}

// NewPool returns a pool starting its shells in dir.
func NewPool(cfg Config, dir string) *Pool { return &Pool{cfg: cfg, dir: dir} }

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
		if req.Dir == "" {
			req.Dir = p.Dir()
		}
		return RunOnce(ctx, p.cfg, req)
	}
	defer p.release(sh)
	res, err := sh.Run(ctx, req)
	if errors.Is(err, ErrShellGone) {
		// Gone between acquire and Run: run this one alone.
		if req.Dir == "" {
			req.Dir = p.Dir()
		}
		return RunOnce(ctx, p.cfg, req)
	}
	return res, err
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

// Close ends the persistent shell and everything it started. Commands
// running one-shot end with their contexts.
func (p *Pool) Close() error {
	p.mu.Lock()
	sh := p.sh
	p.sh, p.closed = nil, true
	p.mu.Unlock()
	if sh != nil {
		return sh.Close()
	}
	return nil
}
