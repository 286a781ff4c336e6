package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// SessionKeyProvider is implemented by a Provider whose requests carry a
// short-lived key that the stored credentials buy over the network, rather
// than the stored access token itself: GitHub Copilot's session token. The
// credential store (core/auth) asks for it after the stored credentials
// are fresh, on every request, so the provider caches it.
type SessionKeyProvider interface {
	// SessionKey is the key and API root ("" keeps the model's own) for a
	// request made with c now.
	SessionKey(ctx context.Context, c Credentials) (key, baseURL string, err error)
}

// directRetry is how long a GitHub token whose exchange was not offered
// (or failed on the way) is used directly before the exchange is tried
// again.
const directRetry = time.Hour

// exchangeTimeout bounds the exchange when the provider sets no Timeout:
// it runs before a request, so a GitHub that does not answer costs this
// once (then the GitHub token is used for directRetry).
const exchangeTimeout = 10 * time.Second

// maxSessions bounds the session tokens kept in memory (one per GitHub
// token; a process normally has one or two).
const maxSessions = 64

// copilotSession is a Copilot session token, or the decision to use the
// GitHub token directly, until renewAt.
type copilotSession struct {
	key     string
	baseURL string
	expires time.Time // the session token's own expiry; zero when direct
	renewAt time.Time
	direct  bool
}

// copilotSessions caches session tokens by a digest of the GitHub token
// they were bought with; one exchange runs at a time (turn is its token,
// taken under the caller's context).
type copilotSessions struct {
	once sync.Once
	turn chan struct{}
	byID map[[32]byte]copilotSession
}

// take waits for the turn to look up or exchange, or for ctx.
func (s *copilotSessions) take(ctx context.Context) error {
	s.once.Do(func() { s.turn = make(chan struct{}, 1) })
	select {
	case s.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// give ends the turn.
func (s *copilotSessions) give() { <-s.turn }

// copilotTokenAnswer is GitHub's answer to the exchange.
type copilotTokenAnswer struct {
	Token     string `json:"token"`
	ExpiresAt int64  `json:"expires_at"` // Unix seconds
	RefreshIn int64  `json:"refresh_in"` // seconds until GitHub suggests a new one
	Endpoints struct {
		API string `json:"api"`
	} `json:"endpoints"`
}

// SessionKey trades the stored GitHub token for a Copilot session token
// (GET copilot_internal/v2/token on the GitHub API of the sign-in's host)
// and returns it with the API root the answer names. The session token is
// kept until RefreshBuffer before its expiry, or until GitHub's refresh_in
// has passed when that is sooner, so no request leaves with one that
// lapses on the way.
//
// omp 14.9.9 sends the GitHub token itself (its sign-in's client is one the
// Copilot API accepts directly), so when GitHub does not offer the
// exchange for a token (any 4xx but 401), or the exchange fails on the
// way or with a 5xx, the GitHub token is used as omp uses it, and the
// exchange is tried again after directRetry. A 401 means GitHub no longer
// accepts the token: the error says to sign in again.
func (p *Copilot) SessionKey(ctx context.Context, c Credentials) (key, baseURL string, err error) {
	id := sha256.Sum256([]byte(c.Access))
	s := &p.sessions
	if err := s.take(ctx); err != nil {
		return "", "", err
	}
	defer s.give()
	now := p.now.now()
	if got, ok := s.byID[id]; ok && now.Before(got.renewAt) {
		return got.key, got.baseURL, nil
	}
	got, err := p.exchange(ctx, c, now)
	if err != nil {
		return "", "", err
	}
	if got.renewAt.After(now) {
		if s.byID == nil || len(s.byID) >= maxSessions {
			s.byID = map[[32]byte]copilotSession{}
		}
		s.byID[id] = got
	}
	return got.key, got.baseURL, nil
}

// exchange runs one exchange at now and decides what requests carry.
func (p *Copilot) exchange(ctx context.Context, c Credentials, now time.Time) (copilotSession, error) {
	direct := copilotSession{key: c.Access, baseURL: p.BaseURL(c), renewAt: now.Add(directRetry), direct: true}
	header := map[string]string{"Authorization": "token " + c.Access, "User-Agent": copilotUserAgent}
	h := p.HTTP
	if h.Timeout <= 0 {
		h.Timeout = exchangeTimeout
	}
	r, err := h.call(ctx, p.ID(), "Copilot token exchange", http.MethodGet, p.tokenURL(c.EnterpriseURL), nil, header)
	if err != nil {
		if ctx.Err() != nil {
			return copilotSession{}, ctx.Err()
		}
		var e *Error
		if errors.As(err, &e) && e.Status == http.StatusUnauthorized {
			e.Relogin = true
			e.Detail = "GitHub no longer accepts the stored sign-in"
			return copilotSession{}, e
		}
		return direct, nil
	}
	var a copilotTokenAnswer
	if json.Unmarshal(r.Body, &a) != nil || a.Token == "" || a.ExpiresAt <= 0 {
		return direct, nil
	}
	expires := time.Unix(a.ExpiresAt, 0)
	if !now.Before(expires) {
		return direct, nil // already lapsed: a clock far apart from GitHub's
	}
	renew := expires.Add(-RefreshBuffer)
	if a.RefreshIn > 0 {
		if hint := now.Add(time.Duration(a.RefreshIn) * time.Second); hint.Before(renew) {
			renew = hint
		}
	}
	base := p.BaseURL(c)
	if api := sessionAPI(a.Endpoints.API); api != "" {
		base = api
	}
	return copilotSession{key: a.Token, baseURL: base, expires: expires, renewAt: renew}, nil
}

// sessionAPI keeps the API root an exchange names when it is an https URL
// on a host (GitHub's own hosts only ever answer with one); "" otherwise.
func sessionAPI(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return ""
	}
	return strings.TrimRight(u.String(), "/")
}

// tokenURL is the exchange endpoint for a sign-in's host: GitHub's API
// (api.github.com, or api.<domain> of an Enterprise server).
func (p *Copilot) tokenURL(enterprise string) string {
	if p.TokenURL != nil {
		return p.TokenURL(enterprise)
	}
	host := "github.com"
	if enterprise != "" {
		host = enterprise
	}
	return "https://api." + host + "/copilot_internal/v2/token"
}
