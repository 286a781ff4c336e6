package auth

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// DBFile is the credential database's name in an agent directory.
const DBFile = "agent.db"

// Source names, as status and `gopi models` show them.
const (
	SourceGopi = "agent.db"     // gopi's own agent.db
	SourceOMP  = "omp agent.db" // omp's ~/.omp/agent/agent.db
)

// DefaultRefreshTimeout bounds one token refresh, omp's 10 seconds.
const DefaultRefreshTimeout = 10 * time.Second

// Options configures a Store.
type Options struct {
	Path    string // gopi's agent.db (written by logins); "" for none
	OMPPath string // omp's agent.db, read after Path; "" for none
	// Providers finds the sign-in flow of a provider id, which refreshes
	// its tokens and turns them into a key; nil knows none.
	Providers func(id string) (oauth.Provider, bool)
	// Getenv looks up an environment variable: a stored key that names a
	// set variable stands for its value, as in omp (nil: keys are
	// literal).
	Getenv         func(string) string
	Now            func() time.Time // the clock; time.Now when nil
	RefreshTimeout time.Duration    // DefaultRefreshTimeout when 0
	BusyTimeout    time.Duration    // DefaultBusyTimeout when 0
}

// Store is the credential store: gopi's agent.db, then omp's. It holds no
// file open between calls: each call opens what it reads and closes it
// again, so a login in another process is seen at once and a Store needs
// no closing (its owner may simply drop it). Its methods are safe for
// concurrent use.
type Store struct {
	opts    Options
	sources []*source

	mu       sync.Mutex
	next     map[string]int         // round-robin position per "provider:kind"
	blocked  map[string]time.Time   // row ("path#id") → when a transient refresh failure stops blocking it
	inflight map[string]*refreshing // row → the refresh running for it
}

// New returns a store over the files opts names; nothing is opened.
func New(opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RefreshTimeout <= 0 {
		opts.RefreshTimeout = DefaultRefreshTimeout
	}
	s := &Store{opts: opts, next: map[string]int{}, blocked: map[string]time.Time{}, inflight: map[string]*refreshing{}}
	if opts.Path != "" {
		s.sources = append(s.sources, &source{name: SourceGopi, path: opts.Path, owned: true, busy: opts.BusyTimeout})
	}
	if opts.OMPPath != "" && opts.OMPPath != opts.Path {
		s.sources = append(s.sources, &source{name: SourceOMP, path: opts.OMPPath, busy: opts.BusyTimeout})
	}
	return s
}

// Path is gopi's own agent.db ("" when the store has none).
func (s *Store) Path() string { return s.opts.Path }

// own opens gopi's agent.db, created when create is set; nil (without an
// error) when it does not exist and create is not set. The caller closes
// it.
func (s *Store) own(ctx context.Context, create bool) (*DB, error) {
	if len(s.sources) == 0 || !s.sources[0].owned {
		return nil, errors.New("no agent directory to keep credentials in")
	}
	return s.sources[0].open(ctx, create)
}

// source is one agent.db.
type source struct {
	name  string
	path  string
	owned bool
	busy  time.Duration

	mu        sync.Mutex
	providers map[string]bool // providers with active rows, as of stamp
	stamp     [2]fileStamp    // agent.db and its -wal file when providers was read
}

// fileStamp tells whether a file changed.
type fileStamp struct {
	size int64
	mod  time.Time
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{fi.Size(), fi.ModTime()}
}

// open opens the database if it exists (or create is set and it is
// gopi's); nil, nil when there is nothing to read. The caller closes it.
func (src *source) open(ctx context.Context, create bool) (*DB, error) {
	if !create {
		if _, err := os.Stat(src.path); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	db, err := openDB(ctx, src.path, src.owned, src.busy)
	if errors.Is(err, ErrNoDB) {
		return nil, nil
	}
	return db, err
}

// has reports whether provider has active rows, from a set re-read only
// when the file changed since: cheap enough to ask for every model.
func (src *source) has(ctx context.Context, provider string) (bool, error) {
	now := [2]fileStamp{stampOf(src.path), stampOf(src.path + "-wal")}
	src.mu.Lock()
	if src.providers != nil && now == src.stamp {
		ok := src.providers[provider]
		src.mu.Unlock()
		return ok, nil
	}
	src.mu.Unlock()
	// An unusable file counts as empty until it changes, so that asking
	// for every model does not open it again each time.
	set := map[string]bool{}
	db, err := src.open(ctx, false)
	if db != nil {
		var rows []row
		rows, err = db.query(ctx, "", false)
		db.Close()
		for _, r := range rows {
			set[r.provider] = true
		}
	}
	src.mu.Lock()
	src.providers, src.stamp = set, now
	src.mu.Unlock()
	return set[provider], err
}

// forget drops the cached provider set after a write of this process.
func (src *source) forget() {
	src.mu.Lock()
	src.providers = nil
	src.mu.Unlock()
}
