package oauth

import (
	"context"
	"net/http"
	"net/url"
)

// Anthropic's sign-in facts (omp 14.9.9's, so tokens work in both programs).
const (
	anthropicClientID  = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
	anthropicScopes    = "org:create_api_key user:profile user:inference"
	anthropicAuthorize = "https://claude.ai/oauth/authorize"
	anthropicToken     = "https://api.anthropic.com/v1/oauth/token"
)

// Anthropic signs in to a Claude Pro/Max subscription: an authorization
// code with PKCE, returned to a local callback (port 54545; any other
// loopback port is accepted when it is busy) or pasted as code#state, then
// exchanged at the token endpoint, which also refreshes. Tokens are stored
// to expire five minutes early, as omp stores them.
type Anthropic struct {
	HTTP
	AuthorizeURL string   // the browser's authorization page
	TokenURL     string   // the token endpoint (JSON bodies)
	Callback     Callback // where the browser comes back to
	now          clock
}

// NewAnthropic returns the Anthropic sign-in with omp's endpoints.
func NewAnthropic(client *http.Client) *Anthropic {
	return &Anthropic{
		HTTP:         HTTP{Client: client},
		AuthorizeURL: anthropicAuthorize,
		TokenURL:     anthropicToken,
		Callback:     Callback{Port: 54545, Path: "/callback"},
	}
}

// ID is "anthropic".
func (*Anthropic) ID() string { return "anthropic" }

// Name is the name omp shows.
func (*Anthropic) Name() string { return "Anthropic (Claude Pro/Max)" }

// APIKey is the access token.
func (*Anthropic) APIKey(c Credentials) string { return c.Access }

// Login runs the browser sign-in and exchanges the code.
func (a *Anthropic) Login(ctx context.Context, ui UI) (Credentials, error) {
	pk := newPKCE()
	step := browserStep{
		Provider:     a.ID(),
		Callback:     a.Callback,
		Instructions: "Sign in in the browser. If it cannot reach this machine, paste the final address (or the code it shows) here.",
		AuthURL: func(state, redirect string) string {
			q := url.Values{
				"code":                  {"true"},
				"client_id":             {anthropicClientID},
				"response_type":         {"code"},
				"redirect_uri":          {redirect},
				"scope":                 {anthropicScopes},
				"code_challenge":        {pk.Challenge},
				"code_challenge_method": {"S256"},
				"state":                 {state},
			}
			return a.AuthorizeURL + "?" + q.Encode()
		},
	}
	g, err := step.run(ctx, ui)
	if err != nil {
		return Credentials{}, err
	}
	ui.Progress("Exchanging the authorization code for tokens…")
	t, err := a.tokenCall(ctx, a.ID(), "token exchange", a.TokenURL, map[string]string{
		"grant_type":    "authorization_code",
		"client_id":     anthropicClientID,
		"code":          g.Code,
		"state":         g.State,
		"redirect_uri":  g.RedirectURI,
		"code_verifier": pk.Verifier,
	})
	if err != nil {
		return Credentials{}, err
	}
	return a.credentials(t, Credentials{}), nil
}

// Refresh trades the refresh token for a new access token (and, when the
// server rotates it, a new refresh token).
func (a *Anthropic) Refresh(ctx context.Context, c Credentials) (Credentials, error) {
	t, err := a.tokenCall(ctx, a.ID(), "token refresh", a.TokenURL, map[string]string{
		"grant_type":    "refresh_token",
		"client_id":     anthropicClientID,
		"refresh_token": c.Refresh,
	})
	if err != nil {
		return Credentials{}, err
	}
	return a.credentials(t, c), nil
}

// credentials stores a token answer; what it leaves out (the refresh token,
// the account) stays as in old.
func (a *Anthropic) credentials(t tokenAnswer, old Credentials) Credentials {
	c := Credentials{Access: t.AccessToken, Refresh: t.RefreshToken, Expires: t.expiry(a.now.now(), RefreshBuffer), AccountID: old.AccountID, Email: old.Email}
	if c.Refresh == "" {
		c.Refresh = old.Refresh
	}
	if t.Account != nil && t.Account.UUID != "" {
		c.AccountID = t.Account.UUID
	}
	if t.Account != nil && t.Account.Email != "" {
		c.Email = t.Account.Email
	}
	return c
}
