package auth

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// transientBlock is how long a sign-in whose refresh failed for a passing
// reason (network, a 5xx) is skipped before it is tried again, omp's five
// minutes.
const transientBlock = 5 * time.Minute

// refreshing is one refresh in flight; the callers that need the same row
// wait for it instead of starting their own.
type refreshing struct {
	done chan struct{}
	c    oauth.Credentials
	err  error
}

// RefreshError is a sign-in that could not be refreshed: which provider,
// why, and whether the credential was soft-deleted for it (a refresh
// token the provider refused) or only set aside for a while.
type RefreshError struct {
	Provider string // the provider id
	Source   string // SourceGopi or SourceOMP
	Disabled bool   // the row was soft-deleted ("oauth refresh failed: …")
	Err      error  // the provider's error
}

// Error says what failed and the command that fixes it, in one line.
func (e *RefreshError) Error() string {
	return fmt.Sprintf("%s: the stored sign-in (%s) expired and could not be refreshed (%s); %s", e.Provider, e.Source, oneLine(e.Err.Error()), loginHint(e.Provider))
}

// Unwrap returns the provider's error.
func (e *RefreshError) Unwrap() error { return e.Err }

// fresh returns r's tokens, refreshed first when they expire within
// oauth.RefreshBuffer, so that no request leaves with a lapsing token. A
// failure is a *RefreshError; a definitive one (the provider refused the
// refresh token) soft-deletes the row as omp does, a passing one sets it
// aside for transientBlock. Either way the failure is reported by this
// call only: later calls no longer pick the row.
func (s *Store) fresh(ctx context.Context, src *source, db *DB, provider string, r row) (oauth.Credentials, error) {
	if !r.cred.OAuth.Expired(s.opts.Now()) {
		return r.cred.OAuth, nil
	}
	c, err := s.refreshOnce(ctx, db, provider, r, false)
	if err == nil {
		return c, nil
	}
	if ctx.Err() != nil {
		return oauth.Credentials{}, ctx.Err()
	}
	rerr := &RefreshError{Provider: provider, Source: src.name, Err: err}
	if definitive(err) {
		if _, derr := db.disable(context.WithoutCancel(ctx), "oauth refresh failed: "+oneLine(err.Error()), "id = ?", r.id); derr == nil {
			rerr.Disabled = true
			src.forget()
		}
	} else {
		s.mu.Lock()
		s.blocked[rowKey(db, r)] = s.opts.Now().Add(transientBlock)
		s.mu.Unlock()
	}
	return oauth.Credentials{}, rerr
}

// refreshOnce runs one refresh per row however many goroutines need it:
// the first starts it, the others wait for its result. A waiter whose
// leader gave up because the leader's own context ended tries again
// itself. force refreshes a token that has not expired yet (see Renew).
func (s *Store) refreshOnce(ctx context.Context, db *DB, provider string, r row, force bool) (oauth.Credentials, error) {
	key := rowKey(db, r)
	for {
		s.mu.Lock()
		if f, ok := s.inflight[key]; ok {
			s.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return oauth.Credentials{}, ctx.Err()
			}
			if f.err != nil && (errors.Is(f.err, context.Canceled) || errors.Is(f.err, context.DeadlineExceeded)) && ctx.Err() == nil {
				continue
			}
			return f.c, f.err
		}
		f := &refreshing{done: make(chan struct{})}
		s.inflight[key] = f
		s.mu.Unlock()
		f.c, f.err = s.refreshRow(ctx, db, provider, r, force)
		s.mu.Lock()
		delete(s.inflight, key)
		s.mu.Unlock()
		close(f.done)
		return f.c, f.err
	}
}

// errSignedOut is a row removed while its refresh waited.
var errSignedOut = errors.New("it was removed meanwhile")

