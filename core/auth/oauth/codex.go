package oauth

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// OpenAI Codex's sign-in facts (omp 14.9.9's).
const (
	codexClientID   = "app_EMoamEEZ73f0CkXaXp7hrann"
	codexScope      = "openid profile email offline_access"
	codexAuthorize  = "https://auth.openai.com/oauth/authorize"
	codexToken      = "https://auth.openai.com/oauth/token"
	codexTimeout    = 15 * time.Second
	codexOriginator = "opencode"
)

// Codex signs in with a ChatGPT Plus/Pro account for the Codex backend: an
// authorization code with PKCE returned to localhost:1455/auth/callback,
// the only redirect OpenAI accepts for this client, so a busy port means
// pasting the redirect URL instead. The ChatGPT account id, which requests
// must name, is read from the access token's claims.
type Codex struct {
	HTTP
	AuthorizeURL string   // the browser's authorization page
	TokenURL     string   // the token endpoint (form bodies)
	Callback     Callback // where the browser comes back to
	Originator   string   // the originator parameter; "" is omp's "opencode"
	now          clock
}

// NewCodex returns the ChatGPT sign-in with omp's endpoints.
func NewCodex(client *http.Client) *Codex {
	return &Codex{
		HTTP:         HTTP{Client: client, Timeout: codexTimeout},
		AuthorizeURL: codexAuthorize,
		TokenURL:     codexToken,
		Callback:     Callback{Port: 1455, Path: "/auth/callback", Fixed: true},
	}
}

// ID is "openai-codex".
func (*Codex) ID() string { return "openai-codex" }

// Name is the name omp shows.
func (*Codex) Name() string { return "ChatGPT Plus/Pro (Codex Subscription)" }

// APIKey is the access token (the provider reads the account id from it).
func (*Codex) APIKey(c Credentials) string { return c.Access }

// Login runs the browser sign-in and exchanges the code.
func (x *Codex) Login(ctx context.Context, ui UI) (Credentials, error) {
	pk := newPKCE()
	originator := strings.TrimSpace(x.Originator)
	if originator == "" {
		originator = codexOriginator
	}
	step := browserStep{
		Provider:     x.ID(),
		Callback:     x.Callback,
		Instructions: "Sign in with your ChatGPT account in the browser.",
		AuthURL: func(state, redirect string) string {
			q := url.Values{
				"response_type":              {"code"},
				"client_id":                  {codexClientID},
				"redirect_uri":               {redirect},
				"scope":                      {codexScope},
				"code_challenge":             {pk.Challenge},
				"code_challenge_method":      {"S256"},
				"state":                      {state},
				"id_token_add_organizations": {"true"},
				"codex_cli_simplified_flow":  {"true"},
				"originator":                 {originator},
			}
			return x.AuthorizeURL + "?" + q.Encode()
		},
	}
	g, err := step.run(ctx, ui)
	if err != nil {
		return Credentials{}, err
	}
	ui.Progress("Exchanging the authorization code for tokens…")
	return x.token(ctx, "token exchange", url.Values{
		"grant_type":    {"authorization_code"},
		"client_id":     {codexClientID},
		"code":          {g.Code},
		"code_verifier": {pk.Verifier},
		"redirect_uri":  {g.RedirectURI},
	}, Credentials{})
}

// Refresh trades the refresh token for new tokens.
func (x *Codex) Refresh(ctx context.Context, c Credentials) (Credentials, error) {
	return x.token(ctx, "token refresh", url.Values{
		"grant_type":    {"refresh_token"},
		"refresh_token": {c.Refresh},
		"client_id":     {codexClientID},
	}, c)
}

// token calls the token endpoint; old supplies what the answer may leave
// out (the refresh token, the account id on a refresh).
func (x *Codex) token(ctx context.Context, step string, form url.Values, old Credentials) (Credentials, error) {
	t, err := x.tokenCall(ctx, x.ID(), step, x.TokenURL, form)
	if err != nil {
		return Credentials{}, err
	}
	if t.ExpiresIn <= 0 || t.RefreshToken == "" && old.Refresh == "" {
		return Credentials{}, &Error{Provider: x.ID(), Step: step, Detail: "the answer lacks the refresh token or the expiry"}
	}
	c := Credentials{Access: t.AccessToken, Refresh: t.RefreshToken, Expires: t.expiry(x.now.now(), 0)}
	if c.Refresh == "" {
		c.Refresh = old.Refresh
	}
	c.AccountID, c.Email = codexClaims(t.AccessToken)
	if c.AccountID == "" {
		if old.AccountID == "" {
			return Credentials{}, &Error{Provider: x.ID(), Step: step, Detail: "the access token names no ChatGPT account"}
		}
		c.AccountID = old.AccountID
	}
	if c.Email == "" {
		c.Email = old.Email
	}
	return c, nil
}
