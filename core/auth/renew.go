package auth

import (
	"context"
)

// Renew refreshes the stored sign-in of provider whose key is stale, even
// though its token has not expired yet, and returns the new key and base
// URL: a provider that refused the token (a 401) may have revoked it
// early, and omp then refreshes once and retries. A stale key that no
// stored sign-in holds any more (it was already renewed, or it was not a
// sign-in) gives the key Resolve would give now. The new tokens are
// written back as a refresh near expiry writes them; a refresh that
// fails is the error, as from Resolve.
func (s *Store) Renew(ctx context.Context, provider, stale string) (key, baseURL string, err error) {
	for _, src := range s.sources {
		db, err := src.open(ctx, false)
		if err != nil || db == nil {
			continue
		}
		key, baseURL, found, err := s.renewIn(ctx, src, db, provider, stale)
		db.Close()
		if found || err != nil {
			return key, baseURL, err
		}
	}
	key, baseURL, _, err = s.Resolve(ctx, provider, "")
	return key, baseURL, err
}

// renewIn is Renew in one source: found reports whether a sign-in there
// held the stale key.
func (s *Store) renewIn(ctx context.Context, src *source, db *DB, provider, stale string) (key, baseURL string, found bool, err error) {
	rows, err := db.active(ctx, provider)
	if err != nil {
		return "", "", false, nil
	}
	for _, r := range ofKind(dedupe(rows), KindOAuth) {
		if k, _, kerr := s.keyFor(ctx, provider, r.cred.OAuth); kerr != nil || k != stale {
			continue
		}
		c, err := s.refreshOnce(ctx, db, provider, r, true)
		if err != nil {
			if ctx.Err() != nil {
				return "", "", true, ctx.Err()
			}
			return "", "", true, &RefreshError{Provider: provider, Source: src.name, Err: err}
		}
		key, baseURL, err = s.keyFor(ctx, provider, c)
		return key, baseURL, true, err
	}
	return "", "", false, nil
}