// refreshRow refreshes one row under a lock shared by the processes using
// the file, so two gopi processes on one agent.db refresh a sign-in once:
// the second finds the row already refreshed and uses it. The lock is
// atomicfile's lock of the never-created name "agent.db.refresh", an flock
// on the directory: not on agent.db itself, because closing another
// descriptor of the database file would drop the POSIX locks SQLite holds
// on it. omp does not take this lock; a row omp changed meanwhile is
// noticed by the compare-and-swap of the write.
//
// The refreshed tokens are written back to the row they came from, in
// gopi's agent.db or in omp's: a provider that rotates refresh tokens
// (Anthropic does) invalidates the old one, so keeping the new pair only
// in gopi's file would leave omp with a dead refresh token.
//
// force refreshes even a token that has not expired, unless the row
// changed since r was read (another caller renewed it meanwhile).
func (s *Store) refreshRow(ctx context.Context, db *DB, provider string, r row, force bool) (oauth.Credentials, error) {
	p, ok := s.provider(provider)
	if !ok {
		return oauth.Credentials{}, fmt.Errorf("gopi has no sign-in flow for %s to refresh it with", provider)
	}
	if unlock, err := atomicfile.Lock(db.path + ".refresh"); err == nil {
		defer unlock()
	}
	cur, ok, err := db.byID(ctx, r.id)
	if err != nil {
		return oauth.Credentials{}, err
	}
	if !ok || cur.disabled != "" || cur.kind != KindOAuth {
		return oauth.Credentials{}, errSignedOut
	}
	now := s.opts.Now()
	if !cur.cred.OAuth.Expired(now) && (!force || cur.data != r.data) {
		return cur.cred.OAuth, nil // still valid, or another caller refreshed it
	}
	rctx, cancel := context.WithTimeout(ctx, s.opts.RefreshTimeout)
	defer cancel()
	got, err := p.Refresh(rctx, cur.cred.OAuth)
	if err != nil {
		// omp (which does not take the lock) may have refreshed the row
		// meanwhile, spending the refresh token this call offered: its
		// tokens are the ones to use.
		if now, ok, _ := db.byID(context.WithoutCancel(ctx), r.id); ok && now.disabled == "" && now.data != cur.data && !now.cred.OAuth.Expired(s.opts.Now()) {
			return now.cred.OAuth, nil
		}
		if ctx.Err() == nil && rctx.Err() != nil {
			return oauth.Credentials{}, fmt.Errorf("the token endpoint did not answer within %s", s.opts.RefreshTimeout)
		}
		return oauth.Credentials{}, err
	}
	c := merge(cur.cred.OAuth, got)
	if c.Access == "" || c.Expired(s.opts.Now()) {
		return oauth.Credentials{}, errors.New("the provider returned a token that is already expired")
	}
	// Stored on a context of its own: the new refresh token must not be
	// lost because the request that asked for it was cancelled.
	wctx, wcancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.RefreshTimeout)
	defer wcancel()
	// A failed write still leaves tokens that work for this request; the
	// next refresh then finds the old refresh token and, if the provider
	// rotated it, asks for a login.
	_, _ = db.replaceData(wctx, r.id, provider, cur.data, OAuth(c))
	return c, nil
}

// merge keeps what a refresh did not return: the account, email, project
// and enterprise host of the sign-in, as omp does.
func merge(old, got oauth.Credentials) oauth.Credentials {
	if got.Refresh == "" {
		got.Refresh = old.Refresh
	}
	if got.AccountID == "" {
		got.AccountID = old.AccountID
	}
	if got.Email == "" {
		got.Email = old.Email
	}
	if got.ProjectID == "" {
		got.ProjectID = old.ProjectID
	}
	if got.EnterpriseURL == "" {
		got.EnterpriseURL = old.EnterpriseURL
	}
	return got
}

var (
	refusedRe   = regexp.MustCompile(`(?i)invalid_grant|invalid_token|revoked|unauthorized|expired.*refresh|refresh.*expired`)
	authCodeRe  = regexp.MustCompile(`\b(401|403)\b`)
	transientRe = regexp.MustCompile(`(?i)timeout|timed out|network|fetch failed|ECONNREFUSED|connection refused|did not answer`)
)

// definitive reports whether a refresh failure means the refresh token is
// dead (the provider refused it), omp's test: such a sign-in is
// soft-deleted; anything else may pass.
func definitive(err error) bool {
	msg := err.Error()
	if errors.Is(err, errSignedOut) {
		return false
	}
	return refusedRe.MatchString(msg) || authCodeRe.MatchString(msg) && !transientRe.MatchString(msg)
}

// oneLine folds an error text onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
