package auth

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// Resolve returns the key stored for provider, the base URL its
// credential names ("" for the model's own) and the source it came from.
// It satisfies the registry's StoredCredentials (core/ai/models).
//
// Sources are asked in order, gopi's agent.db before omp's; in one source
// API keys come before sign-ins, as in omp. Of several credentials of
// one kind a session keeps to one, and calls without a session take them
// in turn (see turn). A sign-in whose
// token expires within oauth.RefreshBuffer is refreshed first (see
// refresh); one that cannot be refreshed is skipped, and if nothing else
// is usable the error says so and names the command that fixes it.
// Nothing stored: key "" and a nil error.
//
// An unusable gopi agent.db (corrupt, locked, newer) is the error; an
// unusable omp agent.db is skipped, since gopi's own sources still work.
func (s *Store) Resolve(ctx context.Context, provider, session string) (key, baseURL, source string, err error) {
	var firstErr error
	for _, src := range s.sources {
		key, baseURL, err := s.resolveIn(ctx, src, provider, session)
		if key != "" {
			return key, baseURL, src.name, nil
		}
		var de *DBError
		if err != nil && src.owned && errors.As(err, &de) {
			return "", "", "", err
		}
		if err != nil && ctx.Err() != nil {
			return "", "", "", ctx.Err()
		}
		if err != nil && firstErr == nil && !errors.As(err, &de) {
			firstErr = err
		}
	}
	return "", "", "", firstErr
}

// resolveIn is Resolve in one source.
func (s *Store) resolveIn(ctx context.Context, src *source, provider, session string) (key, baseURL string, err error) {
	db, err := src.open(ctx, false)
	if err != nil || db == nil {
		return "", "", err
	}
	defer db.Close()
	rows, err := db.active(ctx, provider)
	if err != nil {
		return "", "", err
	}
	rows = dedupe(rows)
	if keys := ofKind(rows, KindAPIKey); len(keys) > 0 {
		key, err := s.keyValue(provider, keys[s.turn(provider, KindAPIKey, session, len(keys))].cred.Key)
		return key, "", err
	}
	signins := ofKind(rows, KindOAuth)
	var firstErr error
	start := s.turn(provider, KindOAuth, session, len(signins))
	for i := range signins {
		r := signins[(start+i)%len(signins)]
		if s.isBlocked(db, r) {
			continue
		}
		c, err := s.fresh(ctx, src, db, provider, r)
		var key, baseURL string
		if err == nil {
			key, baseURL, err = s.keyFor(ctx, provider, c)
		}
		if err != nil {
			if ctx.Err() != nil {
				return "", "", ctx.Err()
			}
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		return key, baseURL, nil
	}
	return "", "", firstErr
}

// Stored names the first source with credentials for provider, without
// refreshing anything or using the network; "" when none has any.
func (s *Store) Stored(provider string) string {
	for _, src := range s.sources {
		if ok, _ := src.has(context.Background(), provider); ok {
			return src.name
		}
	}
	return ""
}

// keyValue is what a stored API key stands for: the value of the
// environment variable it names when that is set, else the key itself, as
// omp reads it. omp also runs a key written "!command"; gopi does not run
// commands from a credential file, and says so.
func (s *Store) keyValue(provider, key string) (string, error) {
	if strings.HasPrefix(key, "!") {
		return "", fmt.Errorf("%s: the stored API key is a command (%q), which gopi does not run; store the key itself with `gopi login %s`", provider, key, provider)
	}
	if s.opts.Getenv != nil {
		if v := s.opts.Getenv(key); v != "" {
			return v, nil
		}
	}
	return key, nil
}

// keyFor is what requests carry for a sign-in, through the provider's
// flow when gopi has one (Copilot's session token, Gemini CLI's token with
// its project), else the access token.
func (s *Store) keyFor(ctx context.Context, provider string, c oauth.Credentials) (key, baseURL string, err error) {
	p, ok := s.provider(provider)
	if !ok {
		return c.Access, "", nil
	}
	if sk, ok := p.(oauth.SessionKeyProvider); ok {
		return sk.SessionKey(ctx, c)
	}
	if b, ok := p.(oauth.BaseURLProvider); ok {
		baseURL = b.BaseURL(c)
	}
	return p.APIKey(c), baseURL, nil
}

func (s *Store) provider(id string) (oauth.Provider, bool) {
	if s.opts.Providers == nil {
		return nil, false
	}
	return s.opts.Providers(id)
}

// turn returns where to start among n credentials of one provider and
// kind. A session starts from a position its id hashes to, so its
// requests keep to one credential (and its provider-side prompt cache);
// without a session the position goes round: 0, 1, …, n-1, 0, … — omp's
// two orders. The later credentials are the fallbacks, in order.
func (s *Store) turn(provider string, kind Kind, session string, n int) int {
	if n <= 1 {
		return 0
	}
	if session != "" {
		h := fnv.New32a()
		h.Write([]byte(session))
		return int(h.Sum32() % uint32(n))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := provider + ":" + string(kind)
	i := s.next[k] % n
	s.next[k] = i + 1
	return i
}

// rowKey names a row across the sources.
func rowKey(db *DB, r row) string { return db.path + "#" + strconv.FormatInt(r.id, 10) }

func (s *Store) isBlocked(db *DB, r row) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	until, ok := s.blocked[rowKey(db, r)]
	if !ok {
		return false
	}
	if !s.opts.Now().Before(until) {
		delete(s.blocked, rowKey(db, r))
		return false
	}
	return true
}

// ofKind keeps the rows of one kind, in order.
func ofKind(rows []row, k Kind) []row {
	var out []row
	for _, r := range rows {
		if r.kind == k {
			out = append(out, r)
		}
	}
	return out
}

// dedupe drops older sign-ins of an identity that has a newer row, as omp
// does when it loads the file (it also soft-deletes them; a read here
// writes nothing).
func dedupe(rows []row) []row {
	seen := map[string]bool{}
	keep := make([]bool, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.kind == KindOAuth && r.identity != "" {
			if seen[r.identity] {
				continue
			}
			seen[r.identity] = true
		}
		keep[i] = true
	}
	var out []row
	for i, r := range rows {
		if keep[i] {
			out = append(out, r)
		}
	}
	return out
}

// loginHint is the one-line fix for a sign-in gopi cannot use.
func loginHint(provider string) string { return fmt.Sprintf("run `gopi login %s`", provider) }
