package auth

import (
	"context"
	"errors"
	"strings"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// Login runs p's sign-in through ui and stores the result in gopi's
// agent.db: a new account is added beside the provider's others (used in
// turn), a sign-in of an account already stored replaces it.
func (s *Store) Login(ctx context.Context, p oauth.Provider, ui oauth.UI) error {
	c, err := p.Login(ctx, ui)
	if err != nil {
		return err
	}
	if c.Access == "" {
		return errors.New(p.ID() + ": the sign-in returned no access token; try again")
	}
	return s.Save(ctx, p.ID(), OAuth(c), false)
}

// Save stores c for provider in gopi's agent.db, creating the file (mode
// 0600, directory 0700) if needed. An API key replaces the provider's
// stored credentials unless add is set, when it joins them; a sign-in
// replaces only the one of the same account. Replaced rows are
// soft-deleted, as omp does.
func (s *Store) Save(ctx context.Context, provider string, c Credential, add bool) error {
	if strings.TrimSpace(provider) == "" {
		return errors.New("no provider named")
	}
	if c.Kind == KindAPIKey && strings.TrimSpace(c.Key) == "" {
		return errors.New(provider + ": the API key is empty")
	}
	db, err := s.own(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	defer s.sources[0].forget()
	s.resetTurns(provider)
	return db.save(ctx, provider, c, add)
}

// Logout soft-deletes provider's credentials in gopi's agent.db ("deleted
// by user", omp's cause) and returns how many there were. omp's agent.db
// is not changed: credentials still found there are reported by
// Elsewhere.
func (s *Store) Logout(ctx context.Context, provider string) (int, error) {
	db, err := s.own(ctx, false)
	if err != nil || db == nil {
		return 0, err
	}
	defer db.Close()
	defer s.sources[0].forget()
	s.resetTurns(provider)
	n, err := db.disable(ctx, "deleted by user", "provider = ?", provider)
	return int(n), err
}

// Elsewhere names the sources other than gopi's agent.db that still hold
// credentials for provider (omp's agent.db), for the message after a
// logout.
func (s *Store) Elsewhere(provider string) []string {
	var out []string
	for _, src := range s.sources {
		if src.owned {
			continue
		}
		if ok, _ := src.has(context.Background(), provider); ok {
			out = append(out, src.path)
		}
	}
	return out
}

// resetTurns restarts provider's round-robin after its credentials
// changed, as omp does.
func (s *Store) resetTurns(provider string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range []Kind{KindAPIKey, KindOAuth} {
		delete(s.next, provider+":"+string(k))
	}
}
